// Package similar is the window's "more like this" (Tools → More Like This, Ctrl+F; the draw
// window's button for the digit being drawn): the k samples most like the cursor's sample or a
// drawing, most similar first, each with its similarity, shown in the grid and reviewed as
// suspects are (Mode). The search is package suspect/similar's: by the CNN's features when a
// scan of these samples exists (the window's last scan, else the scan kept beside the image
// file), else by the duplicate check's pixel descriptors; the status bar says which.
//
// The index is built once per dataset (seconds at 60,000 samples, about a minute at 1,000,000:
// bench/similar/README.md), off the UI thread with a progress dialog and Cancel, and kept: a
// query on it takes milliseconds and runs at once. It is built again when samples were added
// or renumbered since, or when a scan's features became available. While it is built, edits
// wait (a jobs.Scanning job, as the Suspects' kNN pass): a key typed meanwhile is applied to
// the list once it shows, never lost. It imports neither the window's package nor another
// workflow's.
package similar

import (
	"context"
	"errors"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/scancache"
	"idxlabel/suspect/similar"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
	"idxlabel/ui/scan"
	"idxlabel/ui/testhook"
)

// K is how many samples a query lists besides the query itself.
const K = 100

// Scans is the window's CNN scan as the search reads it (ui/scan.Scanner): the last one, nil
// when none.
type Scans interface {
	Last() *scan.Analysis
}

// Finder answers "more like this" and keeps the index it built.
type Finder struct {
	c     mode.Controller
	jobs  *jobs.Jobs
	d     *dialogs.Dialogs
	win   fyne.Window
	scans Scans
	// K is how many samples a query lists (default K).
	K int
	// Mode is the list of the last query, reviewed in the grid.
	Mode *Mode
	ix   *built        // the index built last, nil before the first query
	job  *jobs.Job     // the index being built, nil when none
	dlg  dialog.Dialog // its progress
	// skip: the ask made again after its index was cancelled or failed does nothing; answering:
	// the ask that did not wait for the index (not an input), answered once it is built.
	skip      bool
	answering *query
	said      string // what the last answer said on the status bar
}

// New makes the window's "more like this" with its controller c, jobs j, dialogs d on win, and
// the CNN scan scans.
func New(c mode.Controller, j *jobs.Jobs, d *dialogs.Dialogs, win fyne.Window, scans Scans) *Finder {
	f := &Finder{c: c, jobs: j, d: d, win: win, scans: scans, K: K}
	f.Mode = &Mode{Begin: f.LikeCursor}
	return f
}

// built is an index and what it indexes: the samples of ds that were live when it was built
// (snap), numbered as they were after resets renumberings, n samples in all then.
type built struct {
	ix     *similar.Index
	ds     *store.Dataset
	resets int
	n      int
	snap   sample.Set
	pos    []int // sample number → snapshot position, -1 for none (deleted then); O(N) ints
	space  similar.Space
	seen   *scan.Analysis // the window's last scan when it was built (used or not: stale, other samples)
	from   string         // where the vectors came from, for the status bar
	took   time.Duration  // the build's wall time, said with the first answer (0 after)
}

// query is what is asked about: a sample (its number) or a drawing (h×w display pixels).
type query struct {
	sample int
	px     []byte
	h, w   int
}

// LikeCursor lists the samples most like the cursor's sample.
func (f *Finder) LikeCursor() {
	i := f.c.State().View.Current()
	if i < 0 {
		f.c.Say("More like this: put the cursor on a sample first")
		return
	}
	f.ask(query{sample: i})
}

// LikeDrawing lists the samples most like a drawing: px are h×w display pixels (upright, as
// the draw window's preview shows them), the dataset's size.
func (f *Finder) LikeDrawing(px []byte, h, w int) {
	if dh, dw := f.c.State().DS.Size(); dh != h || dw != w {
		f.c.Say(fmt.Sprintf("More like this: the drawing is %d×%d and the samples %d×%d", h, w, dh, dw))
		return
	}
	f.ask(query{sample: Drawing, px: append([]byte(nil), px...), h: h, w: w})
}

// Drop forgets the index (the dataset was replaced) and the list, and cancels a build.
func (f *Finder) Drop() {
	if f.job != nil {
		f.job.Cancel()
	}
	f.ix = nil
	f.Mode.List = nil
}

