package ui

import (
	"context"
	"fmt"
	"image"
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

// findSuspects scans the dataset off the UI thread (all cores, progress, Cancel), then shows the
// suspects for review.
func (w *mainWindow) findSuspects() {
	if w.ds == nil || w.busy.Load() {
		return
	}
	if !w.ds.HasLabels() {
		w.inform("Suspects", "This dataset has no labels to check.")
		w.leaveReview(suspectsText)
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
				w.leaveReview(suspectsText)
				return
			}
			if err != nil {
				w.showError(err)
				w.leaveReview(suspectsText)
				return
			}
			if ds != w.ds {
				return // another dataset was opened meanwhile
			}
			w.sus = newSuspects(res.Suspects, res, snap, time.Since(start))
			w.sus.method = "kNN"
			w.showReview(suspectsText)
			w.startCNNScan(ds, snap, res)
		})
	})
}

// newSuspects makes the review of a scan's ranked suspects (snapshot positions), in sample
// indices, with the neighbours of the kNN pass knn.
func newSuspects(list []suspect.Suspect, knn *suspect.Result, snap store.Snapshot, took time.Duration) *review {
	s := &review{kind: reviewSuspects, of: map[int]suspect.Suspect{}, neighbours: map[int][]int{}, took: took}
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

// show shows what the review knows of sample i: the suggestion and how sure the model is, and
// for a suspect up to 8 of its nearest samples with their labels (no review: hidden).
func (n *neighbourStrip) show(w *mainWindow, i int) {
	n.root.Objects = nil
	r := w.review()
	if r == nil || i < 0 {
		n.root.Refresh()
		return
	}
	s, ok := r.of[i]
	switch {
	case !ok:
		n.title.SetText(w.noSuggestion() + ".")
	case r.kind == reviewSuggested:
		n.title.SetText(fmt.Sprintf("Suggested %s, %d%% confident (%s).", w.className(s.Suggested), int(100*s.Confidence), r.method))
	case strings.HasPrefix(r.method, "CNN"):
		n.title.SetText(fmt.Sprintf("Suggested %s (%.0f%% confident; the label %.0f%%). Nearest:", w.className(s.Suggested), 100*s.Confidence, 100*(1-s.Score)))
	default:
		n.title.SetText(fmt.Sprintf("Suggested %s (%.0f%% of neighbours disagree). Nearest:", w.className(s.Suggested), 100*s.Score))
	}
	n.root.Objects = []fyne.CanvasObject{n.title}
	if nb := r.neighbours[i]; len(nb) > 0 {
		n.root.Add(n.neighbourGrid(w, nb[:min(8, len(nb))]))
	}
	n.root.Refresh()
}

// neighbourGrid shows samples nb with their labels and numbers, four to a row.
func (n *neighbourStrip) neighbourGrid(w *mainWindow, nb []int) fyne.CanvasObject {
	grid := container.NewGridWithColumns(4)
	h, wd := w.ds.Size()
	for _, j := range nb {
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
	return grid
}
