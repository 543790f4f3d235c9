// Package convert is the window's opening of dataset files of other formats: a Hugging Face
// Parquet file, a Kaggle CSV, a NumPy .npy or .npz file (package formats reads them), chosen with
// File → Open…, dropped on the window or named when the window starts. The window edits and
// journals IDX pairs, so the file is written as one beside it first, under the names convert
// gives it by default (formats.IDXNames: "train.csv" gives train-images-idx3-ubyte.gz and
// train-labels-idx1-ubyte.gz, and the class names a Parquet ClassLabel gives go to the label
// file's class-name file), in a job off the UI thread with its progress and Cancel; then that
// pair opens as File → Open opens one: shown, edited, checked, and saved as IDX. The file itself
// is only read, never written.
//
// When the pair is already beside the file (converted before, and perhaps edited since), the
// person chooses: open it (Enter: it loses nothing), or convert the file again over it, which
// goes through the one output rule (pairfile.ClaimOutputs with force: never a pair open for
// editing, nor one whose journal holds unsaved edits). When that pair is the one the window
// shows, converting again closes it first (Host.Release: the question about its unsaved edits
// comes first), since the window's own lock would refuse the conversion as another's. The outputs are claimed before anything
// is read and held until the pair is written, so no other writer gets in between.
//
// The job holds edits (jobs.Loading), as opening a pair does: its progress dialog passes every
// key but Escape on to the grid, where the inputs typed meanwhile wait and are applied, in
// order, to the dataset they were typed on when the job ends, before the new pair opens (and
// before the question about that dataset's unsaved edits).
//
// A workflow works with the window through Host, never with the window or its controller; it
// imports neither ui nor another workflow's package (layers_test.go).
//
// Cost: the conversion holds the samples once (formats.Read's arrays, N·H·W bytes of pixels and
// N labels) while it writes them; the window then opens the pair as any other.
package convert

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"idxlabel/formats"
	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/testhook"
	"idxlabel/ui/widgets"
)

// Host is what the converter asks of the window, on the UI thread.
type Host interface {
	// OpenPair opens the IDX pair images, labels as File → Open opens one (the question about
	// the open dataset's unsaved edits comes once it has opened).
	OpenPair(images, labels string)
	// Say puts a message on the status bar.
	Say(text string)
	// Release runs then once the window no longer has the pair whose image file is images
	// open: at once when it shows another; when it shows that pair, after closing it, the
	// person first asked about its unsaved edits (Cancel there runs nothing). A pair open in
	// the window holds its lock, which the conversion replacing it would otherwise meet as
	// another's.
	Release(images string, then func())
}

// Converter opens dataset files of other formats as IDX pairs written beside them.
type Converter struct {
	h    Host
	jobs *jobs.Jobs
	d    *dialogs.Dialogs
	win  fyne.Window
	opts formats.Options
}

// New builds the converter for the window win: it opens pairs through h, runs the conversion as
// a job of j and asks its questions through d. Files are read as their formats' tools write them
// (formats.Options' zero value: the columns and arrays found by type and name, images of another
// size through MNIST's preprocessing).
func New(h Host, j *jobs.Jobs, d *dialogs.Dialogs, win fyne.Window) *Converter {
	return &Converter{h: h, jobs: j, d: d, win: win}
}

// Reads reports whether the file at path is one Open converts: formats.Detect finds, from its
// first bytes, a format other than IDX. A file that cannot be read, or is none of the formats,
// is not (File → Open then says why, as for any file).
func Reads(path string) bool {
	f, err := formats.Detect(path)
	return err == nil && f != formats.IDX
}

// IsName reports whether a file named name is listed by File → Open… as a dataset file of
// another format: ".parquet", ".csv", ".npy" and ".npz" (the format itself is told by the file's
// bytes when it is opened), but not idxlabel's own files (pairfile.IsStateFile) nor the change
// logs saves write (…-ubyte.gz.changes.csv).
func IsName(name string) bool {
	lower := strings.ToLower(name)
	if pairfile.IsStateFile(lower) || strings.HasSuffix(lower, store.ChangesSuffix) {
		return false
	}
	switch filepath.Ext(lower) {
	case ".parquet", ".csv", ".npy", ".npz":
		return true
	}
	return false
}

// Outputs are the files opening path writes: the IDX pair beside it (formats.IDXNames) and the
// label file's class-name file.
func Outputs(path string) (images, labels, names string) {
	images, labels = formats.IDXNames(path)
	return images, labels, pairfile.ClassNamesFile(labels)
}

// Open opens the file at path, a dataset file of another format (Reads): when its pair is
// already beside it, the person is asked whether to open that pair or convert the file again
// over it; otherwise it is converted (a job with its progress and Cancel) and the pair opens.
func (c *Converter) Open(path string) {
	images, labels, _ := Outputs(path)
	existing := dialogs.ExistingFiles(images, labels)
	if existing == "" {
		c.convert(path, false)
		return
	}
	var d *dialog.CustomDialog
	openIt := widgets.NewPassingButton("Open Them", func() {
		d.Hide()
		c.h.OpenPair(images, labels)
	})
	openIt.Importance = widget.HighImportance
	replace := widgets.NewPassingButton("Convert Again, Replacing Them", func() {
		d.Hide()
		c.h.Release(images, func() { c.convert(path, true) })
	})
	cancel := widgets.NewPassingButton("Cancel", func() { d.Hide() })
	msg := widget.NewLabel(clip.Message(fmt.Sprintf("%s %s already in\n%s,\nbeside %s: written from it when it was opened before (with the edits\nsaved since), or other files of those names.\n\nOpen them as they are, or convert %s again and replace them?",
		existing, verb(existing), clip.Printable(filepath.Dir(images)), clip.Name(path), clip.Name(path))))
	d = dialog.NewCustomWithoutButtons("Open "+clip.Name(path), container.NewVBox(msg, container.NewHBox(layout.NewSpacer(), cancel, replace, openIt)), c.win)
	// Escape cancels; Enter opens the pair there (the answer that loses nothing).
	c.d.Show("convert exists", d, cancel.OnTapped, openIt.OnTapped, nil)
}

