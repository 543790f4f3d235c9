package ui

import (
	"context"
	"fmt"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"idxlabel/pairfile"
	"idxlabel/store"
)

// appender adds another pair's samples to the open dataset (File → Append Dataset…): the pair
// is read off the UI thread with a progress bar and Cancel, its samples must have the open
// dataset's height and width, and they are added as one undoable, journaled step of added
// samples (badged +), as an import adds its images.
type appender struct {
	c   *controller
	d   *dialogs
	win fyne.Window
}

// appendDialog asks for the other pair's image file (or label file; its partner is found beside
// it, as File → Open finds it), then appends.
func (a *appender) appendDialog() {
	if a.c.cannotEdit() {
		return // read-only, or a job holds edits: the status bar says so
	}
	fd := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			a.d.showError(err)
			return
		}
		if r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		a.run([]string{path})
	}, a.win)
	fd.SetFilter(idxFilter{})
	if images, _ := a.c.ds.Paths(); images != "" {
		if dir, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(images))); err == nil {
			fd.SetLocation(dir)
		}
	}
	fd.Resize(a.win.Canvas().Size().SubtractWidthHeight(40, 40))
	fd.Show()
}

// run appends the pair named by paths (pairfile.ClassifyPair: an image file, a label file, or
// both). The pair is opened read-only (store.Open: checked as a pair, class names found) and
// its samples taken upright, so a transposed pair (EMNIST) appends upright samples to a
// dataset stored either way. Memory: the other pair once as read and once as the samples to
// add. Nothing is added when it is cancelled or fails.
func (a *appender) run(paths []string) {
	c := a.c
	if c.cannotEdit() {
		return
	}
	images, labels, err := pairfile.ClassifyPair(paths)
	if err != nil {
		a.d.showError(err)
		return
	}
	ds := c.ds
	h, w := ds.Size()
	withLabels := ds.HasLabels() || ds.AnyLabelled()
	bar := widget.NewProgressBar()
	note := widget.NewLabel("Reading " + filepath.Base(images) + "…")
	job := c.jobs.start(jobImporting, "")
	prog := dialog.NewCustom("Appending a dataset", "Cancel", container.NewVBox(note, bar), a.win)
	prog.SetOnClosed(job.cancel)
	prog.Show()
	c.jobs.run(func() {
		samples, err := readAppended(job.ctx, images, labels, h, w, withLabels, func(frac float64) {
			c.jobs.schedule(func() {
				note.SetText("Converting " + filepath.Base(images) + "…")
				bar.SetValue(frac)
			})
		})
		// Decided here: hiding the progress dialog below runs its Cancel (SetOnClosed chains).
		cancelled := job.ctx.Err() != nil
		c.jobs.schedule(func() {
			defer c.jobs.finish(job) // last: tests wait on it
			prog.Hide()
			if cancelled {
				c.say("Append cancelled: nothing was added")
				return
			}
			if err != nil {
				a.d.showError(err)
				return
			}
			if ds != c.ds {
				return // another dataset was opened meanwhile
			}
			if _, err := c.add(store.HowAddedImported, samples); err != nil {
				a.d.showError(err)
				return
			}
			c.say(fmt.Sprintf("Appended %s from %s (undo removes them all)", plural(len(samples), "sample"), filepath.Base(images)))
		})
	})
}

// readAppended reads the pair images, labels (labels "" for images alone) read-only and returns
// its live samples upright with their labels, after the size check (appendSize). withLabels
// says the open dataset has labels: a pair without any is refused then, since its samples
// would come in unlabelled. progress gets the fraction converted. Errors: store.Open's, the
// size check's, ctx's.
func readAppended(ctx context.Context, images, labels string, h, w int, withLabels bool, progress func(float64)) ([]store.Sample, error) {
	other, err := store.Open(images, labels, store.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer other.Close()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	oh, ow := other.Size()
	if err := appendSize(images, oh, ow, h, w); err != nil {
		return nil, err
	}
	if withLabels && !other.HasLabels() {
		return nil, fmt.Errorf("%s has no label file beside it: its samples would be added without labels; open the pair with its label file", images)
	}
	snap := other.Snapshot()
	samples := make([]store.Sample, snap.N)
	pixels := make([]byte, snap.N*h*w) // one buffer: the samples' own copy (other closes)
	for k := range snap.N {
		if k%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress(float64(k) / float64(max(snap.N, 1)))
		}
		px := pixels[k*h*w : (k+1)*h*w : (k+1)*h*w]
		copy(px, snap.Shown(k, px))
		samples[k] = store.Sample{Pixels: px, Label: snap.Labels[k]}
	}
	progress(1)
	return samples, nil
}

// appendSize refuses samples of file that are not the open dataset's size, as idxlabel merge
// refuses them: the same height and width, compared upright (as both are shown).
func appendSize(file string, h, w, wantH, wantW int) error {
	if h != wantH || w != wantW {
		return fmt.Errorf("%s: its samples are %d×%d (height×width), the open dataset's are %d×%d: appended samples must have the same height and width", file, h, w, wantH, wantW)
	}
	return nil
}
