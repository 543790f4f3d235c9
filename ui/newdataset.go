package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
	"idxlabel/store"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/widgets"
)

// unsavedDir is where the journals of new datasets live until they are first saved:
// <config>/idxlabel/unsaved.
func unsavedDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "idxlabel", "unsaved")
}

// Class-set choices of the New Dataset dialog.
const (
	classesDigits = "Digits 0–9"
	classesCount  = "Classes 0 to N−1"
	classesFile   = "From a class-name file"
)

// newDataset asks for the sample size and the classes and starts an empty dataset (journaled
// to the per-user unsaved folder until its first save), then opens the draw window.
func (o *opener) newDataset() {
	o.save.confirmUnsaved("Start a new dataset", o.newDatasetForm, nil)
}

func (o *opener) newDatasetForm() {
	var d *dialogs.Question
	cancel := func() { d.Dismiss() } // Escape in a field
	height, width := dialogs.NewPromptEntry(cancel), dialogs.NewPromptEntry(cancel)
	height.SetText("28")
	width.SetText("28")
	n := dialogs.NewPromptEntry(cancel)
	n.SetText("10")
	file := dialogs.NewPromptEntry(cancel)
	file.SetPlaceHolder("EMNIST …-mapping.txt, or one name per line")
	browse := widgets.NewPassingButton("Choose…", func() {
		o.d.Choose(dialogs.Spec{Title: "Class-name file", Confirm: "Choose", Purpose: dialogs.PurposeOpen, Filter: dialogs.IsOtherFile, Kind: "files"},
			func(path string) { file.SetText(path) })
	})
	fileRow := dialogs.NewFieldRow(file, browse)
	// N and the class file apply to one choice each: the others leave them disabled, their
	// labels grey (dialogs.EnableRow).
	var form *widget.Form
	kind := widgets.NewPassingRadioGroup([]string{classesDigits, classesCount, classesFile}, func(k string) {
		if form != nil {
			dialogs.EnableRow(form, n, k == classesCount)
			dialogs.EnableRow(form, fileRow, k == classesFile)
		}
	})
	kind.Required = true
	form = widget.NewForm(
		widget.NewFormItem("Height (px)", height),
		widget.NewFormItem("Width (px)", width),
		widget.NewFormItem("Classes", kind),
		widget.NewFormItem("N", n),
		widget.NewFormItem("Class file", fileRow),
	)
	kind.SetSelected(classesDigits)
	d = dialogs.NewQuestion("New dataset", "Create", "Cancel", form, func(ok bool) {
		if !ok {
			return
		}
		h, err1 := strconv.Atoi(height.Text)
		wd, err2 := strconv.Atoi(width.Text)
		if err1 != nil || err2 != nil {
			o.d.ShowError(fmt.Errorf("height and width must be whole numbers of pixels"))
			return
		}
		var classes []int
		var names map[int]string
		switch kind.Selected {
		case classesCount:
			k, err := strconv.Atoi(n.Text)
			if err != nil || k < 1 || k > 1<<16 {
				o.d.ShowError(fmt.Errorf("the number of classes N must be from 1 to 65536"))
				return
			}
			for c := range k {
				classes = append(classes, c)
			}
		case classesFile:
			var err error
			if names, err = pairfile.ReadClassNames(file.Text); err != nil {
				o.d.ShowError(err)
				return
			}
			for c := range names {
				classes = append(classes, c)
			}
			slices.Sort(classes)
		}
		if ds := o.newUnsaved(h, wd, classes, names); ds != nil {
			o.use(ds, "untitled", false)
			o.draw()
		}
	}, o.win)
	d.Resize(fyne.NewSize(480, d.MinSize().Height)) // room to read a class file's path
	o.d.Show("new dataset", d, d.Dismiss, d.Confirm, nil)
}

