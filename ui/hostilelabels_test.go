package ui

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"idxlabel/internal/clip"
	"idxlabel/pairfile"
	"idxlabel/store"
)

// hostileBase is a file name's start read from the disk (anyone's): a newline, an escape code
// and 150 more characters, so that every name made of it is over clip.MaxName.
const hostileBase = "evil\n\x1b[2J" + "LLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLLL"

// checkShown fails when text, a label's, holds a raw escape code or a byte that is not UTF-8,
// or a line that shows part of hostileBase not escaped and cut (clip.Name): a line broken at the
// name's newline, or one that holds more than maxLine characters.
func checkShown(t *testing.T, what, text string, maxLine int) {
	t.Helper()
	if strings.Contains(text, "\x1b") || !utf8.ValidString(text) {
		t.Errorf("%s holds a raw escape code or a byte that is not UTF-8: %q", what, text)
	}
	for _, line := range strings.Split(text, "\n") {
		if !strings.Contains(line, "evil") && !strings.Contains(line, "LLL") {
			continue
		}
		if !strings.Contains(line, `evil\n\x1b[2J`) || !strings.Contains(line, "…") {
			t.Errorf("%s: a line shows a file's name not escaped and cut in its middle: %q", what, line)
		}
		if n := utf8.RuneCountInString(line); n > maxLine {
			t.Errorf("%s: a line of %d characters: %q", what, n, line)
		}
	}
}

// The dialogs that show the names of the files they will write (Save As, Save Shown As, Split
// Dataset), the status a save leaves, and a notice of Open that quotes a path (a class-name file
// that cannot be read), show a pair's names read from the disk as the status
// line and the title do (clip.Name): escaped, and cut in their middle. Before, they built their
// text from filepath.Base, and the notice went to the dialog as it was (a message keeps its
// newlines): a name's newline broke the preview's line and the notice's, its escape code went to
// the label raw, and a 150-character name was shown whole.
func TestHostileFileNamesInDialogs(t *testing.T) {
	images, labels := writeDemoPair(t, t.TempDir(), hostileBase)
	// A class-name file the window cannot read: its notice quotes its path, which holds the name.
	if err := os.WriteFile(labels+pairfile.ClassNamesSuffix, []byte("zero\n\x1b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	w, _ := demoWindow(t, true)
	w.files.load(images, labels, false)
	waitFor(t, func() bool { p, _ := w.c.ds.Paths(); return !w.jobs.Busy() && p == images })
	notes, _ := overlayTexts(w)
	found := false
	for _, note := range notes {
		if !strings.Contains(note, pairfile.ClassNamesSuffix) {
			continue
		}
		found = true
		if strings.ContainsAny(note, "\n\x1b") || !strings.Contains(note, `evil\n\x1b[2J`) {
			t.Errorf("the notice of the class-name file breaks its line at the name's newline: %q", note)
		}
	}
	if !found {
		t.Fatalf("no notice of the class-name file: %q", notes)
	}
	w.win.Canvas().Overlays().Top().Hide()
	twoNames := 2*clip.MaxName + 20
	for _, d := range []struct {
		name string
		open func()
	}{
		{"Save As", w.save.saveAs},
		{"Save Shown As", w.build.Shown.Dialog},
		{"Split Dataset", w.build.Split.Dialog},
	} {
		d.open()
		shown, _ := overlayTexts(w)
		if !strings.Contains(strings.Join(shown, "\n"), "LLL") {
			t.Errorf("%s names no file of the pair: %q", d.name, shown)
		}
		for _, l := range shown {
			checkShown(t, d.name, l, twoNames)
		}
		w.win.Canvas().Overlays().Top().Hide()
	}
	saved := savedText(store.SaveReport{Files: []pairfile.SavedFile{{Path: images}, {Path: labels, Created: true, Links: 2}}}, images)
	checkShown(t, "the status after a save", saved, 4*clip.MaxName+200)
}
