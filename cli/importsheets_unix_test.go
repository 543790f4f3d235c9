//go:build unix

package cli

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Ctrl+C while import-sheets reads its sheets stops it with exit status 130 and writes
// nothing: not the pair, not the contact sheet. The test runs its own binary as the command (a
// child process), interrupts it once it has reported its first sheet, and looks at the folder.
func TestImportSheetsInterrupted(t *testing.T) {
	if args := os.Getenv("IDXLABEL_SHEETS_CHILD"); args != "" {
		os.Exit(Run(strings.Split(args, "\n"), os.Stdout, os.Stderr, noGUI))
	}
	if testing.Short() {
		t.Skip("reads sheets in a child process")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "scans")
	writeSheets(t, in, "s-000.jpg")
	data, err := os.ReadFile(filepath.Join(in, "s-000.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < 40; k++ { // enough sheets that the interrupt comes while they are read
		os.WriteFile(filepath.Join(in, fmt.Sprintf("s-%03d.jpg", k)), data, 0o644)
	}
	images, labels := filepath.Join(dir, "i"), filepath.Join(dir, "l")
	cmd := exec.Command(os.Args[0], "-test.run", "^TestImportSheetsInterrupted$")
	cmd.Env = append(os.Environ(), "IDXLABEL_SHEETS_CHILD="+strings.Join([]string{"import-sheets", in, images, labels}, "\n"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var said []string
	for sc.Scan() {
		said = append(said, sc.Text())
		if strings.HasPrefix(sc.Text(), "import-sheets: ") {
			cmd.Process.Signal(syscall.SIGINT)
			break
		}
	}
	for sc.Scan() {
		said = append(said, sc.Text())
	}
	err = cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit %v, want 130; stderr:\n%s", err, strings.Join(said, "\n"))
	}
	if !strings.Contains(strings.Join(said, "\n"), "interrupted (Ctrl+C)") {
		t.Errorf("stderr:\n%s", strings.Join(said, "\n"))
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "scans" {
			t.Errorf("%s written after Ctrl+C", e.Name())
		}
	}
}
