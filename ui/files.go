package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/demo"
	"idxlabel/store"
)

// idxFilter shows IDX files in the open dialog: names with "idx" in them (train-images-idx3-ubyte,
// t10k-labels.idx1-ubyte), ".idx", and gzip files; not the journals of unsaved edits
// (…-ubyte.gz.idxlabel-journal) nor their set-aside copies (….discarded).
type idxFilter struct{}

func (idxFilter) Matches(u fyne.URI) bool {
	name := strings.ToLower(u.Name())
	if strings.Contains(name, strings.ToLower(store.JournalSuffix)) {
		return false
	}
	return strings.Contains(name, "idx") || strings.HasSuffix(name, ".gz") || strings.Contains(name, "ubyte")
}

// openDialog asks for an image file (or a label file); its partner is found beside it.
func (w *mainWindow) openDialog() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			w.showError(err)
			return
		}
		if r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		w.open([]string{path})
	}, w.win)
	d.SetFilter(idxFilter{})
	if images, _ := w.ds.Paths(); images != "" {
		if dir, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(images))); err == nil {
			d.SetLocation(dir)
		}
	}
	d.Resize(w.win.Canvas().Size().SubtractWidthHeight(40, 40))
	d.Show()
}

// dropped opens files dragged onto the window.
func (w *mainWindow) dropped(_ fyne.Position, uris []fyne.URI) {
	var paths []string
	for _, u := range uris {
		paths = append(paths, u.Path())
	}
	w.open(paths)
}

// open works out which of paths are the images and labels and loads them. The new files are
// read and checked first; only then is the person asked about unsaved edits, so a file that
// fails to open never costs the edits on screen.
func (w *mainWindow) open(paths []string) {
	images, labels, err := store.ClassifyPair(paths)
	if err != nil {
		w.showError(err)
		return
	}
	if cur, _ := w.ds.Paths(); cur != "" && sameFile(cur, images) {
		// The pair on screen, opened again: it holds its own lock, so close it first (its
		// journal stays and is offered again when it reopens).
		w.confirmUnsaved("Reopen the files", func() {
			w.ds.Close()
			w.setEmpty()
			w.load(images, labels, false)
		}, nil)
		return
	}
	w.load(images, labels, false)
}

// sameFile reports whether paths a and b name the same existing file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// load opens a pair off the UI thread with a progress indicator, read-only when readOnly; once
// it has opened, it asks about the current dataset's unsaved edits and shows it (or closes it
// again when the person cancels). On failure the previous dataset stays as it was and the error
// (file and reason) is shown; a pair open for editing elsewhere (store.ErrLocked) is offered
// read-only.
func (w *mainWindow) load(images, labels string, readOnly bool) {
	name := filepath.Base(images)
	if labels != "" {
		name = filepath.Base(labels)
	}
	if readOnly {
		name += " (read-only)"
	}
	bar := widget.NewProgressBarInfinite()
	prog := dialog.NewCustomWithoutButtons("Opening "+filepath.Base(images), container.NewVBox(widget.NewLabel(filepath.Dir(images)), bar), w.win)
	prog.Show()
	w.busy.Store(true)
	w.bg.Go(func() {
		ds, err := store.Open(images, labels, store.Options{ReadOnly: readOnly})
		// Decoding leaves garbage as large as the files (the compressed bytes, buffers): give it
		// back to the system now rather than carry it as resident memory.
		debug.FreeOSMemory()
		fyne.Do(func() {
			defer w.busy.Store(false) // last: tests wait on it
			prog.Hide()
			bar.Stop()
			if errors.Is(err, store.ErrLocked) && !readOnly {
				w.ask("Open read-only?", err.Error()+".\n\nOpen it read-only? You can look, scan and export; edits and saves are refused.", true, func(ok bool) {
					if ok {
						w.load(images, labels, true)
					}
				})
				return
			}
			if err != nil {
				w.showError(err)
				return
			}
			w.confirmUnsaved("Open other files", func() {
				w.setDataset(ds, name, false)
				w.addRecent(images, labels)
			}, func() { ds.Close() })
		})
	})
}

