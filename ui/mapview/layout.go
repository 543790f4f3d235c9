package mapview

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"slices"
	"time"

	"idxlabel/internal/numfmt"
	"idxlabel/plot"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/embed"
	"idxlabel/suspect/nn"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
	"idxlabel/ui/scan"
)

// Layout is the map of one scan: every sample it scanned as a point, at the place embed.Map
// gave the scan's features (points 0…rows−1 are the scan's rows), then the samples placed since
// (added, or restored after the scan) by their nearest scanned samples (embed.Place). It keeps
// what a frame shows of each point: its colour by given label and by suggested label, and its
// marks (suspect, edited). Built on the UI thread and changed only there; the slices a
// background placement reads (laid) never change.
type Layout struct {
	Laid    []float32    // the scan's rows as laid out, rows×2; never changed
	XY      []float32    // point → x, y as drawn (NaN: a point whose sample a save left out); replaced, never changed in place
	PM      *plot.Map    // the index of xy
	Sample  []int        // point → the sample it is now, -1 when gone
	Point   []int32      // sample → its point, -1 when it has none
	suggest []int        // point → the class the model suggests (out of fold for the scan's rows)
	Classes []int        // the classes in palette order
	palette []color.RGBA // plot.Palette(len(classes))
	Given   []uint16     // point → palette index of its label now (plot.NoColour: none, or deleted)
	ByModel []uint16     // point → palette index of its suggested class (plot.NoColour when deleted)
	Static  []plot.Marks // point → its marks beyond the cursor and the selection
	listed  []bool       // point is in marked (its static marks may have cleared since)
	marked  []int32      // the points that have had static marks
	version int          // grows with every change of the points, colours or marks: frames redraw
}

// newLayout makes the map of d from the scan's rows laid out at xy (rows×2).
func newLayout(d *scan.Data, xy []float32) (*Layout, error) {
	rows := len(d.Sample)
	l := &Layout{Laid: xy, Sample: slices.Clone(d.Sample), suggest: make([]int, rows)}
	l.Classes = slices.Clone(d.A.Res.Classes)
	for _, c := range d.DS.Classes() {
		if k, found := slices.BinarySearch(l.Classes, c); !found {
			l.Classes = slices.Insert(l.Classes, k, c)
		}
	}
	l.palette = plot.Palette(len(l.Classes))
	for r := range rows {
		l.suggest[r], _ = d.Matrix.Predicted(r)
	}
	l.Point = make([]int32, len(d.Row))
	copy(l.Point, d.Row)
	l.Given = make([]uint16, rows)
	l.ByModel = make([]uint16, rows)
	l.Static = make([]plot.Marks, rows)
	l.listed = make([]bool, rows)
	for p := range rows {
		l.restyle(d, p)
	}
	return l, l.index()
}

// index rebuilds the map's index from the laid-out rows and the placed points, leaving out the
// points whose sample is gone. O(N).
func (l *Layout) index() error {
	xy := make([]float32, 2*len(l.Sample))
	copy(xy, l.Laid)
	copy(xy[len(l.Laid):], l.XY[min(len(l.XY), len(l.Laid)):])
	nan := float32(math.NaN())
	for p, i := range l.Sample {
		if i < 0 {
			xy[2*p], xy[2*p+1] = nan, nan
		}
	}
	pm, err := plot.NewMap(xy)
	if err != nil {
		return err
	}
	l.XY, l.PM = xy, pm
	l.version++
	return nil
}

// colourOf returns the palette index of class c, or plot.NoColour.
func (l *Layout) colourOf(c int) uint16 {
	if k, found := slices.BinarySearch(l.Classes, c); found && c != sample.NoLabel {
		return uint16(k)
	}
	return plot.NoColour
}

