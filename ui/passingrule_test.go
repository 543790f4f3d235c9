package ui

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// notPassing are the constructors of dialogs and buttons whose buttons, once Tab has focused
// one, take Escape and Enter and drop them (a widget.Button uses Space alone), and what the
// window uses in their place (ui/dialogs/question.go, ui/widgets/passing.go).
var notPassing = map[string]string{
	"dialog.NewConfirm(":       "dialogs.NewQuestion (or Dialogs.Ask)",
	"dialog.NewCustomConfirm(": "dialogs.NewQuestion",
	"dialog.NewInformation(":   "dialogs.NewText (or Dialogs.Inform)",
	"dialog.NewError(":         "dialogs.NewText (or Dialogs.ShowError)",
	"dialog.NewCustom(":        "dialogs.NewMessage",
	"widget.NewButton(":        "widgets.NewPassingButton",
	"&widget.Button{":          "widgets.NewPassingButton",
}

// notPassingYet are the files that may still build such dialogs or buttons: none.
var notPassingYet = map[string]bool{}

// Every dialog and button of the window passes the keys it does not use on to the window
// (widgets.PassingButton), so that a question answers Escape and Enter alike whether one of its
// buttons has the focus or not: no code of the window builds Fyne's own (notPassing).
func TestEveryButtonPasses(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || notPassingYet[path] {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for call, use := range notPassing {
			if strings.Contains(string(src), call) {
				t.Errorf("%s calls %s: use %s, whose buttons pass Escape and Enter on", path, strings.TrimSuffix(call, "("), use)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