// openDemo replaces the dataset by the generated demo.
func (w *mainWindow) openDemo() {
	w.confirmUnsaved("Open the demo", func() {
		ds, err := demo.Dataset()
		debug.FreeOSMemory() // the fonts and scratch images of the generation
		if err != nil {
			w.showError(err)
			return
		}
		w.setDataset(ds, "demo", true)
	}, nil)
}

// offerRecovery asks what to do with a journal of unsaved edits found beside the files.
func (w *mainWindow) offerRecovery(rec *store.Recovery) {
	ds := w.ds
	if !rec.Matches {
		w.inform("Unsaved edits for other files",
			fmt.Sprintf("%s holds edits that no longer fit these files: %s.\n\nIt is kept as a copy (…discarded) and editing starts afresh.", filepath.Base(rec.Path), rec.Reason))
		if err := ds.DiscardJournal(true); err != nil {
			w.showError(err)
		}
		return
	}
	msg := fmt.Sprintf("%s unsaved from %s found in\n%s.", plural(rec.Edits, "edit"), rec.ModTime.Format(time.DateTime), rec.Path)
	if rec.Damaged > 0 {
		msg += fmt.Sprintf("\nIts last %d bytes are damaged and will be left out.", rec.Damaged)
	}
	d := dialog.NewCustomConfirm("Recover unsaved edits?", "Replay them", "Discard them", widget.NewLabel(msg+"\n\nReplay them to continue where you left off."), func(replay bool) {
		if replay {
			_, err := ds.ReplayJournal()
			w.edited()
			if err != nil {
				w.showError(err)
			}
		} else if err := ds.DiscardJournal(true); err != nil {
			w.showError(err)
		}
		w.refresh()
	}, w.win)
	// Enter replays (loses nothing); Escape does nothing here: neither answer is a cancel.
	w.prompts.show(w.win.Canvas(), "recovery", d, func() {}, d.Confirm, w.focusGrid)
}

// save writes the dataset over its files (Save As when it has none), off the UI thread with a
// progress bar.
func (w *mainWindow) save() {
	if images, _ := w.ds.Paths(); images == "" {
		w.saveAs()
		return
	}
	w.runSave(w.ds.SaveContext, nil)
}

// runSave runs a save off the UI thread, its progress on the status bar; edits wait until it
// ends, and File → Cancel Save stops it before the files are replaced. then runs after a
// successful save.
func (w *mainWindow) runSave(do func(ctx context.Context, progress func(float64)) error, then func()) {
	if w.refuseWhileBusy() {
		return // one save (or load, import) at a time
	}
	// No dialog: a modal one would take the keys, and browsing, zooming and scrolling go on
	// while a save runs (edits wait, refuseWhileBusy). The progress is on the status bar.
	w.busy.Store(true)
	w.saving = "Saving… (edits wait)"
	ctx, cancel := context.WithCancel(w.life)
	w.cancelSave(cancel)
	w.updateStatus()
	w.beforeSave()
	w.bg.Go(func() {
		defer cancel()
		// The work starts once the window has drawn "Saving…" and answered the events already
		// queued: a func handed to fyne.Do from here runs after the current event's frame. A
		// key pressed just after Ctrl+S then meets a frame drawn on an idle machine, not one
		// slowed by the save's compression (scripts/savelat.sh).
		drawn := make(chan struct{})
		fyne.Do(func() { close(drawn) })
		select {
		case <-drawn:
		case <-ctx.Done(): // the window closing (its queue may be dropped): do returns at once
		}
		last := -1
		err := do(ctx, func(f float64) {
			if pc := int(100 * f); pc/10 != last/10 {
				last = pc
				fyne.Do(func() {
					if w.busy.Load() {
						w.saving = fmt.Sprintf("Saving… %d%% (edits wait)", pc)
						w.updateStatus()
					}
				})
			}
		})
		fyne.Do(func() {
			defer w.busy.Store(false) // last: tests wait on it
			next := w.afterSaving
			w.saving, w.afterSaving, w.afterSavingName = "", nil, ""
			w.cancelSave(nil)
			w.updateStatus()
			if errors.Is(err, context.Canceled) {
				w.status.SetText("Save cancelled: the files were not changed; the edits are kept, unsaved")
				return
			}
			if err != nil {
				w.showError(err)
				return
			}
			if then == nil {
				then = next // a save that was asked to do something after it already does that
			}
			if images, labels := w.ds.Paths(); images != "" {
				w.name = filepath.Base(labels)
				if labels == "" {
					w.name = filepath.Base(images)
				}
				w.demo = false
				w.addRecent(images, labels)
			}
			w.refresh()
			if w.afterSave(then) {
				return // then runs when the person has read why the change log was not written
			}
			if then != nil {
				then()
			}
		})
	})
}

