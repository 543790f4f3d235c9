package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileName is a folder's or file's name that a message must not print raw: a newline (a
// forged line), an escape code that clears the terminal, a colour code, and bytes that are not
// UTF-8.
const hostileName = "ev\nil\x1b[2J\xff"

// A file named with a newline, escape codes and bytes that are not UTF-8, in a folder named so
// too, is read by its real name, and every line the command line prints about it shows those
// escaped: its stderr holds no escape code, no carriage return, no byte that is not UTF-8, and
// one line a failure. Before, info and verify printed the names raw: "idxlabel: /tmp/…/ev",
// then "il\x1b[2J\xff/x\x1b[31m" on a line of its own, the terminal cleared and turned red.
func TestHostileNamesShownEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), hostileName)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skipf("this file system refuses the name %q: %v", hostileName, err)
	}
	images, labels := writeTestPair(t, dir, []int{3, 4, 4}, []int64{0, 1, 2}, 1)
	hostImages, hostLabels := filepath.Join(dir, "x\x1b[31m\nred\xff-images"), filepath.Join(dir, "x\x1b[31m\nred\xff-labels")
	if err := os.Rename(labels, hostLabels); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(images)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hostImages, data[:len(data)-5], 0o644); err != nil { // truncated
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"info", hostImages},
		{"info", hostLabels, hostImages},
		{"verify", hostImages, hostLabels},
		{"convert", hostImages, filepath.Join(dir, "out\x1b]0;title\x07")},
		{"info", filepath.Join(dir, "missing\x1b[2J")},
	} {
		var o, e bytes.Buffer
		code := Run(args, &o, &e, noGUI)
		stderr := e.String()
		if code != 1 || !strings.Contains(stderr, `ev\nil\x1b[2J\xff`) {
			t.Errorf("%q: exit %d, stderr %q: want 1 and the folder's name escaped", args[0], code, stderr)
		}
		for _, out := range []string{stderr, o.String()} {
			if strings.ContainsAny(out, "\x1b\x07\r") || !utf8.ValidString(out) {
				t.Errorf("%q printed a control character or a byte that is not UTF-8: %q", args[0], out)
			}
		}
		for _, line := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
			if !strings.HasPrefix(line, "idxlabel: ") {
				t.Errorf("%q: a line of stderr not the command's: %q (all: %q)", args[0], line, stderr)
			}
		}
	}
}
