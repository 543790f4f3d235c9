package ui

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"idxlabel/store"
	"idxlabel/suspect"
)

// suspectScore is the smallest score a sample needs to enter the review: most of its neighbours
// (distance-weighted) disagree with its label.
const suspectScore = 0.5

// suspects is the outcome of a scan, in sample indices.
type suspects struct {
	order      []int                   // samples to review, most suspicious first
	of         map[int]suspect.Suspect // verdict by sample index (Index is the sample index)
	neighbours map[int][]int           // nearest samples by sample index
	took       time.Duration
	method     string // what ranked them: the kNN, or the CNN
}

// badgeSuspect is the colour of a suspect's badge ("7→1?"): not yet decided.
var badgeSuspect = color.NRGBA{200, 150, 255, 255}

// findSuspects scans the dataset off the UI thread (all cores, progress, Cancel), then shows the
// suspects for review.
func (w *mainWindow) findSuspects() {
	if w.ds == nil || w.busy.Load() {
		return
	}
	if !w.ds.HasLabels() {
		dialog.ShowInformation("Suspects", "This dataset has no labels to check.", w.win)
		return
	}
	ds := w.ds
	snap := ds.Snapshot()
	ctx, cancel := context.WithCancel(w.life)
	stage := widget.NewLabel("Starting…")
	bar := widget.NewProgressBar()
	prog := dialog.NewCustom(fmt.Sprintf("Finding suspects among %d samples", len(snap.Indices)), "Cancel", container.NewVBox(stage, bar), w.win)
	prog.SetOnClosed(cancel)
	prog.Show()
	w.busy.Store(true)
	start := time.Now()
	w.bg.Go(func() {
		var last time.Time
		res, err := suspect.Scan(ctx, suspect.Data{N: len(snap.Indices), Dim: snap.Dim, Pixels: snap.Pixels, Labels: snap.Labels}, suspect.Options{},
			func(s string, f float64) {
				if time.Since(last) < 50*time.Millisecond && f < 1 {
					return
				}
				last = time.Now()
				text := s
				if s == "neighbours" && f > 0.02 {
					left := time.Duration(float64(time.Since(start)) * (1 - f) / f)
					text = fmt.Sprintf("neighbours — about %s left", left.Round(time.Second))
				}
				fyne.Do(func() { stage.SetText(text); bar.SetValue(f) })
			})
		fyne.Do(func() {
			defer w.busy.Store(false) // last: tests wait on it
			prog.SetOnClosed(func() {})
			prog.Hide()
			cancel()
			if err == context.Canceled {
				return
			}
			if err != nil {
				dialog.ShowError(err, w.win)
				return
			}
			if ds != w.ds {
				return // another dataset was opened meanwhile
			}
			w.sus = newSuspects(res.Suspects, res, snap, time.Since(start))
			w.sus.method = "kNN"
			w.showSuspects()
			w.startCNNScan(ds, snap, res)
		})
	})
}

// newSuspects maps a scan's ranked suspects (snapshot positions) to sample indices, with the
// neighbours of the kNN pass knn.
func newSuspects(list []suspect.Suspect, knn *suspect.Result, snap store.Snapshot, took time.Duration) *suspects {
	s := &suspects{of: map[int]suspect.Suspect{}, neighbours: map[int][]int{}, took: took}
	res := knn
	for _, x := range list {
		k := x.Index
		x.Index = snap.Indices[k]
		s.of[x.Index] = x
		if x.Score >= suspectScore {
			s.order = append(s.order, x.Index)
			var nb []int
			for _, j := range res.Neighbours(k) {
				nb = append(nb, snap.Indices[j])
			}
			s.neighbours[x.Index] = nb
		}
	}
	return s
}

// renumbered returns the review as it stands after a save that renumbered the samples (to maps
// each old number to the new one, -1 for a deleted sample, now gone): the same order and
// verdicts, without the deleted samples.
func (s *suspects) renumbered(to []int) *suspects {
	at := func(i int) (int, bool) {
		if i < 0 || i >= len(to) || to[i] < 0 {
			return 0, false
		}
		return to[i], true
	}
	out := &suspects{of: map[int]suspect.Suspect{}, neighbours: map[int][]int{}, took: s.took}
	for _, i := range s.order {
		if k, ok := at(i); ok {
			out.order = append(out.order, k)
		}
	}
	for i, x := range s.of {
		if k, ok := at(i); ok {
			x.Index = k
			out.of[k] = x
		}
	}
	for i, nb := range s.neighbours {
		if k, ok := at(i); ok {
			var m []int
			for _, j := range nb {
				if jk, ok := at(j); ok {
					m = append(m, jk)
				}
			}
			out.neighbours[k] = m
		}
	}
	return out
}

// showSuspects switches the grid to the review of suspects.
func (w *mainWindow) showSuspects() {
	w.side.quiet = true
	w.side.class = nil
	w.side.list.Select(0)
	w.side.show.SetSelected(suspectsText)
	w.side.quiet = false
	w.applyFilter(w.side.filter())
	w.win.Canvas().Focus(w.grid)
}

