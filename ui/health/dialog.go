package health

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"idxlabel/pairfile"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/widgets"
)

// dialog asks for what a check needs: the other set to check leakage against (typed, or picked
// with a file chooser; the last one used for this pair offered when it still exists), and, when
// folder is true, the folder to write the health report to (File → Export Health Report…). ok
// gets the other set's image and label files (nil: no leakage check) and the folder.
func (k *Checker) dialog(title, confirm string, folder bool, ok func(against []string, dir string)) {
	images, labels := k.c.State().DS.Paths()
	var d *dialogs.Question
	against := dialogs.NewPromptEntry(func() { d.Dismiss() })
	against.SetPlaceHolder("none: leakage is not checked")
	against.SetText(k.LastAgainst(images, labels))
	choose := widgets.NewPassingButton("Choose…", func() {
		start := filepath.Dir(images)
		if p := strings.TrimSpace(against.Text); p != "" {
			start = filepath.Dir(p)
		}
		k.d.Choose(dialogs.Spec{Title: "The other set", Confirm: "Choose", Purpose: dialogs.PurposeOpen, Filter: dialogs.IsIDXName, Kind: "IDX files", Start: start},
			func(path string) { against.SetText(path) })
	})
	intro := widget.NewLabel("Finds likely label errors, outliers (not digits) and near-duplicates in this dataset; " +
		"with another set (a test set's training set), the samples it shares with that set: leakage.")
	intro.Wrapping = fyne.TextWrapWord
	form := widget.NewForm(widget.NewFormItem("Leakage against", container.NewBorder(nil, nil, nil, choose, against)))
	out := dialogs.NewPromptEntry(func() { d.Dismiss() })
	if folder {
		out.SetText(ReportDir(images, labels))
		form.Items = append([]*widget.FormItem{widget.NewFormItem("Write the report to", out)}, form.Items...)
	}
	d = dialogs.NewQuestion(title, confirm, "Cancel", container.NewVBox(intro, form), func(yes bool) {
		if !yes {
			return
		}
		files, err := otherFiles(strings.TrimSpace(against.Text), images)
		if err != nil {
			k.d.ShowError(err)
			return
		}
		k.Remember(images, labels, files)
		ok(files, strings.TrimSpace(out.Text))
	}, k.win)
	against.OnSubmitted = func(string) { d.Confirm() }
	out.OnSubmitted = func(string) { d.Confirm() }
	d.Resize(fyne.NewSize(640, d.MinSize().Height))
	k.d.Show("check", d, d.Dismiss, d.Confirm, nil)
	k.win.Canvas().Focus(against) // a path can be typed at once; Enter checks
}

// otherFiles finds the image and label files of the other set named by path (either file of
// the pair; its partner is found beside it, pairfile.ClassifyPair), or nil for an empty path.
// Errors: ClassifyPair's (naming the file), or the dataset's own image file (images).
func otherFiles(path, images string) ([]string, error) {
	if path == "" {
		return nil, nil
	}
	oi, ol, err := pairfile.ClassifyPair([]string{path})
	if err != nil {
		return nil, err
	}
	if images != "" && pairfile.SameFile(oi, images) {
		return nil, errors.New(oi + " is this dataset's own image file: check leakage against another set (its training set, say)")
	}
	return []string{oi, ol}, nil
}

// checkAgainstKey is the preference that remembers the other set last checked against, per
// pair: a list of "images\nlabels\nother" entries (absolute paths), newest first.
const checkAgainstKey = "checkAgainst"

// checkAgainstKept bounds the pairs the preference remembers.
const checkAgainstKept = 20

// LastAgainst returns the other set last checked against for the pair (its file as picked), or
// "" when none is remembered or the file no longer exists. The preference is untrusted: an
// entry that is not three paths is skipped, and a path is only offered, never opened here.
func (k *Checker) LastAgainst(images, labels string) string {
	if images == "" {
		return ""
	}
	pair := dialogs.AbsPath(images) + "\n" + dialogs.AbsPath(labels) + "\n"
	for _, e := range k.prefs.StringList(checkAgainstKey) {
		other, ok := strings.CutPrefix(e, pair)
		if !ok || other == "" || strings.Contains(other, "\n") || len(other) > 4096 {
			continue
		}
		if fi, err := os.Stat(other); err == nil && fi.Mode().IsRegular() {
			return other
		}
		return ""
	}
	return ""
}

// Remember keeps files (the other set's image and label files; nil: none) as the pair's last
// other set, first in the preference's list; nil forgets the pair's. A dataset without files
// is not remembered.
func (k *Checker) Remember(images, labels string, files []string) {
	if images == "" {
		return
	}
	pair := dialogs.AbsPath(images) + "\n" + dialogs.AbsPath(labels) + "\n"
	var list []string
	if files != nil {
		list = append(list, pair+dialogs.AbsPath(files[0]))
	}
	for _, e := range k.prefs.StringList(checkAgainstKey) {
		if !strings.HasPrefix(e, pair) && len(list) < checkAgainstKept {
			list = append(list, e)
		}
	}
	k.prefs.SetStringList(checkAgainstKey, list)
}

// ReportDir is the folder the health report is offered in: "<labels>-report" beside the
// files ("report" in the working folder for a dataset without files).
func ReportDir(images, labels string) string {
	p := labels
	if p == "" {
		p = images
	}
	if p == "" {
		return "report"
	}
	return filepath.Join(filepath.Dir(p), dialogs.BaseName(p)+"-report")
}
