//go:build windows

package cli

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestOpensGUI: the Windows console is attached exactly for the command lines Run does not
// answer with the GUI.
func TestOpensGUI(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "t10k-images-idx3-ubyte")
	if err := os.WriteFile(file, []byte{0, 0, 8, 1, 0, 0, 0, 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		gui  bool
	}{
		{nil, true},
		{[]string{file}, true},
		{[]string{file, file}, true},
		{[]string{file, file, file}, false},
		{[]string{"info", file}, false},
		{[]string{"help"}, false},
		{[]string{"--help"}, false},
		{[]string{"-x"}, false},
		{[]string{dir}, false},
		{[]string{filepath.Join(dir, "missing")}, false},
	} {
		if got := opensGUI(c.args); got != c.gui {
			t.Errorf("opensGUI(%q) = %v, want %v", c.args, got, c.gui)
		}
	}
	// Run agrees: the cases it answers without the GUI exit with a status, here 2 (usage).
	for _, args := range [][]string{{file, file, file}, {"-x"}, {dir}} {
		if st := Run(args, io.Discard, io.Discard, noGUI); st != 2 {
			t.Errorf("Run(%q) = %d, want 2", args, st)
		}
	}
}
