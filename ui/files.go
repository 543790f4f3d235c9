package ui

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"idxlabel/demo"
	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/convert"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
)

// opener opens datasets: File → Open…, files dropped on the window, Open Recent, the demo, New
// Dataset and the unsaved new datasets found at start, and what Open found beside the files (a
// journal of unsaved edits, notices). It asks about unsaved edits first (saver.confirmUnsaved)
// and hands the dataset to the controller.
type opener struct {
	c     *controller
	d     *dialogs.Dialogs
	win   fyne.Window
	prefs fyne.Preferences
	save  *saver
	draw  func() // opens the draw window (a new dataset starts there)
	// convert opens a Parquet, CSV or NumPy file as the IDX pair it writes beside it
	// (convert.Converter.Open).
	convert func(path string)
}

// openDialog asks for an image file (or a label file); its partner is found beside it.
func (o *opener) openDialog() {
	start, _ := o.c.ds.Paths()
	o.d.Choose(dialogs.Spec{Title: "Open", Confirm: "Open", Purpose: dialogs.PurposeOpen, Filter: isOpenName, Kind: "IDX, Parquet, CSV and NumPy files",
		Start: filepath.Dir(start)}, func(path string) { o.open([]string{path}) })
}

// isOpenName reports whether File → Open… lists a file named name: an IDX file, or a dataset file
// of another format that opens as an IDX pair written beside it (convert.IsName).
func isOpenName(name string) bool { return dialogs.IsIDXName(name) || convert.IsName(name) }

// dropped opens files dragged onto the window.
func (o *opener) dropped(_ fyne.Position, uris []fyne.URI) {
	var paths []string
	for _, u := range uris {
		paths = append(paths, u.Path())
	}
	o.open(paths)
}

// open works out which of paths are the images and labels and loads them. The new files are
// read and checked first; only then is the person asked about unsaved edits, so a file that
// fails to open never costs the edits on screen.
//
// A single Parquet, CSV or NumPy file (convert.Reads, by its first bytes) is written as an IDX
// pair beside it, which then opens (convert).
func (o *opener) open(paths []string) {
	if len(paths) == 1 && convert.Reads(paths[0]) {
		o.convert(paths[0])
		return
	}
	images, labels, err := pairfile.ClassifyPair(paths)
	if err != nil {
		o.d.ShowError(err)
		return
	}
	o.release(images, "Reopen the files", func() { o.load(images, labels, false) })
}

// release runs then once the pair on screen no longer holds images: at once when it is another
// pair; when it is that pair (opened again, or converted again over), it holds its own lock, so
// it is closed first, after the question about its unsaved edits (action names what closes it;
// Save, Discard or Cancel: Cancel runs nothing; a journal not discarded stays and is offered
// again when the pair reopens).
func (o *opener) release(images, action string, then func()) {
	if cur, _ := o.c.ds.Paths(); cur == "" || !pairfile.SameFile(cur, images) {
		then()
		return
	}
	o.save.confirmUnsaved(action, func() {
		o.c.ds.Close()
		o.c.setEmpty()
		then()
	}, nil)
}

// load opens a pair off the UI thread with a progress indicator, read-only when readOnly; once
// it has opened, it asks about the current dataset's unsaved edits and shows it (or closes it
// again when the person cancels). On failure the previous dataset stays as it was and the error
// (file and reason) is shown; a pair open for editing elsewhere (pairfile.ErrLocked) is offered
// read-only, unless this window holds it (the pair it has open, or one a job of it writes: the
// error says which, dialogs.ShowError).
func (o *opener) load(images, labels string, readOnly bool) {
	name := clip.Name(images)
	if labels != "" {
		name = clip.Name(labels)
	}
	if readOnly {
		name += " (read-only)"
	}
	bar := widget.NewProgressBarInfinite()
	prog := dialog.NewCustomWithoutButtons("Opening "+clip.Name(images), container.NewVBox(widget.NewLabel(clip.Printable(filepath.Dir(images))), bar), o.win)
	prog.Show()
	job := o.c.jobs.Start(jobs.Loading, "")
	o.c.jobs.Run(func() {
		ds, err := store.Open(images, labels, store.Options{ReadOnly: readOnly})
		// Decoding leaves garbage as large as the files (the compressed bytes, buffers): give it
		// back to the system now rather than carry it as resident memory.
		debug.FreeOSMemory()
		o.c.jobs.Schedule(func() {
			defer o.c.jobs.Finish(job) // last: tests wait on it
			prog.Hide()
			bar.Stop()
			// What was typed on the dataset shown while this one opened is applied to it first,
			// before the question about its unsaved edits (held.go).
			o.c.jobs.Release(job)
			var locked *pairfile.LockedError
			if errors.As(err, &locked) && !readOnly && !locked.Self {
				o.d.Ask("Open read-only?", dialogs.ShownError(err)+".\n\nOpen it read-only? You can look, scan and export; edits and saves are refused.", true, func(ok bool) {
					if ok {
						o.load(images, labels, true)
					}
				})
				return
			}
			if err != nil {
				o.d.ShowError(err)
				return
			}
			o.save.confirmUnsaved("Open other files", func() {
				o.use(ds, name, false)
				o.addRecent(images, labels)
			}, func() { ds.Close() })
		})
	})
}