// restyle sets point p's colours and marks from its sample's state now.
func (l *Layout) restyle(d *scan.Data, p int) {
	i := l.Sample[p]
	st, ok := d.DS.StateAt(i)
	var mk plot.Marks
	switch {
	case i < 0 || !ok:
		l.Given[p], l.ByModel[p] = plot.NoColour, plot.NoColour
	case st.Deleted:
		l.Given[p], l.ByModel[p] = plot.NoColour, plot.NoColour
	default:
		l.Given[p], l.ByModel[p] = l.colourOf(st.Label), l.colourOf(l.suggest[p])
		if st.Label != sample.NoLabel && st.Label != l.suggest[p] {
			mk |= plot.Suspect
		}
		if st.Edited || st.Added {
			mk |= plot.Edited
		}
	}
	l.Static[p] = mk
	if mk != 0 && !l.listed[p] {
		l.listed[p] = true
		l.marked = append(l.marked, int32(p))
	}
}

// Mapper makes and keeps the map of the adopted scan: it lays the scan's features out in the
// background (embed.Map, a jobs.Mapping job: progress, Cancel), places samples added or restored
// since on it (their features from the scan's model, embed.Place among the scan's rows), and
// keeps the points' colours and marks in step with the edits. Growth: the layout as embed.Map
// (near-linear; about 4 s for 70,000 samples); placing k samples O(k·N·D) search and k forward
// passes; an edit of k samples O(k), then one frame.
type Mapper struct {
	c     mode.Controller
	jobs  *jobs.Jobs
	d     *dialogs.Dialogs
	views *scan.Views
	// laid is the scan the layout Lay is of.
	laid *scan.Data
	Lay  *Layout   // the layout of laid (nil: not laid out yet)
	job  *jobs.Job // the layout or a placement running, nil when none
	// laying: job lays the map out (not a placement); progress is its share done, 0–1.
	laying   bool
	progress float64
	// stopped says why the last layout ended without a map ("" while none did).
	stopped string
	pending []int // samples to place once the job running ends
	// dump, when set (a test hook, testhooks.go), is where a finished layout is written as CSV
	// (index,x,y by sample).
	dump string
}

// layOut starts laying d's features out unless the map exists or is being made.
func (m *Mapper) layOut(d *scan.Data) {
	if m.layOf(d) != nil || m.job != nil && m.laying {
		return
	}
	m.stopJob()
	c := m.c
	res := d.A.Res
	n := len(d.Sample)
	job := m.jobs.Start(jobs.Mapping, fmt.Sprintf("Map: laying out %s", numfmt.Plural(n, "sample")))
	m.job, m.laying, m.progress, m.stopped = job, true, 0, ""
	start := time.Now()
	m.jobs.Run(func() {
		var last time.Time
		xy, err := embed.Map(job.Ctx, nn.Vectors{Data: res.Features, N: n, Dim: cnn.Features}, embed.MapOptions{Options: embed.Options{
			Progress: func(f float64) {
				if time.Since(last) < 100*time.Millisecond {
					return
				}
				last = time.Now()
				m.jobs.Schedule(func() {
					if m.job == job {
						m.progress = f
						m.jobs.SetNote(job, fmt.Sprintf("Map: laying out %s, %.0f%%", numfmt.Plural(n, "sample"), 100*f))
						c.Render()
					}
				})
			}}})
		m.jobs.Schedule(func() {
			if m.job != job {
				return // stopped, or another scan adopted
			}
			m.job, m.laying = nil, false
			m.jobs.Finish(job)
			switch {
			case err == context.Canceled:
				m.stopped = "Cancelled."
			case err != nil:
				m.stopped = "The layout failed: " + err.Error()
			case m.views.Adopted() != d:
				return
			default:
				l, err := newLayout(d, xy)
				if err != nil {
					m.stopped = "The layout failed: " + err.Error()
					break
				}
				m.laid, m.Lay = d, l
				m.writeDump(d)
				c.Note(fmt.Sprintf("Map of %s laid out in %s", numfmt.Plural(n, "sample"), time.Since(start).Round(100*time.Millisecond)))
				m.queueUnplaced(d)
				m.place(d)
			}
			c.Render()
		})
	})
}

