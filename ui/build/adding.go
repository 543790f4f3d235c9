package build

import (
	"errors"
	"maps"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/numfmt"
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
)

// What File → Import Images… and File → Append Dataset… share: a job that reads samples from
// outside with a progress dialog (Cancel, or Escape), and the step that adds them, with the
// class names they bring, as one undoable edit.
//
// The job holds edits (jobs.Importing). The progress dialog does not take the keys: a key typed
// meanwhile goes on to the grid, where an edit waits (the controller's queue of inputs) with
// every input after it, and when the job ends those inputs are applied first, in order, on the
// samples they were typed on; the samples are added after them (Host.AfterInputs).

// progressJob is a job of kind jobs.Importing and its progress dialog.
type progressJob struct {
	jobs *jobs.Jobs
	job  *jobs.Job
	dlg  *dialog.CustomDialog
	note *widget.Label
	bar  *widget.ProgressBar
}

// startProgress starts a job that holds edits, with a progress dialog titled title showing note
// and a bar (infinite: it moves without a fraction) and Cancel; Escape cancels too, and every
// other key goes on to the grid (dialogs.Dialogs.ShowPassing).
func (b base) startProgress(title, note string, infinite bool) *progressJob {
	p := &progressJob{jobs: b.jobs, job: b.jobs.Start(jobs.Importing, ""), note: widget.NewLabel(note), bar: widget.NewProgressBar()}
	var bar fyne.CanvasObject = p.bar
	if infinite {
		bar = widget.NewProgressBarInfinite()
	}
	p.dlg = dialog.NewCustom(title, "Cancel", container.NewVBox(p.note, bar), b.win)
	b.d.ShowPassing("progress", p.dlg, p.job.Cancel)
	return p
}

// set shows the fraction done and, when not "", a new note (UI thread).
func (p *progressJob) set(note string, frac float64) {
	if note != "" {
		p.note.SetText(note)
	}
	p.bar.SetValue(frac)
}

// end hides the dialog (which cancels nothing then) and finishes the job: the inputs that waited
// for it are applied (jobs.Jobs.Finish). It reports whether the job was cancelled.
func (p *progressJob) end() (cancelled bool) {
	cancelled = p.job.Ctx.Err() != nil
	p.dlg.SetOnClosed(func() {})
	p.dlg.Hide()
	p.jobs.Finish(p.job)
	return cancelled
}

// addition is what a job brings in: the samples, and the class names the dataset has once they
// are added (nil: the names do not change).
type addition struct {
	samples []store.Sample
	names   map[int]string
}

// addAfterInputs adds a to ds (how says where the samples came from) as one undoable step, after
// the inputs that wait (typed while the job ran: Host.AfterInputs). The class names are set first
// (store.Dataset.SetClassNames: shown at once, written by the next save); when the samples cannot
// be added they are set back, and the status bar says why (notAdded). done runs after a
// successful add with the index of the first new sample. Nothing is added when ds is no longer
// the window's dataset.
func (b base) addAfterInputs(ds *store.Dataset, how store.How, a addition, done func(first int)) {
	b.h.AfterInputs(func() {
		if ds != b.ds() || b.h.CannotEdit() { // CannotEdit queues it behind a save a waiting Ctrl+S began
			return
		}
		before := classes.Named(ds)
		changed := a.names != nil && !maps.Equal(a.names, before)
		if changed {
			if err := ds.SetClassNames(a.names); err != nil {
				b.h.Say(notAdded(len(a.samples), err))
				return
			}
		}
		first, err := b.h.Add(how, a.samples)
		if err != nil {
			if changed {
				err = errors.Join(err, ds.SetClassNames(before))
			}
			b.h.Say(notAdded(len(a.samples), err))
			return
		}
		if changed {
			b.h.ClassesChanged()
		}
		done(first)
	})
}

// notAdded is what the status bar says when n samples could not be added (the store's err: an
// edit refused, mode.Refusal), never a dialog: nothing came in.
func notAdded(n int, err error) string {
	return numfmt.Plural(n, "sample") + " not added. " + mode.Refusal(err)
}
