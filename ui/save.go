package ui

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"idxlabel/export"
	"idxlabel/internal/clip"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/convert"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/testhook"
	"idxlabel/ui/widgets"
)

// saver writes the dataset: Save, Save As, the question about unsaved edits before a dataset
// is replaced or the window closes, Cancel Save, and the change log a save appends to.
type saver struct {
	c      *controller
	d      *dialogs.Dialogs
	win    fyne.Window
	prefs  fyne.Preferences
	recent func(images, labels string) // puts a saved pair at the top of Open Recent
	// export writes the dataset as it is now to out in format f, as File → Export… does (Save As
	// in another format than IDX).
	export func(out string, f export.Format)
	// closing closes the application's other windows (the draw window) before the main one
	// closes; nil: none.
	closing func()
	job     *jobs.Job // the save running, nil when none
}

// save writes the dataset over its files (Save As when it has none), off the UI thread with its
// progress on the status bar.
func (s *saver) save() {
	if images, _ := s.c.ds.Paths(); images == "" {
		s.saveAs()
		return
	}
	s.run(s.c.ds.SaveContext, nil)
}

// cancel is File → Cancel Save: it stops the save running before the files are replaced.
func (s *saver) cancel() {
	if s.job != nil {
		s.job.Cancel()
	}
}

// run runs a save off the UI thread, its progress on the status bar; edits wait until it ends,
// and File → Cancel Save stops it before the files are replaced. then runs after a successful
// save.
func (s *saver) run(do func(ctx context.Context, progress func(float64)) error, then func()) {
	c := s.c
	if c.cannotEdit() {
		return // one save (or load, import) at a time
	}
	// No dialog: a modal one would take the keys, and browsing, zooming and scrolling go on
	// while a save runs (edits wait). The progress is on the status bar.
	job := c.jobs.Start(jobs.Saving, "Saving… (edits wait)")
	s.job = job
	s.c.out.menu.setSaving(true)
	c.renderCursor()
	s.beforeSave()
	c.jobs.Run(func() {
		// The work starts once the window has drawn "Saving…" and answered the events already
		// queued: a func handed to fyne.Do from here runs after the current event's frame. A
		// key pressed just after Ctrl+S then meets a frame drawn on an idle machine, not one
		// slowed by the save's compression (scripts/savelat.sh).
		drawn := make(chan struct{})
		c.jobs.Schedule(func() { close(drawn) })
		select {
		case <-drawn:
		case <-job.Ctx.Done(): // the window closing (its queue may be dropped): do returns at once
		}
		last := -1
		var gate sync.Once
		err := do(job.Ctx, func(f float64) {
			gate.Do(func() { testhook.WaitGate(job.Ctx, testhook.SaveGate) }) // a test's hook; nothing otherwise
			if pc := int(100 * f); pc/10 != last/10 {
				last = pc
				c.jobs.Schedule(func() {
					if s.job == job {
						c.jobs.SetNote(job, fmt.Sprintf("Saving… %d%% (edits wait)", pc))
						c.showProgress()
					}
				})
			}
		})
		c.jobs.Schedule(func() { s.done(job, err, then) })
	})
}

// done ends save job on the UI thread: it says how the save went, shows the files saved and
// runs then (or what waited for the save).
func (s *saver) done(job *jobs.Job, err error, then func()) {
	c := s.c
	defer c.jobs.Finish(job) // last: tests wait on it
	next := c.jobs.Then(job, nil, "")
	c.jobs.SetNote(job, "")
	s.job = nil
	s.c.out.menu.setSaving(false)
	c.renderCursor()
	if errors.Is(err, context.Canceled) {
		c.say("Save cancelled: the files were not changed; the edits are kept, unsaved")
		return
	}
	if err = withSaveAsAdvice(err); err != nil {
		s.d.ShowError(err)
		return
	}
	if images, labels := c.ds.Paths(); images != "" {
		name := clip.Name(labels)
		if labels == "" {
			name = clip.Name(images)
		}
		c.rename(name)
		s.recent(images, labels)
	}
	c.refresh()
	saved := ""
	if images, _ := c.ds.Paths(); images != "" {
		saved = savedText(c.ds.LastSave(), images)
	}
	// The inputs typed during the save are applied now, before what waited for it: a quit then
	// asks about the edits they made.
	c.in.last = [2]int{}
	c.jobs.Release(job)
	if applied, lost := c.in.last[0], c.in.last[1]; applied+lost > 0 {
		saved += "; then " + replayNote(applied, lost)
		if then != nil && applied > 0 {
			action := then
			then = func() { s.confirmUnsaved("Continue", action, nil) }
		}
	}
	if then == nil {
		then = next // a save that was asked to do something after it already does that
	}
	if saved != "" {
		c.say(saved)
	}
	if s.afterSave(then) {
		return // then runs when the person has read why the change log was not written
	}
	if then != nil {
		then()
	}
}