// follow keeps d's map in step with one change of the dataset (scanViews.follow).
func (m *Mapper) follow(d *scan.Data, ch store.Change) {
	l := m.layOf(d)
	if l == nil {
		return // the layout running places what has no point when it is done (queueUnplaced)
	}
	switch ch.Kind {
	case store.Relabelled, store.DeletedChanged:
		for _, i := range ch.Indices {
			if i >= 0 && i < len(l.Point) && l.Point[i] >= 0 {
				l.restyle(d, int(l.Point[i]))
			} else if st, ok := d.DS.StateAt(i); ok && ch.Kind == store.DeletedChanged && !st.Deleted {
				m.pending = append(m.pending, i) // restored, not on the map: placed
			}
		}
		l.version++
		m.place(d)
	case store.Appended:
		for len(l.Point) < d.DS.Len() {
			l.Point = append(l.Point, -1)
		}
		m.pending = append(m.pending, ch.Indices...)
		m.place(d)
	case store.Truncated, store.Reset:
		m.renumber(d, ch)
	}
}

// renumber follows samples removed from the end (an append undone) or renumbered by a save: the
// points of samples gone are left out of the map, and a placement running starts again with the
// samples as numbered now. O(N).
func (m *Mapper) renumber(d *scan.Data, ch store.Change) {
	l := m.Lay
	n := d.DS.Len()
	point := make([]int32, n)
	for i := range point {
		point[i] = -1
	}
	for p, i := range l.Sample {
		k := i
		if ch.Kind == store.Reset {
			k = -1
			if i >= 0 && i < len(ch.Renumber) {
				k = ch.Renumber[i]
			}
		}
		if k < 0 || k >= n {
			l.Sample[p] = -1
			continue
		}
		l.Sample[p] = k
		point[k] = int32(p)
	}
	l.Point = point
	// Samples waiting for a place, or being placed, were numbered before: placed again.
	if m.job != nil && !m.laying {
		m.stopJob()
	}
	m.pending = nil
	for p := range l.Sample {
		l.restyle(d, p)
	}
	if err := l.index(); err != nil {
		m.d.ShowError(err)
	}
	m.queueUnplaced(d)
	m.place(d)
}

// queueUnplaced queues every sample not deleted that has no point (added or restored while the
// layout ran).
func (m *Mapper) queueUnplaced(d *scan.Data) {
	for i, p := range m.Lay.Point {
		if st, ok := d.DS.StateAt(i); p < 0 && ok && !st.Deleted {
			m.pending = append(m.pending, i)
		}
	}
}

// place places the samples waiting for a place (not deleted, without a point) in the
// background, unless a job runs (it is called again when that ends): their features from the
// scan's model, their nearest scanned samples by those features, the mean of those samples'
// places weighted as embed.Place weighs them. A scan read from the scan cache has no model: the
// status bar says the samples are not placed, and why.
func (m *Mapper) place(d *scan.Data) {
	l := m.layOf(d)
	if l == nil || m.job != nil || len(m.pending) == 0 {
		return
	}
	var idx []int
	var pixels [][]byte
	for _, i := range m.pending {
		st, ok := d.DS.StateAt(i)
		if !ok || st.Deleted || l.Point[i] >= 0 || slices.Contains(idx, i) {
			continue
		}
		px, ok := d.DS.PixelsAt(i)
		if !ok {
			continue
		}
		idx, pixels = append(idx, i), append(pixels, slices.Clone(px))
	}
	m.pending = nil
	if len(idx) == 0 {
		return
	}
	c := m.c
	if d.A.Res.Model == nil { // read from the scan cache: no networks to place new samples
		c.Say(fmt.Sprintf("%s added or restored since the scan not on the map: the scan was read from the disk cache, without the networks that place new samples (the next scan places them; it runs when the dataset is next opened)",
			numfmt.Plural(len(idx), "sample")))
		return
	}
	job := m.jobs.Start(jobs.Mapping, fmt.Sprintf("Map: placing %s", numfmt.Plural(len(idx), "sample")))
	m.job, m.laying = job, false
	res, laid, rows := d.A.Res, l.Laid, len(l.Laid)/2
	// As stored, as the scan saw its samples (a transposed set's height and width are swapped).
	data := sample.Set{N: len(idx), H: d.A.Snap.H, W: d.A.Snap.W, Transposed: d.A.Snap.Transposed, Pixels: func(k int) []byte { return pixels[k] }}
	m.jobs.Run(func() {
		at, suggested, err := placeSamples(job.Ctx, res, rows, laid, data)
		m.jobs.Schedule(func() {
			if m.job != job {
				return
			}
			m.job = nil
			m.jobs.Finish(job)
			if err != nil {
				if err != context.Canceled {
					m.d.ShowError(fmt.Errorf("placing samples on the map: %w", err))
				}
				return
			}
			if m.views.Adopted() != d || m.Lay != l {
				return
			}
			l.add(d, idx, at, suggested)
			if err := l.index(); err != nil {
				m.d.ShowError(err)
			}
			m.place(d) // what was added meanwhile
			c.Render()
		})
	})
}

