// Package adding is what the window's workflows that bring samples in from outside share (File →
// Import Images…, Append Dataset…, Import Sheets…): a job that reads them with a progress dialog
// (Cancel, or Escape), and the one step that adds them, with the class names they bring, as one
// undoable edit badged as added, after the inputs typed while the job ran.
//
// The job holds edits (jobs.Importing). The progress dialog does not take the keys: a key typed
// meanwhile goes on to the grid, where an edit waits (the controller's queue of inputs) with
// every input after it, and when the job ends those inputs are applied first, in order, on the
// samples they were typed on; the samples are added after them (Host.AfterInputs).
package adding

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
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
)

// Host is what adding samples asks of the window's controller, on the UI thread.
type Host interface {
	// State is the window's dataset, its view model and its class names, to read.
	State() mode.State
	// CannotEdit reports whether an edit cannot be made now, and then says why on the status
	// bar (read-only, a journal awaiting its answer, a job holding edits: the input that asked
	// waits for it).
	CannotEdit() bool
	// Say puts a message on the status bar.
	Say(text string)
	// AfterInputs runs f after every input that waits (typed while a job ran), even when no job
	// holds edits any more.
	AfterInputs(f func())
	// Add appends samples as one undoable, journaled step of added samples (how says where they
	// came from) and returns the first one's number; ClassesChanged shows the class names again
	// after they were set.
	Add(how store.How, samples []store.Sample) (first int, err error)
	ClassesChanged()
}

// Progress is a job of kind jobs.Importing and its progress dialog.
type Progress struct {
	// Job is the job: its context (Job.Ctx) is cancelled by the dialog's Cancel and by Escape.
	Job  *jobs.Job
	jobs *jobs.Jobs
	dlg  *dialog.CustomDialog
	note *widget.Label
	bar  *widget.ProgressBar
}

// Start starts a job of j that holds edits, with a progress dialog in win titled title showing
// note and a bar (infinite: it moves without a fraction) and Cancel; Escape cancels too, and
// every other key goes on to the grid (dialogs.Dialogs.ShowPassing). UI thread.
func Start(j *jobs.Jobs, d *dialogs.Dialogs, win fyne.Window, title, note string, infinite bool) *Progress {
	p := &Progress{jobs: j, Job: j.Start(jobs.Importing, ""), note: widget.NewLabel(note), bar: widget.NewProgressBar()}
	var bar fyne.CanvasObject = p.bar
	if infinite {
		bar = widget.NewProgressBarInfinite()
	}
	p.dlg = d.ShowPassing("progress", title, container.NewVBox(p.note, bar), p.Job.Cancel)
	return p
}

// Set shows the fraction done and, when not "", a new note (UI thread).
func (p *Progress) Set(note string, frac float64) {
	if note != "" {
		p.note.SetText(note)
	}
	p.bar.SetValue(frac)
}

// End hides the dialog (which cancels nothing then) and finishes the job: the inputs that waited
// for it are applied (jobs.Jobs.Finish). It reports whether the job was cancelled. UI thread.
func (p *Progress) End() (cancelled bool) {
	cancelled = p.Job.Ctx.Err() != nil
	p.dlg.SetOnClosed(func() {})
	p.dlg.Hide()
	p.jobs.Finish(p.Job)
	return cancelled
}

// Addition is what a job brings in: the samples, and the class names the dataset has once they
// are added (nil: the names do not change).
type Addition struct {
	Samples []store.Sample
	Names   map[int]string
}

// AfterInputs adds a to ds (how says where the samples came from) as one undoable step, after
// the inputs that wait (typed while the job ran: Host.AfterInputs). The class names are set first
// (store.Dataset.SetClassNames: shown at once, written by the next save); when the samples cannot
// be added they are set back, and the status bar says why (NotAdded). done runs after a
// successful add with the index of the first new sample. Nothing is added when ds is no longer
// the window's dataset.
func AfterInputs(h Host, ds *store.Dataset, how store.How, a Addition, done func(first int)) {
	h.AfterInputs(func() {
		if ds != h.State().DS || h.CannotEdit() { // CannotEdit queues it behind a save a waiting Ctrl+S began
			return
		}
		before := classes.Named(ds)
		changed := a.Names != nil && !maps.Equal(a.Names, before)
		if changed {
			if err := ds.SetClassNames(a.Names); err != nil {
				h.Say(NotAdded(len(a.Samples), err))
				return
			}
		}
		first, err := h.Add(how, a.Samples)
		if err != nil {
			if changed {
				err = errors.Join(err, ds.SetClassNames(before))
			}
			h.Say(NotAdded(len(a.Samples), err))
			return
		}
		if changed {
			h.ClassesChanged()
		}
		done(first)
	})
}

// NotAdded is what the status bar says when n samples could not be added (the store's err: an
// edit refused, mode.Refusal), never a dialog: nothing came in.
func NotAdded(n int, err error) string {
	return numfmt.Plural(n, "sample") + " not added. " + mode.Refusal(err)
}