// saveAs asks for a folder and a base name and writes "<base>-images-idx3-ubyte" and
// "<base>-labels-idx1-ubyte" there (".gz" when compressed), through the store's atomic paired
// save; the file-save dialog's writer is not used, since it empties the target first.
func (w *mainWindow) saveAs() { w.saveAsThen(nil) }

func (w *mainWindow) saveAsThen(then func()) {
	images, labels := w.ds.Paths()
	var d *dialog.ConfirmDialog
	cancel := func() { d.Dismiss() }
	folder := newPromptEntry(cancel)
	base := newPromptEntry(cancel)
	gz := widget.NewCheck("Compress (.gz)", nil)
	if images != "" {
		folder.SetText(filepath.Dir(images))
		base.SetText(baseName(images))
		gz.SetChecked(strings.HasSuffix(images, ".gz"))
	} else {
		home, _ := os.UserHomeDir()
		folder.SetText(home)
		base.SetText("mydata")
		gz.SetChecked(true)
	}
	preview := widget.NewLabel("")
	paths := func() (string, string) {
		suffix := ""
		if gz.Checked {
			suffix = ".gz"
		}
		i := filepath.Join(folder.Text, base.Text+"-images-idx3-ubyte"+suffix)
		l := filepath.Join(folder.Text, base.Text+"-labels-idx1-ubyte"+suffix)
		if !w.ds.HasLabels() && labels == "" {
			l = ""
		}
		return i, l
	}
	update := func() {
		i, l := paths()
		preview.SetText(filepath.Base(i) + "\n" + filepath.Base(l))
	}
	folder.OnChanged, base.OnChanged, gz.OnChanged = func(string) { update() }, func(string) { update() }, func(bool) { update() }
	update()
	choose := widget.NewButton("Choose…", func() {
		fd := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
			if err == nil && u != nil {
				folder.SetText(u.Path())
			}
		}, w.win)
		if dir, err := storage.ListerForURI(storage.NewFileURI(filepath.Clean(folder.Text))); err == nil && filepath.IsAbs(folder.Text) {
			fd.SetLocation(dir) // start at the typed folder, not the home folder
		}
		fd.Resize(w.win.Canvas().Size().SubtractWidthHeight(40, 40))
		fd.Show()
	})
	form := widget.NewForm(
		widget.NewFormItem("Folder", container.NewBorder(nil, nil, nil, choose, folder)),
		widget.NewFormItem("Base name", base),
		widget.NewFormItem("", gz),
		widget.NewFormItem("Files", preview),
	)
	d = dialog.NewCustomConfirm("Save As", "Save", "Cancel", form, func(ok bool) {
		if !ok {
			return
		}
		i, l := paths()
		write := func() {
			w.runSave(func(ctx context.Context, progress func(float64)) error {
				return w.ds.SaveAsContext(ctx, i, l, progress)
			}, then)
		}
		if existing := existingFiles(i, l); existing != "" && !samePair(w.ds, i, l) {
			w.ask("Replace files?", existing+" already there. Replace?", false, func(yes bool) {
				if yes {
					write()
				}
			})
			return
		}
		write()
	}, w.win)
	d.Resize(fyne.NewSize(560, d.MinSize().Height))
	w.prompts.show(w.win.Canvas(), "save as", d, d.Dismiss, d.Confirm, w.focusGrid)
}

// baseName returns the part of an MNIST-style file name before "-images"/"-labels"
// ("train" for train-images-idx3-ubyte.gz), or the name without extensions.
func baseName(path string) string {
	name := filepath.Base(path)
	for _, marker := range []string{"-images", "-labels", ".images", "_images"} {
		if k := strings.Index(strings.ToLower(name), marker); k > 0 {
			return name[:k]
		}
	}
	return strings.TrimSuffix(name, filepath.Ext(name))
}

