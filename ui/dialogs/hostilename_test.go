package dialogs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// labelTexts returns the texts of the labels in o and everything it holds.
func labelTexts(o fyne.CanvasObject) []string {
	var out []string
	switch v := o.(type) {
	case *widget.Label:
		return []string{v.Text}
	case *fyne.Container:
		for _, c := range v.Objects {
			out = append(out, labelTexts(c)...)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(v).Objects() {
			out = append(out, labelTexts(c)...)
		}
	}
	return out
}

// shownText is the text of the label of the dialog on top of win that holds part ("" when none
// does).
func shownText(t *testing.T, win fyne.Window, part string) string {
	t.Helper()
	top := win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no dialog shown")
	}
	for _, text := range labelTexts(top) {
		if strings.Contains(text, part) {
			return text
		}
	}
	return ""
}

// hostileDir is a folder named with a newline, an escape code that clears the terminal and a
// byte that is not UTF-8, as a pair's folder may be named; escaped is how a message shows it.
const hostileDir, escaped = "ev\nil\x1b[2J\xff", `ev\nil\x1b[2J\xff`

// A library's error naming a file in a folder named with a newline, an escape code and a byte
// that is not UTF-8 (a truncated file's, a lock's) shows that name escaped in the error dialog:
// no control character but the message's own paragraph break before the window's advice, no
// byte that is not UTF-8. Before, ShowError showed the error's text raw: the name broke the
// message onto a line of its own ("…/ev", then "il\x1b[2J\xff/a-images: truncated IDX data…").
func TestErrorDialogShowsNamesEscaped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), hostileDir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skipf("this file system refuses the name %q: %v", hostileDir, err)
	}
	images, labels := filepath.Join(dir, "a-images-idx3-ubyte"), filepath.Join(dir, "a-labels-idx1-ubyte")
	if err := os.WriteFile(images, []byte{0, 0, 8, 3, 0, 0, 0, 9, 0, 0, 0, 28, 0, 0, 0, 28, 1, 2}, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(labels, []byte{0, 0, 8, 1, 0, 0, 0, 9}, 0o644); err != nil {
		t.Fatal(err)
	}
	_, truncated := idx.ReadFile(images)
	held, _, err := pairfile.LockPair(images, labels)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	_, _, locked := pairfile.LockPair(images, labels)
	for _, c := range []struct {
		name       string
		err        error
		paragraphs int
	}{{"a truncated file", truncated, 1}, {"a pair locked by a job of this window", locked, 2}} {
		if c.err == nil {
			t.Fatalf("%s: no error", c.name)
		}
		win, d := questionWindow(t)
		d.ShowError(c.err)
		text := shownText(t, win, "-idx")
		if !strings.Contains(text, escaped) || !utf8.ValidString(text) ||
			strings.ContainsFunc(text, func(r rune) bool { return r != '\n' && unicode.IsControl(r) }) ||
			len(strings.Split(text, "\n\n")) != c.paragraphs || strings.Count(text, "\n") != 2*(c.paragraphs-1) {
			t.Errorf("%s: the dialog shows %q: want the folder's name escaped (%s), %d paragraph(s), no other control character", c.name, text, escaped, c.paragraphs)
		}
	}
	// A message the window composes around a name (Inform, Ask) shows it escaped too, its own
	// line breaks kept.
	win, d := questionWindow(t)
	d.Inform("Notice", "Written to\n"+images+".")
	if text := shownText(t, win, "Written"); !strings.Contains(text, "Written to\n") || strings.ContainsAny(text, "\x1b\xff") || !utf8.ValidString(text) {
		t.Errorf("Inform shows %q", text)
	}
}
