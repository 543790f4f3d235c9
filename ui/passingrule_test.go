package ui

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// notPassing are the constructors of dialogs and controls whose buttons, once Tab has focused
// one, take Escape and Enter and drop them (a widget.Button uses Space alone, a widget.Check and
// a radio button Space, a widget.Select Space and the arrows, a widget.List Space and Up and
// Down, a widget.Entry drops Escape), and
// what the window uses in their place (ui/dialogs/question.go and dialogs.go's PromptEntry,
// ui/widgets/passing.go, dialogselect.go, radio.go).
var notPassing = map[string]string{
	"dialog.NewConfirm(":       "dialogs.NewQuestion (or Dialogs.Ask)",
	"dialog.NewCustomConfirm(": "dialogs.NewQuestion",
	"dialog.NewInformation(":   "dialogs.NewText (or Dialogs.Inform)",
	"dialog.NewError(":         "dialogs.NewText (or Dialogs.ShowError)",
	"dialog.NewCustom(":        "dialogs.NewMessage",
	"widget.NewButton(":        "widgets.NewPassingButton",
	"&widget.Button{":          "widgets.NewPassingButton",
	"widget.NewCheck(":         "widgets.NewPassingCheck",
	"&widget.Check{":           "widgets.NewPassingCheck",
	"widget.NewSelect(":        "widgets.NewDialogSelect (in a dialog) or widgets.NewPassingSelect",
	"&widget.Select{":          "widgets.NewDialogSelect (in a dialog) or widgets.NewPassingSelect",
	"widget.NewRadioGroup(":    "widgets.NewPassingRadioGroup",
	"&widget.RadioGroup{":      "widgets.NewPassingRadioGroup",
	"widget.NewEntry(":         "dialogs.NewPromptEntry (Escape cancels the prompt it is in)",
	"widget.NewList(":          "widgets.NewDialogList (in a dialog) or widgets.NewPassingList",
	"&widget.List{":            "widgets.NewDialogList (in a dialog) or widgets.NewPassingList",
	"\twidget.List\n":          "widgets.PassingList (embedded)",
	"\twidget.Check\n":         "widgets.PassingCheck (embedded)",
	"\twidget.Select\n":        "widgets.DialogSelect (embedded, as convert.FormatChoice)",
	"\twidget.RadioGroup\n":    "widgets.PassingRadioGroup",
	"\twidget.Button\n":        "widgets.PassingButton (embedded)",
}

// passingControls are the files that make the passing controls, embedding Fyne's.
var passingControls = map[string]bool{
	filepath.Join("widgets", "passing.go"):      true,
	filepath.Join("widgets", "dialogselect.go"): true,
}

// notPassingYet are the files that may still build such dialogs or buttons: none.
var notPassingYet = map[string]bool{}

// Every dialog, button, check box, choice, radio button and list of the window passes the keys it
// does not use on to the window (widgets.PassingButton, PassingCheck, DialogSelect, PassingSelect,
// PassingRadioGroup, PassingList), so that a question answers Escape and Enter alike whether one of its
// controls has the focus or not: no code of the window builds Fyne's own (notPassing), nor
// embeds one but the passing controls themselves (passingControls).
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
			if strings.HasPrefix(call, "\t") && passingControls[path] {
				continue // an embedding: how the passing controls are made
			}
			if strings.Contains(string(src), call) {
				t.Errorf("%s uses %s: use %s, which passes Escape and Enter on", path, strings.TrimSpace(strings.TrimSuffix(call, "(")), use)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