// ask answers q: at once on the index kept when it still serves, else after building one.
func (f *Finder) ask(q query) {
	switch {
	case f.skip: // made again after its index was cancelled or failed
		return
	case f.job != nil:
		f.c.Say("More like this: the index is still being built")
		return
	case f.c.Held("find more like this"): // a save runs: asked again when it ends
		return
	case f.usable(q):
		f.answer(q, f.ix)
		return
	}
	f.build(q)
}

// usable reports whether the index kept serves q: the same dataset, not renumbered, no sample
// added since, the queried sample in it, and no current CNN scan made since it was built (a
// scan it could not use, of other samples, is not tried again).
func (f *Finder) usable(q query) bool {
	b, s := f.ix, f.c.State()
	switch {
	case b == nil || b.ds != s.DS || b.resets != f.c.Resets() || b.n != s.DS.Len():
		return false
	case q.sample >= 0 && (q.sample >= len(b.pos) || b.pos[q.sample] < 0):
		return false
	case f.scans.Last() != b.seen && f.scanOf(s.DS, nil) != nil:
		return false // a scan came since: its features are better, or newer
	}
	return true
}

// scanOf returns the window's last scan when it is current and saw exactly the live samples
// now (snap, when not nil), with its features; nil otherwise.
func (f *Finder) scanOf(ds *store.Dataset, snap *sample.Set) *scan.Analysis {
	a := f.scans.Last()
	if !a.Current(f.c) || a.Res == nil || len(a.Res.Features) != a.Snap.N*cnn.Features {
		return nil
	}
	if snap != nil {
		if a.Snap.N != snap.N {
			return nil
		}
		for k := range snap.N {
			if a.Snap.Number(k) != snap.Number(k) {
				return nil
			}
		}
	}
	return a
}

// build builds the index of the live samples off the UI thread (a progress dialog with Cancel;
// edits wait, and the keys typed meanwhile are applied to the list), then answers q.
func (f *Finder) build(q query) {
	c, j := f.c, f.jobs
	ds := c.State().DS
	snap := ds.Snapshot()
	if snap.N == 0 {
		c.Say("More like this: no samples to search")
		return
	}
	b := &built{ds: ds, resets: c.Resets(), n: ds.Len(), snap: snap, pos: make([]int, ds.Len()), seen: f.scans.Last()}
	for i := range b.pos {
		b.pos[i] = -1
	}
	for k := range snap.N {
		b.pos[snap.Number(k)] = k
	}
	if q.sample >= 0 && b.pos[q.sample] < 0 {
		c.Say("More like this: the sample is deleted")
		return
	}
	opts := similar.Options{}
	if a := f.scanOf(ds, &snap); a != nil {
		opts.Features, opts.Dim = a.Res.Features, cnn.Features
		b.from = "the window's CNN scan"
		if a.Cached {
			b.from = "the CNN scan kept beside the images"
		}
		if a.Res.Model != nil {
			h, w := snap.H, snap.W
			opts.Embed = similar.EmbedWith(a.Res.Model, h, w)
		}
	}
	images, _ := ds.Paths()
	job := j.Start(jobs.Scanning, "")
	f.job = job
	// The ask waits for the index as an edit waits for a job (the input that asked is queued
	// and made again once the job ends, answered then from the index), and every input after it
	// waits behind it: Ctrl+A and a digit typed meanwhile select and relabel the list.
	queued := c.Held("find more like this")
	stage := widget.NewLabel("Reading the samples…")
	bar := widget.NewProgressBar()
	f.dlg = f.d.ShowPassing("progress", numfmt.Sprintf("Indexing %d samples for more like this", snap.N), container.NewVBox(stage, bar), job.Cancel)
	start := time.Now()
	j.Run(func() {
		if opts.Features == nil {
			b.from = kept(images, snap, &opts)
		}
		space := similar.Pixels
		if opts.Features != nil {
			space = similar.CNN
		}
		var last time.Time
		opts.Progress = func(p float64) {
			if time.Since(last) < 100*time.Millisecond && p < 1 {
				return
			}
			last = time.Now()
			j.Schedule(func() { stage.SetText(fmt.Sprintf("Indexing by %s", space)); bar.SetValue(p) })
		}
		ix, err := similar.Build(job.Ctx, snap, opts)
		testhook.WaitGate(job.Ctx, testhook.SimilarGate) // a test's hook; nothing otherwise
		j.Schedule(func() { f.built(q, b, ix, err, time.Since(start), queued) })
	})
}

