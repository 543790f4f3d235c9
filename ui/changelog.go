package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/store"
	"idxlabel/ui/dialogs"
)

// The change log: File → Export Change Log… writes every label change since the files
// were opened; each save appends its changes to <labels>.changes.csv unless the preference
// File → Write Change Log on Save is off. The rules (what is a change, its number, how, when)
// are store's (store/changelog.go).

// changeLogPref is the preference that saves append their changes to the change log beside the
// label file; on when never set.
const changeLogPref = "writeChangeLog"

// writeChangeLog reports the preference.
func (s *saver) writeChangeLog() bool {
	return s.prefs.BoolWithFallback(changeLogPref, true)
}

// toggleChangeLog turns the preference over (File → Write Change Log on Save).
func (s *saver) toggleChangeLog() {
	on := !s.writeChangeLog()
	s.prefs.SetBool(changeLogPref, on)
	s.c.out.menu.setChangeLog(on)
	if on {
		s.c.say("Saves append their changes to " + s.changesFileName())
	} else {
		s.c.say("Saves write no change log")
	}
}

// changesFileName names the change log saves append to: "<labels>.changes.csv", or a
// description for a dataset without files.
func (s *saver) changesFileName() string {
	images, labels := s.c.ds.Paths()
	switch {
	case labels != "":
		return clip.Name(labels) + store.ChangesSuffix
	case images != "":
		return clip.Name(images) + store.ChangesSuffix
	}
	return "<labels>" + store.ChangesSuffix + " beside the files"
}

// beforeSave hands the preference to the store; run calls it before every save.
func (s *saver) beforeSave() { s.c.ds.SetWriteChanges(s.writeChangeLog()) }

// afterSave tells the person when a save could not append to the change log (the labels are
// saved; the next save tries again). It reports whether it showed the message; if so, then (may
// be nil) runs when the message is closed, and otherwise the caller runs it.
func (s *saver) afterSave(then func()) bool {
	err := s.c.ds.ChangesFileError()
	if err == nil {
		return false
	}
	d := dialogs.NewText("Saved, without the change log", dialogs.ShownError(err)+"\n\nThe next save tries again.", theme.InfoIcon(), s.win)
	s.d.Show("", d, d.Dismiss, nil, func() {
		s.d.Done()
		if then != nil {
			then()
		}
	})
	return true
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
		parts = append(parts, numfmt.Sprintf("%d ", counts[h])+name)
	}
	return strings.Join(parts, ", ")
}

// exportChangeLogDialog asks where to write the change log (File → Export Change Log…) and
// writes it there.
func (s *saver) exportChangeLogDialog() {
	entries := s.c.ds.ChangeLog()
	if len(entries) == 0 {
		s.d.Inform("Export Change Log", "No label has changed since the files were opened.")
		return
	}
	var d *dialogs.Question
	target := dialogs.NewPromptEntry(func() { d.Dismiss() })
	images, labels := s.c.ds.Paths()
	switch {
	case labels != "":
		target.SetText(filepath.Join(filepath.Dir(labels), dialogs.BaseName(labels)+"-changelog.csv"))
	case images != "":
		target.SetText(filepath.Join(filepath.Dir(images), dialogs.BaseName(images)+"-changelog.csv"))
	default:
		home, _ := os.UserHomeDir()
		target.SetText(filepath.Join(home, "changelog.csv"))
	}
	about := widget.NewLabel(fmt.Sprintf("%s since the files were opened (%s).\nColumns: %s; undone edits are not listed.",
		numfmt.Plural(len(entries), "change"), changeLogSummary(entries), store.ChangeLogHeader))
	save := "Saves also append their changes to " + s.changesFileName() + "."
	if !s.writeChangeLog() {
		save = "Saves write no change log (File → Write Change Log on Save is off)."
	}
	form := widget.NewForm(
		widget.NewFormItem("", about),
		widget.NewFormItem("Write to", target),
		widget.NewFormItem("", widget.NewLabel(save)),
	)
	d = dialogs.NewQuestion("Export Change Log", "Export", "Cancel", form, func(ok bool) {
		if ok {
			s.runChangeLogExport(strings.TrimSpace(target.Text), false)
		}
	}, s.win)
	target.OnSubmitted = func(string) { d.Confirm() } // Enter in the field exports too
	d.Resize(fyne.NewSize(640, d.MinSize().Height))
	s.d.Show("export change log", d, d.Dismiss, d.Confirm, nil)
	s.win.Canvas().Focus(target)
}

// runChangeLogExport writes the change log to path off the UI thread; an existing file is
// replaced only after asking.
func (s *saver) runChangeLogExport(path string, replace bool) {
	if path == "" {
		return
	}
	if _, err := os.Stat(path); err == nil && !replace {
		s.d.Ask("Replace?", clip.Printable(path)+" exists. Replace it?", false, func(yes bool) {
			if yes {
				s.runChangeLogExport(path, true)
			}
		})
		return
	}
	ds := s.c.ds
	s.c.jobs.Run(func() {
		n, err := ds.ExportChangeLog(path)
		s.c.jobs.Schedule(func() {
			if errors.Is(err, os.ErrNotExist) {
				err = fmt.Errorf("%s: the folder does not exist", filepath.Dir(path))
			}
			if err != nil {
				s.d.ShowError(err)
				return
			}
			s.d.Inform("Change log written", fmt.Sprintf("%s written to %s.", numfmt.Plural(n, "change"), clip.Printable(path)))
		})
	})
}