// placeSamples returns the places (len×2) of the samples of data among the scan's rows laid out
// at laid, and the class the scan's model suggests for each.
func placeSamples(ctx context.Context, res *suspect.CNNResult, rows int, laid []float32, data sample.Set) ([]float32, []int, error) {
	all := make([]int, data.N)
	for k := range all {
		all[k] = k
	}
	feats, err := res.Model.Features(ctx, data, all)
	if err != nil {
		return nil, nil, err
	}
	list, err := res.Model.Suggest(ctx, data, all, nil)
	if err != nil {
		return nil, nil, err
	}
	suggested := make([]int, data.N)
	for _, s := range list {
		suggested[s.Index] = s.Suggested
	}
	g, err := nn.Across(ctx, nn.Vectors{Data: res.Features[:rows*cnn.Features], N: rows, Dim: cnn.Features},
		nn.Vectors{Data: feats, N: data.N, Dim: cnn.Features}, min(15, rows), nn.Options{})
	if err != nil {
		return nil, nil, err
	}
	at, err := embed.Place(ctx, laid, g, 0)
	return at, suggested, err
}

// add appends points for samples idx (still without one) at their places at, with the classes
// the model suggests for them.
func (l *Layout) add(d *scan.Data, idx []int, at []float32, suggested []int) {
	xy := slices.Clone(l.XY)
	for k, i := range idx {
		if i >= len(l.Point) || l.Point[i] >= 0 {
			continue
		}
		p := len(l.Sample)
		l.Point[i] = int32(p)
		l.Sample = append(l.Sample, i)
		l.suggest = append(l.suggest, suggested[k])
		l.Given, l.ByModel = append(l.Given, 0), append(l.ByModel, 0)
		l.Static, l.listed = append(l.Static, 0), append(l.listed, false)
		xy = append(xy, at[2*k], at[2*k+1])
		l.restyle(d, p)
	}
	l.XY = xy
}

// stop cancels the job running and forgets the layout (the scan is dropped).
func (m *Mapper) stop() {
	m.stopJob()
	m.pending, m.stopped = nil, ""
	m.laid, m.Lay = nil, nil
}

// Busy reports whether a layout or a placement runs.
func (m *Mapper) Busy() bool { return m.job != nil }

// layOf returns the layout of scan d, nil when d is not laid out (yet).
func (m *Mapper) layOf(d *scan.Data) *Layout {
	if d == nil || d != m.laid {
		return nil
	}
	return m.Lay
}

// stopJob cancels the layout or placement running, if any.
func (m *Mapper) stopJob() {
	if m.job != nil {
		m.jobs.Finish(m.job)
		m.job, m.laying = nil, false
	}
}

// cancelLayout is the map view's Cancel: the layout stops, and the view says so.
func (m *Mapper) cancelLayout() {
	if m.job != nil && m.laying {
		m.stopJob()
		m.stopped = "Cancelled."
		m.c.Render()
	}
}
