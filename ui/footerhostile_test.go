package ui

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2/test"

	"idxlabel/pairfile"
	"idxlabel/ui/mode"
)

// The status line shows a message that quotes a file's name (a refusal naming a locked pair in
// a folder named with a newline, an escape code and a byte that is not UTF-8) as one line, the
// name escaped, whether it is the state's line (show) or a message said over it (say). Before,
// the footer showed the text raw: the name's newline broke the status line in two.
func TestStatusLineShowsNamesEscaped(t *testing.T) {
	test.NewTempApp(t)
	f := newFooter()
	name := "/data/ev\nil\x1b[2J\xff/a-labels-idx1-ubyte"
	refusal := mode.Refusal(&pairfile.LockedError{Path: name, PID: 7, Host: "h"})
	for what, put := range map[string]func(){
		"show": func() { f.show("a-images + "+name+"   |   9 samples", "", nil, "sample 0 of 9") },
		"say":  func() { f.say(refusal) },
	} {
		put()
		text := f.status.Text
		if !strings.Contains(text, `ev\nil\x1b[2J\xff`) || !utf8.ValidString(text) || strings.ContainsFunc(text, unicode.IsControl) {
			t.Errorf("%s: the status line shows %q, want one line with the name escaped", what, text)
		}
	}
}