// use makes ds the dataset the window edits, then tells what Open found: its notices, and a
// journal of unsaved edits to replay or discard.
func (o *opener) use(ds *store.Dataset, name string, demo bool) {
	o.c.setDataset(ds, name, demo)
	for _, n := range ds.Notices() {
		o.d.Inform("Note", clip.Printable(n)) // one line, which may quote a path
	}
	if rec := ds.Recovery(); rec != nil {
		o.offerRecovery(rec)
	}
}

// openDemo replaces the dataset by the generated demo.
func (o *opener) openDemo() {
	o.save.confirmUnsaved("Open the demo", func() {
		ds, err := demo.Dataset()
		debug.FreeOSMemory() // the fonts and scratch images of the generation
		if err != nil {
			o.d.ShowError(err)
			return
		}
		o.use(ds, "demo", true)
	}, nil)
}

// offerRecovery asks what to do with a journal of unsaved edits found beside the files.
func (o *opener) offerRecovery(rec *store.Recovery) {
	ds := o.c.ds
	if !rec.Matches {
		o.d.Inform("Unsaved edits for other files",
			fmt.Sprintf("%s holds edits that no longer fit these files: %s.\n\nIt is kept as a copy (…discarded) and editing starts afresh.", clip.Name(rec.Path), rec.Reason))
		if err := ds.DiscardJournal(true); err != nil {
			o.d.ShowError(err)
		}
		return
	}
	msg := fmt.Sprintf("%s unsaved from %s found in\n%s.", numfmt.Plural(rec.Edits, "edit"), rec.ModTime.Format(time.DateTime), clip.Printable(rec.Path))
	if rec.Damaged > 0 {
		msg += fmt.Sprintf("\nIts last %d bytes are damaged and will be left out.", rec.Damaged)
	}
	d := dialogs.NewQuestion("Recover unsaved edits?", "Replay them", "Discard them", widget.NewLabel(msg+"\n\nReplay them to continue where you left off."), func(replay bool) {
		if replay {
			err := o.c.edit(func() error { _, err := ds.ReplayJournal(); return err })
			if err != nil {
				o.d.ShowError(err)
			}
		} else if err := ds.DiscardJournal(true); err != nil {
			o.d.ShowError(err)
		}
		o.c.refresh()
	}, o.win)
	// Enter replays (loses nothing); Escape does nothing here: neither answer is a cancel.
	o.d.Show("recovery", d, func() {}, d.Confirm, nil)
}

const recentKey = "recent"

// addRecent puts a pair at the top of File → Open Recent (kept in the app's preferences).
func (o *opener) addRecent(images, labels string) {
	images, labels = dialogs.AbsPath(images), dialogs.AbsPath(labels)
	entry := images + "\n" + labels
	list := []string{entry}
	for _, e := range o.prefs.StringList(recentKey) {
		if e != entry && len(list) < 10 {
			list = append(list, e)
		}
	}
	o.prefs.SetStringList(recentKey, list)
	o.showRecent()
}

// showRecent rebuilds the Open Recent submenu.
func (o *opener) showRecent() {
	var items []*fyne.MenuItem
	for _, e := range o.prefs.StringList(recentKey) {
		images, labels, _ := strings.Cut(e, "\n")
		label := clip.Name(images)
		if labels != "" {
			label += " + " + clip.Name(labels)
		}
		items = append(items, fyne.NewMenuItem(label+"  ("+clip.Printable(filepath.Dir(images))+")", func() {
			o.load(images, labels, false)
		}))
	}
	o.c.out.menu.setRecent(items)
}