// existingFiles names those of paths that exist.
func existingFiles(paths ...string) string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); p != "" && err == nil {
			out = append(out, filepath.Base(p))
		}
	}
	return strings.Join(out, " and ")
}

// samePair reports whether i and l are the files ds was opened from (saving over them needs no
// second question).
func samePair(ds *store.Dataset, i, l string) bool {
	a, b := ds.Paths()
	return a == i && b == l
}

// confirmUnsaved runs then, after asking Save / Discard / Cancel when there are unsaved edits.
func (w *mainWindow) confirmUnsaved(action string, then, cancelled func()) {
	if cancelled == nil {
		cancelled = func() {}
	}
	if w.saving != "" {
		// A save is writing the files: Discard (which deletes the journal) or closing the
		// dataset now would act under it. The action waits for the save's end and is then taken
		// as if asked then (the question comes only if edits are still unsaved); a failed save
		// drops it, so that the person reads why first.
		w.afterSaving = func() { w.confirmUnsaved(action, then, cancelled) }
		w.afterSavingName = strings.ToLower(action)
		w.updateStatus()
		return
	}
	if !w.ds.Dirty() {
		then()
		return
	}
	if w.prompts.isOpen("unsaved") {
		cancelled()
		return // a second Ctrl+Q or close while the question is open: it stays the one question
	}
	var d *dialog.CustomDialog
	saveBtn := widget.NewButton("Save", func() {
		d.Hide()
		if images, _ := w.ds.Paths(); images == "" {
			w.saveAsThen(then)
		} else {
			w.runSave(w.ds.SaveContext, then)
		}
	})
	saveBtn.Importance = widget.HighImportance
	discard := widget.NewButton("Discard", func() {
		d.Hide()
		w.ds.Abandon()
		then()
	})
	cancel := widget.NewButton("Cancel", func() { d.Hide(); cancelled() })
	c := w.ds.Counters()
	msg := widget.NewLabel(fmt.Sprintf("%s has unsaved edits (%d relabelled, %d added, %d deleted).\nSave them before you %s?", w.name, c.Relabelled, c.Appended, c.Deleted, strings.ToLower(action)))
	d = dialog.NewCustomWithoutButtons("Unsaved edits", container.NewVBox(msg, container.NewHBox(layout.NewSpacer(), cancel, discard, saveBtn)), w.win)
	// Escape cancels; Enter saves (the answer that loses nothing).
	w.prompts.show(w.win.Canvas(), "unsaved", d, cancel.OnTapped, saveBtn.OnTapped, w.focusGrid)
}

// quit closes the window after asking about unsaved edits.
func (w *mainWindow) quit() {
	w.confirmUnsaved("Quit", func() {
		if w.ds != nil {
			if w.demo {
				w.ds.Abandon()
			}
			w.ds.Close()
		}
		w.win.Close()
	}, nil)
}

const recentKey = "recent"

// addRecent puts a pair at the top of File → Open Recent (kept in the app's preferences).
func (w *mainWindow) addRecent(images, labels string) {
	images, labels = absPath(images), absPath(labels)
	entry := images + "\n" + labels
	list := []string{entry}
	for _, e := range w.app.Preferences().StringList(recentKey) {
		if e != entry && len(list) < 10 {
			list = append(list, e)
		}
	}
	w.app.Preferences().SetStringList(recentKey, list)
	w.updateRecentMenu()
}

// absPath makes a path absolute and clean (Open Recent must work from any working folder); ""
// stays "".
func absPath(p string) string {
	if p == "" {
		return ""
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// updateRecentMenu rebuilds the Open Recent submenu.
func (w *mainWindow) updateRecentMenu() {
	var items []*fyne.MenuItem
	for _, e := range w.app.Preferences().StringList(recentKey) {
		images, labels, _ := strings.Cut(e, "\n")
		label := filepath.Base(images)
		if labels != "" {
			label += " + " + filepath.Base(labels)
		}
		items = append(items, fyne.NewMenuItem(label+"  ("+filepath.Dir(images)+")", func() {
			w.load(images, labels, false)
		}))
	}
	if len(items) == 0 {
		none := fyne.NewMenuItem("(none yet)", nil)
		none.Disabled = true
		items = append(items, none)
	}
	w.recent.ChildMenu.Items = items
	if w.menu != nil {
		w.menu.Refresh()
	}
}