// saveAs asks for a format, a folder and a base name and writes "<base>-images-idx3-ubyte" and
// "<base>-labels-idx1-ubyte" there (".gz" when compressed), through the store's atomic paired
// save; the file-save dialog's writer is not used, since it empties the target first. A format
// other than IDX (convert.SaveFormats: Parquet, Kaggle CSV, .npz) is written as File → Export…
// writes it (export), the IDX pair left as it is. A folder that does not exist is created once
// the person agrees; Enter in any field presses Save.
func (s *saver) saveAs() { s.saveAsThen(nil) }

func (s *saver) saveAsThen(then func()) {
	if s.c.cannotEdit() {
		return // read-only, or a save runs: the status bar says so
	}
	ds := s.c.ds
	images, labels := ds.Paths()
	var d *dialogs.Question
	cancel := func() { d.Dismiss() }
	folder := dialogs.NewPromptEntry(cancel)
	base := dialogs.NewPromptEntry(cancel)
	gz := widgets.NewPassingCheck("Compress (.gz)", nil)
	if images != "" {
		folder.SetText(filepath.Dir(images))
		base.SetText(dialogs.BaseName(images))
		gz.SetChecked(strings.HasSuffix(images, ".gz"))
	} else {
		folder.SetText(dialogs.StartFolder(s.prefs, dialogs.PurposeSave, "", ""))
		base.SetText("mydata")
		gz.SetChecked(true)
	}
	preview := widget.NewLabel("")
	format := convert.NewFormatChoice()
	chosen := format.Chosen
	// A label file is written when the dataset has one or any sample has a label (labels typed
	// on images opened alone get their first): its name follows the base name, as MNIST names
	// its pairs, until the person types another.
	withLabels := labels != "" || ds.HasLabels() || ds.AnyLabelled()
	labelName := dialogs.NewPromptEntry(cancel)
	labelTyped := false
	imagesName := func() string {
		suffix := ""
		if gz.Checked {
			suffix = ".gz"
		}
		return base.Text + "-images-idx3-ubyte" + suffix
	}
	paths := func() (string, string) {
		i := filepath.Join(folder.Text, imagesName())
		if !withLabels {
			return i, ""
		}
		return i, filepath.Join(folder.Text, labelName.Text)
	}
	setting := false // the name is being set from the base name, not typed
	update := func() {
		if f := chosen(); f.Export != "" {
			gz.Disable()
			labelName.Disable()
			preview.SetText(f.Files(f.Target(folder.Text, base.Text)))
			return
		}
		gz.Enable()
		labelName.Enable()
		if !labelTyped {
			setting = true
			labelName.SetText(filepath.Base(pairfile.LabelsFileFor(imagesName())))
			setting = false
		}
		i, l := paths()
		text := clip.Name(i)
		if l != "" {
			text += "\n" + clip.Name(l)
		}
		preview.SetText(text)
	}
	labelName.OnChanged = func(string) {
		if !setting {
			labelTyped = true
			update()
		}
	}
	folder.OnChanged, base.OnChanged, gz.OnChanged = func(string) { update() }, func(string) { update() }, func(bool) { update() }
	format.OnChanged = func(string) { update() }
	update()
	choose := dialogs.FolderButton(folder, s.d, dialogs.PurposeSave)
	form := widget.NewForm(
		widget.NewFormItem("Folder", container.NewBorder(nil, nil, nil, choose, folder)),
		widget.NewFormItem("Base name", base),
		widget.NewFormItem("", gz),
	)
	if withLabels {
		form.Append("Label file", labelName)
	}
	// The format below the fields, so that Tab from the dialog's start reaches the folder first,
	// as before it was offered.
	form.Append("Format", format)
	form.Append("Files", preview)
	d = dialogs.NewQuestion("Save As", "Save", "Cancel", form, func(ok bool) {
		if !ok {
			return
		}
		i, l := paths()
		dir := filepath.Dir(i)
		f := chosen()
		dialogs.RememberFolder(s.prefs, dialogs.PurposeSave, dir)
		write := func(mkdir bool) {
			if f.Export != "" { // written as File → Export… writes it, which asks before it replaces
				if mkdir {
					if err := os.MkdirAll(dir, 0o777); err != nil {
						s.d.ShowError(fmt.Errorf("cannot create the folder %s: %w", dir, err))
						return
					}
				}
				s.export(f.Target(folder.Text, base.Text), f.Export)
				return
			}
			s.run(func(ctx context.Context, progress func(float64)) error {
				if mkdir {
					if err := os.MkdirAll(dir, 0o777); err != nil {
						return fmt.Errorf("cannot create the folder %s: %w", dir, err)
					}
				}
				return ds.SaveAsContext(ctx, i, l, progress)
			}, then)
		}
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			// Enter creates it: the answer that loses nothing, and what Save was pressed for.
			s.d.Ask("Create the folder?", clip.Printable(dir)+" does not exist.\nCreate it and save there?", true, func(yes bool) {
				if yes {
					write(true)
				}
			})
			return
		}
		if existing := dialogs.ExistingFiles(i, l); f.Export == "" && existing != "" && !samePair(ds, i, l) {
			s.d.Ask("Replace files?", existing+" already there. Replace?", false, func(yes bool) {
				if yes {
					write(false)
				}
			})
			return
		}
		write(false)
	}, s.win)
	// Enter in a field presses Save, as Enter elsewhere in the dialog does (dialogs.show).
	for _, e := range []*dialogs.PromptEntry{folder, base, labelName} {
		e.OnSubmitted = func(string) { d.Confirm() }
	}
	d.Resize(fyne.NewSize(560, d.MinSize().Height))
	s.d.Show("save as", d, d.Dismiss, d.Confirm, nil)
}