// built ends the build of b (ix, or err) on the UI thread, which took took: the index is kept,
// and the ask that waited for it (queued) is made again with the inputs after it, when the job
// ends, and answered from it; an ask that did not wait is answered at once. A cancelled or failed
// build answers nothing, and the ask made again does nothing.
func (f *Finder) built(q query, b *built, ix *similar.Index, err error, took time.Duration, queued bool) {
	c, job := f.c, f.job
	if err == nil && job.Ctx.Err() != nil { // cancelled once built: the person's Cancel wins
		err = job.Ctx.Err()
	}
	f.job = nil
	f.dlg.Hide()                                     // cancels the job, which ends here anyway
	stale := ds(c) != b.ds || b.resets != c.Resets() // another dataset, or renumbered by a save
	if err == nil && !stale {
		b.ix, b.space, b.took = ix, ix.Space(), took
		f.ix = b
	} else {
		f.skip = true
	}
	if !queued {
		f.answering = &q
	}
	f.said = ""
	f.jobs.Finish(job) // the inputs that waited are made: the ask first
	f.skip = false
	if f.said != "" {
		// The ask made again answered: what it said, not the replay's count of inputs made
		// meanwhile (the ask one of them), stays on the status bar.
		c.Say(f.said)
	}
	switch {
	case errors.Is(err, context.Canceled):
		c.Say("More like this: cancelled")
	case err != nil:
		f.d.ShowError(fmt.Errorf("more like this: %w", err))
	case f.answering != nil && !stale:
		f.answer(*f.answering, b)
	}
	f.answering = nil
}

// ds is the window's dataset now.
func ds(c mode.Controller) *store.Dataset { return c.State().DS }

// kept puts the features of the scan kept beside images into opts when one was made of exactly
// snap's pixels (scancache.LoadFor, whatever its settings), and says where the vectors come
// from. O(N·H·W) to digest the pixels. Run off the UI thread.
func kept(images string, snap sample.Set, opts *similar.Options) string {
	if images == "" {
		return "no CNN scan yet: Find Suspects or Check Dataset makes one"
	}
	e, err := scancache.LoadFor(images+scancache.Suffix, scancache.PixelsOf(snap), snap.N)
	switch {
	case err == nil:
		opts.Features, opts.Dim = e.Features, cnn.Features
		return "the CNN scan kept beside the images"
	case errors.Is(err, scancache.ErrMiss):
		return "no CNN scan yet: Find Suspects or Check Dataset makes one"
	}
	return "the kept CNN scan is unusable: " + err.Error()
}

// answer runs q on the index b (a few milliseconds), shows the list in the grid, the cursor on
// the most similar sample, and says on the status bar what was compared, how long the query
// took and, for the first answer of an index, how long building it took.
func (f *Finder) answer(q query, b *built) {
	c, start := f.c, time.Now()
	f.answering = nil
	var matches []similar.Match
	space := b.space
	var err error
	ctx := context.Background()
	if q.sample >= 0 {
		matches, err = b.ix.Like(ctx, b.pos[q.sample], f.K)
	} else {
		stored := sample.AppendStored(nil, q.px, q.h, q.w, b.snap.Transposed)
		matches, space, err = b.ix.LikePixels(ctx, stored, f.K)
	}
	if err != nil {
		f.d.ShowError(fmt.Errorf("more like this: %w", err))
		return
	}
	l := newList(q, b, matches, space, time.Since(start))
	f.Mode.List = l
	c.Enter(f.Mode)
	if q.sample >= 0 && c.State().View.Len() > 1 {
		c.MoveCursor(1) // the most similar; the query stays first, for comparison
	}
	what := "the drawing"
	if q.sample >= 0 {
		what = "#" + fmt.Sprint(q.sample)
	}
	text := fmt.Sprintf("More like %s: %s by %s (%s), most similar first; the query took %s",
		what, numfmt.Plural(len(matches), "sample"), space, l.From, l.Took.Round(time.Microsecond*100))
	if b.took > 0 {
		text += fmt.Sprintf(", the index of %s built in %s", numfmt.Plural(b.snap.N, "sample"), b.took.Round(100*time.Millisecond))
		b.took = 0
	}
	f.said = text
	c.Say(text)
}
