package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/cli"
	"idxlabel/internal/atomicfile"
	"idxlabel/pairfile"
)

// Without a display the GUI says so in one line and exits 1, instead of GLFW's panic.
func TestNoDisplayIsOneLine(t *testing.T) {
	if !needsDisplay() {
		t.Skip("windows need no X11/Wayland display on", os.Getenv("GOOS"))
	}
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	file := filepath.Join(t.TempDir(), "x")
	os.WriteFile(file, []byte("x"), 0o644)
	var stdout, stderr bytes.Buffer
	code := cli.Run([]string{file}, &stdout, &stderr, openGUI)
	if code != 1 || stderr.String() != "idxlabel: no display (DISPLAY is not set); the sub-commands work without one\n" {
		t.Fatalf("exit %d, %q", code, stderr.String())
	}
	// A label file that an interrupted save has still to put in place is a file to open (the
	// GUI finishes the save), not a misspelled command.
	pending := filepath.Join(t.TempDir(), "new-labels-idx1-ubyte.gz")
	temp := atomicfile.TempPrefix(pending) + "12345" // the labels written, not yet renamed
	os.WriteFile(temp, []byte("x"), 0o644)
	record := fmt.Sprintf(`{"version":2,"files":[{"target":%q,"temp":%q,"backup":false}]}`, filepath.Base(pending), filepath.Base(temp))
	os.WriteFile(pending+pairfile.ManifestSuffix, []byte(record), 0o644)
	stderr.Reset()
	if code := cli.Run([]string{file, pending}, &stdout, &stderr, openGUI); code != 1 || !strings.Contains(stderr.String(), "no display") {
		t.Fatalf("a pair whose label file a save has still to put in place: exit %d, %q", code, stderr.String())
	}
}

// Under the C.UTF-8 locale (Debian's default in containers) no command prints Fyne's "Error
// parsing user locale" lines: the error stays one line. It runs the test binary itself as the
// child, so the locale fix (a constructor that runs before package init, linked in through
// ui/platform) is exercised with Fyne linked in as in the program.
func TestNoLocaleNoiseUnderCUTF8(t *testing.T) {
	if os.Getenv("IDXLABEL_LOCALE_CHILD") != "" {
		os.Exit(cli.Run([]string{"info", "/nonexistent/x"}, os.Stdout, os.Stderr, openGUI))
	}
	for _, v := range []string{"LANG=C.UTF-8", "LC_ALL=C.UTF-8", "LANG=POSIX.UTF-8"} {
		cmd := exec.Command(os.Args[0], "-test.run", "^TestNoLocaleNoiseUnderCUTF8$")
		cmd.Env = []string{"IDXLABEL_LOCALE_CHILD=1", "PATH=" + os.Getenv("PATH"), v}
		out, _ := cmd.CombinedOutput()
		if got := string(out); got != "idxlabel: /nonexistent/x: no such file or directory\n" {
			t.Errorf("%s: %q", v, got)
		}
	}
}