// samePair reports whether i and l are the files ds was opened from (saving over them needs no
// second question).
func samePair(ds *store.Dataset, i, l string) bool {
	a, b := ds.Paths()
	return a == i && b == l
}

// confirmUnsaved runs then, after asking Save / Discard / Cancel when there are unsaved edits.
func (s *saver) confirmUnsaved(action string, then, cancelled func()) {
	c := s.c
	if cancelled == nil {
		cancelled = func() {}
	}
	if s.job != nil {
		// A save is writing the files: Discard (which deletes the journal) or closing the
		// dataset now would act under it. The action waits for the save's end and is then taken
		// as if asked then (the question comes only if edits are still unsaved); a failed save
		// drops it, so that the person reads why first.
		c.jobs.Then(s.job, func() { s.confirmUnsaved(action, then, cancelled) }, strings.ToLower(action))
		c.renderCursor()
		return
	}
	if !c.ds.Dirty() {
		then()
		return
	}
	if s.d.IsOpen("unsaved") {
		cancelled()
		return // a second Ctrl+Q or close while the question is open: it stays the one question
	}
	var d *dialog.CustomDialog
	saveBtn := widgets.NewPassingButton("Save", func() {
		d.Hide()
		if images, _ := c.ds.Paths(); images == "" {
			s.saveAsThen(then)
		} else {
			s.run(c.ds.SaveContext, then)
		}
	})
	saveBtn.Importance = widget.HighImportance
	discard := widgets.NewPassingButton("Discard", func() {
		d.Hide()
		c.ds.Abandon()
		then()
	})
	cancel := widgets.NewPassingButton("Cancel", func() { d.Hide(); cancelled() })
	n := c.ds.Counters()
	msg := widget.NewLabel(fmt.Sprintf("%s has unsaved edits (%d relabelled, %d added, %d deleted).\nSave them before you %s?", c.name, n.Relabelled, n.Appended, n.Deleted, strings.ToLower(action)))
	d = dialog.NewCustomWithoutButtons("Unsaved edits", container.NewVBox(msg, container.NewHBox(layout.NewSpacer(), cancel, discard, saveBtn)), s.win)
	// Escape cancels; Enter saves (the answer that loses nothing).
	s.d.Show("unsaved", d, cancel.OnTapped, saveBtn.OnTapped, nil)
}

// quit closes the window, and the application's other windows, after asking about unsaved
// edits. The main window is the application's master: closing it ends the program.
func (s *saver) quit() {
	s.confirmUnsaved("Quit", func() {
		// The jobs running (a scan, an export, an import) are cancelled, and the window closes
		// once their goroutines have ended: none is cut off half way through a file.
		s.c.jobs.StopThen(func() {
			if s.c.demo {
				s.c.ds.Abandon()
			}
			s.c.ds.Close()
			if s.closing != nil {
				s.closing()
			}
			s.win.Close()
		})
	}, nil)
}

// withSaveAsAdvice adds to err, when it says the files' folder cannot be written (no permission,
// a read-only file system: pairfile.CannotWrite), that File → Save As… writes the dataset
// elsewhere; other errors, and nil, it returns as they are.
func withSaveAsAdvice(err error) error {
	if err != nil && pairfile.CannotWrite(err) {
		return dialogs.Advise(err, "File → Save As… writes the dataset to a folder you may write to")
	}
	return err
}
