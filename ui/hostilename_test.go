package ui

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A pair whose names hold a newline, an escape code and 150 more characters (names read
// from the disk: anyone's) opens with its names shown escaped and cut in their middle, in the
// status line and the window's title: the line is neither broken nor filled by a name, and the
// end that tells the files apart ("-labels-idx1-ubyte") shows. Before, the names went raw into
// both: the status line broke at the newline and wrapped the rest over several lines.
func TestHostileFileNamesShowEscapedAndCut(t *testing.T) {
	base := "evil\n\x1b[2J" + strings.Repeat("L", 150)
	images, labels := writeDemoPair(t, t.TempDir(), base)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	w, _ := demoWindow(t, true)
	w.files.load(images, labels, false)
	waitFor(t, func() bool { p, _ := w.c.ds.Paths(); return !w.jobs.Busy() && p == images })
	status, title := w.c.statusText(), w.win.Title()
	for what, text := range map[string]string{"the status line": status, "the title": title} {
		if strings.ContainsAny(text, "\n\x1b") {
			t.Errorf("%s holds a raw newline or escape: %q", what, text)
		}
		if !strings.Contains(text, `evil\n\x1b[2J`) || !strings.Contains(text, "…") || !strings.Contains(text, "L-labels-idx1-ubyte") {
			t.Errorf("%s does not show the label file's name escaped and cut in its middle: %q", what, text)
		}
	}
	if n := utf8.RuneCountInString(status); n > 220 {
		t.Errorf("the status line is %d characters long: %q", n, status)
	}
}