// verb is "is" for one file named, "are" for two ("a and b").
func verb(files string) string {
	if strings.Contains(files, " and ") {
		return "are"
	}
	return "is"
}

// convert writes path as its IDX pair in a job (replacing the pair there when replace), then
// opens the pair; a failure is shown naming the file, a Cancel on the status bar (with the pair's
// names when it came after the pair was written).
func (c *Converter) convert(path string, replace bool) {
	images, labels, _ := Outputs(path)
	job := c.jobs.Start(jobs.Loading, "")
	note := widget.NewLabel("Reading " + clip.Name(path) + "…")
	bar := widget.NewProgressBar()
	dlg := c.d.ShowPassing("convert", "Opening "+clip.Name(path), container.NewVBox(widget.NewLabel(clip.Printable(filepath.Dir(path))), note, bar), job.Cancel)
	dlg.Resize(fyne.NewSize(440, dlg.MinSize().Height))
	c.jobs.Run(func() {
		testhook.WaitGate(job.Ctx, testhook.ConvertGate) // a test's hook; nothing otherwise
		var shown progress
		set, err := Write(job.Ctx, path, replace, c.opts, func(text string, frac float64) {
			if !shown.due(frac) {
				return
			}
			c.jobs.Schedule(func() {
				note.SetText(text)
				bar.SetValue(frac)
			})
		})
		var notes []string
		if set != nil {
			notes = set.Notes
		}
		// The samples are written and the pair opens from its files: give the arrays and the
		// decoding's garbage (the file's pages, the decoded images) back to the system now rather
		// than carry them as resident memory.
		set = nil
		debug.FreeOSMemory()
		c.jobs.Schedule(func() {
			cancelled := job.Ctx.Err() != nil
			dlg.Hide()
			c.jobs.Finish(job) // the inputs typed meanwhile are applied to the dataset shown
			switch {
			case errors.Is(err, context.Canceled):
				c.h.Say("Opening " + clip.Name(path) + " cancelled: nothing was written")
			case err == nil && cancelled: // too late: the pair was written, and is not opened
				c.h.Say("Opening " + clip.Name(path) + " cancelled once its IDX pair was written: " + clip.Name(images) + " and " + clip.Name(labels))
			case err != nil:
				c.d.ShowError(err)
			default:
				c.h.OpenPair(images, labels)
				for _, n := range notes { // what the reader did beyond copying
					c.d.Inform("Note", n)
				}
			}
		})
	})
}

// progress thins a job's progress to a hundred steps, so that the UI thread gets at most a
// hundred updates whatever the number of samples.
type progress struct{ last int }

// due reports whether frac starts a new hundredth (the first call always does).
func (p *progress) due(frac float64) bool {
	step := int(frac*100) + 1
	if step == p.last {
		return false
	}
	p.last = step
	return true
}

// Write reads path (formats.Read with opts) and writes it as the IDX pair beside it (Outputs),
// replacing a pair there only when replace, under the outputs' claim made before anything is
// read (pairfile.ClaimOutputs, the input path never an output): the pair is written together
// and atomically, the class names beside the labels (pairfile.Claim.WriteNewPair). progress
// (may be nil) is told what is being done and the fraction done of it. It returns what
// formats.Read read (its Notes for the person). Errors: the claim's (pairfile.ErrExists when the
// pair is there and not replace, a *pairfile.LockedError when it is open for editing, a
// *pairfile.UnsavedEditsError when its journal holds unsaved edits), formats.Read's (each
// naming the file, and the row where there is one), the write's, or ctx's when cancelled before
// the files are put in place (then nothing is written).
func Write(ctx context.Context, path string, replace bool, opts formats.Options, progress func(text string, frac float64)) (*formats.Set, error) {
	if progress == nil {
		progress = func(string, float64) {}
	}
	images, labels, names := Outputs(path)
	claim, err := pairfile.ClaimOutputs([]string{path}, []string{images, labels, names}, replace, nil)
	if err != nil {
		return nil, err
	}
	defer claim.Release()
	base := clip.Name(path)
	opts.Progress = func(done, total int) {
		if total > 0 {
			progress(numfmt.Sprintf("Reading %s: %d of %d samples…", base, done, total), float64(done)/float64(total))
		} else {
			progress(numfmt.Sprintf("Reading %s: %d samples…", base, done), 0)
		}
	}
	set, err := formats.Read(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	progress("Writing "+clip.Name(images)+"…", 0)
	err = claim.WriteNewPair(ctx, images, labels, names, set.Images, set.Labels, set.Names, func(f float64) {
		progress("Writing "+clip.Name(images)+"…", f)
	})
	if err != nil {
		return nil, err
	}
	return set, nil
}