// reviewing reports whether the grid shows the suspects.
func (w *mainWindow) reviewing() bool { return w.side.show.Selected == suspectsText && w.sus != nil }

// suspectOrder returns the suspects to show under a class filter.
func (w *mainWindow) suspectOrder(f store.Filter) []int {
	var out []int
	for _, i := range w.sus.order {
		if st, _, ok := w.ds.SampleAt(w.v.gen, i); ok && (f.Class == nil || st.Label == *f.Class) {
			out = append(out, i)
		}
	}
	return out
}

// decide records the review decision for the cursor's sample and moves to the next.
func (w *mainWindow) decide(label int) {
	i := w.v.current()
	if i < 0 || w.refuseWhileBusy() {
		return
	}
	err := w.ds.DecideAs(w.decisionHow(i, label), i, label)
	w.edited()
	if err != nil {
		dialog.ShowError(err, w.win)
		return
	}
	if w.v.cursor+1 < w.v.Len() {
		w.grid.moveCursor(w.v.cursor + 1)
	}
}

// reviewKey handles the review keys before the grid: Enter or Space accepts the suggestion,
// Right keeps the label; both move on.
func (w *mainWindow) reviewKey(k *fyne.KeyEvent) bool {
	if !w.reviewing() {
		return false
	}
	i := w.v.current()
	if i < 0 {
		return false
	}
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		w.decide(w.sus.of[i].Suggested)
	case fyne.KeyRight:
		if st, _, ok := w.ds.SampleAt(w.v.gen, i); ok {
			w.decide(st.Label)
		}
	default:
		return false
	}
	return true
}

// reviewProgress counts the shown suspects decided so far.
func (w *mainWindow) reviewProgress() (done, total int) {
	for _, i := range w.v.order {
		if st, _, ok := w.ds.SampleAt(w.v.gen, i); ok && st.Reviewed {
			done++
		}
	}
	return done, w.v.Len()
}

// suspectBadge is the badge of a suspect: "7→1?" until decided, then the label with a tick.
func (w *mainWindow) suspectBadge(i int, b badge) badge {
	s, ok := w.sus.of[i]
	if !ok || s.Score < suspectScore {
		return b
	}
	st, _, ok := w.ds.SampleAt(w.v.gen, i)
	if !ok {
		return b
	}
	if st.Reviewed {
		b.text += " ✓"
		return b
	}
	if s.Suggested != st.Label {
		return badge{text: w.shortClass(st.Label) + "→" + w.shortClass(s.Suggested) + "?", color: badgeSuspect}
	}
	return b
}

// neighbourStrip shows a suspect's nearest samples with their labels, under the detail view.
type neighbourStrip struct {
	root  *fyne.Container
	title *widget.Label
}

func newNeighbourStrip() *neighbourStrip {
	n := &neighbourStrip{title: widget.NewLabel("")}
	n.title.Wrapping = fyne.TextWrapWord // wraps within the detail panel instead of widening it
	n.root = container.NewVBox()
	return n
}

// show lists up to 8 neighbours of sample i (none: hidden).
func (n *neighbourStrip) show(w *mainWindow, i int) {
	n.root.Objects = nil
	if !w.reviewing() || i < 0 {
		n.root.Refresh()
		return
	}
	s := w.sus.of[i]
	if strings.HasPrefix(w.sus.method, "CNN") {
		n.title.SetText(fmt.Sprintf("Suggested %s (%.0f%% confident; the label %.0f%%). Nearest:", w.className(s.Suggested), 100*s.Confidence, 100*(1-s.Score)))
	} else {
		n.title.SetText(fmt.Sprintf("Suggested %s (%.0f%% of neighbours disagree). Nearest:", w.className(s.Suggested), 100*s.Score))
	}
	grid := container.NewGridWithColumns(4)
	h, wd := w.ds.Size()
	for _, j := range w.sus.neighbours[i][:min(8, len(w.sus.neighbours[i]))] {
		st, px, ok := w.ds.SampleAt(w.v.gen, j)
		if !ok {
			continue // the dataset changed since; the view catches up and shows them again
		}
		img := canvas.NewImageFromImage(&image.Gray{Pix: store.DisplayOrder(px, h, wd, w.ds.Transposed(), nil), Stride: wd, Rect: image.Rect(0, 0, wd, h)})
		img.ScaleMode = canvas.ImageScalePixels
		img.SetMinSize(fyne.NewSquareSize(52)) // four fit detailSide
		// Small text without a label's padding: four neighbours fit the detail panel's width,
		// so the review does not narrow the grid (and change its column count).
		label := canvas.NewText(w.shortClass(st.Label)+"  #"+strconv.Itoa(j), theme.Color(theme.ColorNameForeground))
		label.TextSize = theme.CaptionTextSize()
		label.Alignment = fyne.TextAlignCenter
		grid.Add(container.NewVBox(img, label))
	}
	n.root.Objects = []fyne.CanvasObject{n.title, grid}
	n.root.Refresh()
}
