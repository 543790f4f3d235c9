package build

import (
	"context"
	"fmt"
	"path/filepath"

	"idxlabel/builder"
	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/pairfile"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/testhook"
)

// Appender adds another pair's samples to the open dataset (File → Append Dataset…): the pair
// is read off the UI thread with a progress bar and Cancel, its samples must have the open
// dataset's height and width, and they are added as one undoable, journaled step of added
// samples (badged +), as an import adds its images. Each keeps the marks the pair kept for it
// (store.Sample.Accepted, Reviewed): an accepted suggestion stays a pseudo-label, not a
// person's label, and a sample a review decided stays decided.
type Appender struct{ base }

// Dialog asks for the other pair's image file (or label file; its partner is found beside it,
// as File → Open finds it), then appends.
func (a *Appender) Dialog() {
	if a.h.CannotEdit() {
		return // read-only, or a job holds edits: the status bar says so
	}
	images, _ := a.ds().Paths()
	a.d.Choose(dialogs.Spec{Title: "Append Dataset", Confirm: "Append", Purpose: dialogs.PurposeOpen, Filter: dialogs.IsIDXName, Kind: "IDX files",
		Start: filepath.Dir(images)}, func(path string) { a.Run([]string{path}) })
}

// Run appends the pair named by paths (pairfile.ClassifyPair: an image file, a label file, or
// both). The pair is opened read-only (store.Open: checked as a pair, class names found) and
// its samples taken upright, so a transposed pair (EMNIST) appends upright samples to a
// dataset stored either way. Its class names join the open dataset's by `idxlabel merge`'s rule
// (builder.MergeNames: a number named two ways, or a name on two numbers, is refused before
// anything is added). The samples are added after the inputs typed meanwhile
// (addAfterInputs). Memory: the other pair once as read and once as the samples to add.
// Nothing is added when it is cancelled or fails.
func (a *Appender) Run(paths []string) {
	if a.h.CannotEdit() {
		return
	}
	images, labels, err := pairfile.ClassifyPair(paths)
	if err != nil {
		a.d.ShowError(err)
		return
	}
	ds := a.ds()
	h, w := ds.Size()
	withLabels := ds.HasLabels() || ds.AnyLabelled()
	own := &builder.Input{Names: classes.Named(ds), NamesFile: ds.ClassNamesFile()}
	if own.NamesFile == "" {
		own.NamesFile = "the open dataset"
	}
	p := a.startProgress("Appending a dataset", "Reading "+clip.Name(images)+"…", false)
	a.jobs.Run(func() {
		got, err := readAppended(p.Job.Ctx, images, labels, h, w, withLabels, func(frac float64) {
			a.jobs.Schedule(func() { p.Set("Converting "+clip.Name(images)+"…", frac) })
		})
		if err == nil {
			got.Names, err = builder.MergeNames([]*builder.Input{own, got.from})
		}
		testhook.WaitGate(p.Job.Ctx, testhook.ImportGate) // a test's hook; nothing otherwise
		a.jobs.Schedule(func() {
			if p.End() {
				a.h.Say("Append cancelled: nothing was added")
				return
			}
			if err != nil {
				a.d.ShowError(err)
				return
			}
			a.addAfterInputs(ds, store.HowAddedImported, got.addition, func(int) {
				a.h.Say(fmt.Sprintf("Appended %s from %s%s (undo removes them all)", numfmt.Plural(len(got.Samples), "sample"), clip.Name(images), acceptedNote(got.Samples)))
				for _, n := range got.notices {
					a.d.Inform("Note", clip.Printable(n)) // one line, which may quote a path
				}
			})
		})
	})
}

// appended is what readAppended read: the samples, the pair's class names as merge sees them,
// and what opening the pair found that the person should be told (store.Dataset.Notices: a
// marks file that does not fit the pair, so its samples come without those marks; an
// unreadable class-name file), shown as Open shows its notices once the samples are added.
type appended struct {
	addition
	from    *builder.Input
	notices []string
}

// readAppended reads the pair images, labels (labels "" for images alone) read-only and returns
// its live samples upright with their labels and marks, after the size check (appendSize), its
// class names, and the notices its opening gave. withLabels says the open dataset has labels: a pair without any is refused then, since
// its samples would come in unlabelled. progress gets the fraction converted. Errors:
// store.Open's, the size check's, ctx's.
func readAppended(ctx context.Context, images, labels string, h, w int, withLabels bool, progress func(float64)) (appended, error) {
	other, err := store.Open(images, labels, store.Options{ReadOnly: true})
	if err != nil {
		return appended{}, err
	}
	defer other.Close()
	if err := ctx.Err(); err != nil {
		return appended{}, err
	}
	oh, ow := other.Size()
	if err := appendSize(images, oh, ow, h, w); err != nil {
		return appended{}, err
	}
	if withLabels && !other.HasLabels() {
		return appended{}, fmt.Errorf("%s has no label file beside it: its samples would be added without labels; open the pair with its label file", images)
	}
	from := &builder.Input{Names: classes.Named(other), NamesFile: other.ClassNamesFile()}
	snap := other.Snapshot()
	samples := make([]store.Sample, snap.N)
	pixels := make([]byte, snap.N*h*w) // one buffer: the samples' own copy (other closes)
	for k := range snap.N {
		if k%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return appended{}, err
			}
			progress(float64(k) / float64(max(snap.N, 1)))
		}
		px := pixels[k*h*w : (k+1)*h*w : (k+1)*h*w]
		copy(px, snap.Shown(k, px))
		st := other.State(snap.Number(k))
		samples[k] = store.Sample{Pixels: px, Label: snap.Labels[k], Accepted: st.Accepted, Reviewed: st.Reviewed}
	}
	progress(1)
	return appended{addition: addition{Samples: samples}, from: from, notices: other.Notices()}, nil
}

// appendSize refuses samples of file that are not the open dataset's size, as idxlabel merge
// refuses them: the same height and width, compared upright (as both are shown).
func appendSize(file string, h, w, wantH, wantW int) error {
	if h != wantH || w != wantW {
		return fmt.Errorf("%s: its samples are %d×%d (height×width), the open dataset's are %d×%d: appended samples must have the same height and width", file, h, w, wantH, wantW)
	}
	return nil
}

// acceptedNote says how many of samples are accepted suggestions (", 7 of them accepted
// suggestions"), "" when none is.
func acceptedNote(samples []store.Sample) string {
	n := 0
	for _, s := range samples {
		if s.Accepted && s.Label != sample.NoLabel {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return numfmt.Sprintf(", %d of them accepted suggestions", n)
}