// newUnsaved makes an empty dataset of h×w samples with classes and names, journaled in the
// per-user unsaved folder until its first save; on failure it shows why and returns nil. Its
// journal is named for the time ("20060102-150405", then "-2", "-3"… within one second): a name
// already there, or held by another window or process that took it this second, is skipped, so
// no window starts its journal over another's (journal.Create would move that one aside).
func (o *opener) newUnsaved(h, w int, classes []int, names map[int]string) *store.Dataset {
	stamp := filepath.Join(unsavedDir(), time.Now().Format("20060102-150405"))
	for k := 1; ; k++ {
		path := stamp + pairfile.JournalSuffix
		if k > 1 {
			path = stamp + "-" + strconv.Itoa(k) + pairfile.JournalSuffix
		}
		if _, err := os.Lstat(path); err == nil && k < maxUnsavedNames {
			continue
		}
		ds, err := store.New(h, w, classes, names, path)
		if errors.Is(err, pairfile.ErrLocked) && k < maxUnsavedNames {
			continue
		}
		if err != nil {
			o.d.ShowError(err)
			return nil
		}
		return ds
	}
}

// maxUnsavedNames bounds the names newUnsaved tries within one second.
const maxUnsavedNames = 1000

// startNew asks about the open dataset's unsaved edits, then replaces it by a new, empty dataset
// (newUnsaved) and runs then with it (File → Import Images… into a new dataset).
func (o *opener) startNew(h, w int, classes []int, names map[int]string, then func(*store.Dataset)) {
	o.save.confirmUnsaved("Start a new dataset", func() {
		if ds := o.newUnsaved(h, w, classes, names); ds != nil {
			o.use(ds, "untitled", false)
			then(ds)
		}
	}, nil)
}

// journalFree reports whether no window holds the new dataset's journal at path: its lock can
// be taken (and is let go at once).
func journalFree(path string) bool {
	l, err := pairfile.LockJournal(path)
	l.Release()
	return err == nil
}

// offerUnsavedRecovery looks for new datasets that were never saved (their journals in the
// unsaved folder) and offers to restore the newest. A journal held by a live window, of this
// process or another (its lock: pairfile.LockJournal), is that window's, being written: it is
// neither offered nor counted. The one offered stays locked by this window while the question
// is up, so that no other window restores it or sets it aside meanwhile.
func (o *opener) offerUnsavedRecovery() {
	paths, _ := filepath.Glob(filepath.Join(unsavedDir(), "*"+pairfile.JournalSuffix))
	// One whose edits cancel out (a digit drawn, then undone) holds no dataset: not offered. It
	// is left where it is: it may be the journal of a window still open.
	paths = slices.DeleteFunc(paths, func(p string) bool { _, held := journal.Holds(p, idx.MaxData()); return !held })
	slices.Sort(paths)
	var lock pairfile.Locks
	for len(paths) > 0 && lock == nil {
		var err error
		if lock, err = pairfile.LockJournal(paths[len(paths)-1]); err != nil {
			paths = paths[:len(paths)-1] // held by another window (or its lock cannot be taken)
		}
	}
	if len(paths) == 0 {
		return
	}
	newest := paths[len(paths)-1]
	paths = append(slices.DeleteFunc(paths[:len(paths)-1], func(p string) bool { return !journalFree(p) }), newest)
	fi, err := os.Stat(newest)
	if err != nil {
		lock.Release()
		return
	}
	msg := fmt.Sprintf("A new dataset you started at %s was never saved.\nIts journal: %s\n\nRestore it?", fi.ModTime().Format(time.DateTime), newest)
	if len(paths) > 1 {
		msg += fmt.Sprintf("\n(%d older unsaved datasets stay in that folder.)", len(paths)-1)
	}
	d := dialogs.NewQuestion("Unsaved dataset", "Restore", "Set it aside", widget.NewLabel(msg), func(restore bool) {
		if !restore {
			atomicfile.MoveAside(newest, "discarded") // "<journal>.<time>.discarded", never over another file
			lock.Release()
			return
		}
		lock.Release() // the dataset takes it again (store.OpenJournal)
		ds, err := store.OpenJournal(newest)
		if err != nil {
			o.d.ShowError(err)
			return
		}
		o.use(ds, "untitled (restored)", false)
	}, o.win)
	// Enter restores (loses nothing); Escape does nothing: "Set it aside" is not a cancel.
	o.d.Show("unsaved dataset", d, func() {}, d.Confirm, nil)
}
