package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"idxlabel/store"
)

// The change log (issue 13): File → Export Change Log… writes every label change since the files
// were opened; each save appends its changes to <labels>.changes.csv unless the preference
// File → Write Change Log on Save is off. The rules (what is a change, its number, how, when)
// are store's (store/changelog.go).

// changeLogPref is the preference that saves append their changes to the change log beside the
// label file; on when never set.
const changeLogPref = "writeChangeLog"

// writeChangeLog reports the preference.
func (w *mainWindow) writeChangeLog() bool {
	return w.app.Preferences().BoolWithFallback(changeLogPref, true)
}

// changeLogItem makes File → Write Change Log on Save, checked while the preference is on.
func (w *mainWindow) changeLogItem() *fyne.MenuItem {
	it := fyne.NewMenuItem("Write Change Log on Save", w.toggleChangeLog)
	it.Checked = w.writeChangeLog()
	return it
}

// toggleChangeLog turns the preference over.
func (w *mainWindow) toggleChangeLog() {
	on := !w.writeChangeLog()
	w.app.Preferences().SetBool(changeLogPref, on)
	w.items.changeLog.Checked = on
	w.menu.Refresh()
	if on {
		w.status.SetText("Saves append their changes to " + w.changesFileName())
	} else {
		w.status.SetText("Saves write no change log")
	}
}

// changesFileName names the change log saves append to: "<labels>.changes.csv", or a
// description for a dataset without files.
func (w *mainWindow) changesFileName() string {
	images, labels := w.ds.Paths()
	switch {
	case labels != "":
		return filepath.Base(labels) + store.ChangesSuffix
	case images != "":
		return filepath.Base(images) + store.ChangesSuffix
	}
	return "<labels>" + store.ChangesSuffix + " beside the files"
}

// beforeSave hands the preference to the store; runSave calls it before every save.
func (w *mainWindow) beforeSave() { w.ds.SetWriteChanges(w.writeChangeLog()) }

// afterSave tells the person when a save could not append to the change log (the labels are
// saved; the next save tries again). It reports whether it showed the message; if so, then (may
// be nil) runs when the message is closed, and otherwise the caller runs it.
func (w *mainWindow) afterSave(then func()) bool {
	err := w.ds.ChangesFileError()
	if err == nil {
		return false
	}
	d := dialog.NewInformation("Saved, without the change log", err.Error()+"\n\nThe next save tries again.", w.win)
	w.prompts.show(w.win.Canvas(), "", d, d.Dismiss, nil, func() {
		w.focusGrid()
		if then != nil {
			then()
		}
	})
	return true
}

// decisionHow is how a decision in review r on sample i chose label, for the change log: the
// review's suggestion accepted (Enter, or typing the suggested class) is suspect-accepted in a
// review of suspects and suggested-accepted in one of samples without a label (a model's label
// for an unlabelled sample); any other label is set by hand (a label kept is no change).
func decisionHow(r *review, i, label int) store.How {
	if s, ok := r.of[i]; ok && s.Suggested == label {
		if r.kind == reviewSuggested {
			return store.HowSuggestedAccepted
		}
		return store.HowSuspectAccepted
	}
	return store.HowManual
}

// changeLogSummary counts entries by how: "3 manual, 1 suspect-accepted, 2 deleted".
func changeLogSummary(entries []store.ChangeLogEntry) string {
	counts := map[store.How]int{}
	var order []store.How
	for _, e := range entries {
		if counts[e.How] == 0 {
			order = append(order, e.How)
		}
		counts[e.How]++
	}
	var parts []string
	for _, h := range order {
		name := h.String()
		if name == "" {
			name = "how unknown"
		}
		parts = append(parts, count("%d ", counts[h])+name)
	}
	return strings.Join(parts, ", ")
}

// exportChangeLogDialog asks where to write the change log (File → Export Change Log…) and
// writes it there.
func (w *mainWindow) exportChangeLogDialog() {
	entries := w.ds.ChangeLog()
	if len(entries) == 0 {
		w.inform("Export Change Log", "No label has changed since the files were opened.")
		return
	}
	var d *dialog.ConfirmDialog
	target := newPromptEntry(func() { d.Dismiss() })
	images, labels := w.ds.Paths()
	switch {
	case labels != "":
		target.SetText(filepath.Join(filepath.Dir(labels), baseName(labels)+"-changelog.csv"))
	case images != "":
		target.SetText(filepath.Join(filepath.Dir(images), baseName(images)+"-changelog.csv"))
	default:
		home, _ := os.UserHomeDir()
		target.SetText(filepath.Join(home, "changelog.csv"))
	}
	about := widget.NewLabel(fmt.Sprintf("%s since the files were opened (%s).\nColumns: %s; undone edits are not listed.",
		plural(len(entries), "change"), changeLogSummary(entries), store.ChangeLogHeader))
	save := "Saves also append their changes to " + w.changesFileName() + "."
	if !w.writeChangeLog() {
		save = "Saves write no change log (File → Write Change Log on Save is off)."
	}
	form := widget.NewForm(
		widget.NewFormItem("", about),
		widget.NewFormItem("Write to", target),
		widget.NewFormItem("", widget.NewLabel(save)),
	)
	d = dialog.NewCustomConfirm("Export Change Log", "Export", "Cancel", form, func(ok bool) {
		if ok {
			w.runChangeLogExport(strings.TrimSpace(target.Text), false)
		}
	}, w.win)
	target.OnSubmitted = func(string) { d.Confirm() } // Enter in the field exports too
	d.Resize(fyne.NewSize(640, d.MinSize().Height))
	w.prompts.show(w.win.Canvas(), "export change log", d, d.Dismiss, d.Confirm, w.focusGrid)
	w.win.Canvas().Focus(target)
}

// runChangeLogExport writes the change log to path off the UI thread; an existing file is
// replaced only after asking.
func (w *mainWindow) runChangeLogExport(path string, replace bool) {
	if path == "" {
		return
	}
	if _, err := os.Stat(path); err == nil && !replace {
		w.ask("Replace?", path+" exists. Replace it?", false, func(yes bool) {
			if yes {
				w.runChangeLogExport(path, true)
			}
		})
		return
	}
	ds := w.ds
	w.bg.Go(func() {
		n, err := ds.ExportChangeLog(path)
		fyne.Do(func() {
			if errors.Is(err, os.ErrNotExist) {
				err = fmt.Errorf("%s: the folder does not exist", filepath.Dir(path))
			}
			if err != nil {
				w.showError(err)
				return
			}
			w.inform("Change log written", fmt.Sprintf("%s written to %s.", plural(n, "change"), path))
		})
	})
}
