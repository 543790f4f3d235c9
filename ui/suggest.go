package ui

import (
	"context"
	"fmt"
	"strconv"

	"fyne.io/fyne/v2"

	"idxlabel/store"
	"idxlabel/suspect"
)

// The model that suggests labels (issue 12): the CNN scan's (the mean of its fold networks), or,
// before any scan, one network trained in the background on the labelled samples when the draw
// window opens. It stays in memory for the session of one dataset; nothing is written to disk.

// trainModel starts training a model for suggestions on ds's labelled samples, unless one exists
// or is training. It does nothing for a dataset with fewer than two classes labelled (there is
// nothing to learn); errors are shown on the draw window's status line.
func (w *mainWindow) trainModel() {
	if w.model != nil || w.training != nil || !w.ds.HasLabels() {
		return
	}
	snap := w.ds.Snapshot()
	data := suspect.Data{Dim: snap.Dim, Pixels: snap.Pixels}
	var keep []int
	classes := map[int]bool{}
	for k, l := range snap.Labels {
		if l != store.NoLabel {
			keep = append(keep, k)
			classes[l] = true
		}
	}
	if len(classes) < 2 {
		return
	}
	data.N, data.Labels = len(keep), make([]int, len(keep))
	data.Pixels = func(k int) []byte { return snap.Pixels(keep[k]) }
	for k, i := range keep {
		data.Labels[k] = snap.Labels[i]
	}
	ds := w.ds
	ctx, cancel := context.WithCancel(w.life)
	w.training = cancel
	w.setDrawStatus("Training the model that suggests labels…")
	w.bg.Go(func() {
		m, err := suspect.TrainModel(ctx, data, suspect.CNNOptions{}, func(p suspect.Progress) {
			text := fmt.Sprintf("Training the model that suggests labels: %.0f%%, %s left", 100*p.Done, p.Left.Round(1e9))
			fyne.Do(func() {
				if w.ds == ds && ctx.Err() == nil {
					w.setDrawStatus(text)
				}
			})
		})
		fyne.Do(func() {
			if w.ds != ds || ctx.Err() != nil {
				return // stopped (dropModel), or another dataset
			}
			w.training = nil
			cancel()
			switch {
			case err != nil:
				w.setDrawStatus("No label suggestions: " + err.Error())
			default:
				w.setModel(m)
			}
		})
	})
}

// setModel makes m the model that suggests labels, and suggests one for the drawing on the pad.
func (w *mainWindow) setModel(m *suspect.Model) {
	w.model = m
	if w.draw != nil {
		w.setDrawStatus("The model suggests labels: Enter accepts, a digit overrides.")
		w.draw.suggest()
	}
}

// dropModel forgets the model and stops a training (the dataset is being replaced).
func (w *mainWindow) dropModel() {
	if w.training != nil {
		w.training()
		w.training = nil
	}
	w.model = nil
}

func (w *mainWindow) setDrawStatus(text string) {
	if w.draw != nil {
		w.draw.status.SetText(text)
	}
}

// suggest fills the label box with the model's guess for the drawing, unless the person chose a
// label for it, and says how sure the model is.
func (d *drawWindow) suggest() {
	m := d.mw.model
	if m == nil || d.digit == nil || d.chosen {
		return
	}
	h, w := d.mw.ds.Size()
	// The model learnt the samples as stored; EMNIST stores them transposed.
	px := store.DisplayOrder(d.digit.Pix, w, h, d.mw.ds.Transposed(), nil)
	label, conf, err := m.Predict(px)
	if err != nil {
		d.status.SetText("No suggestion: " + err.Error())
		return
	}
	d.suggesting = true
	d.label.SetText(strconv.Itoa(label))
	d.suggesting = false
	d.status.SetText(fmt.Sprintf("Suggested %s, %.0f%% sure: Enter accepts, a digit overrides.", d.mw.className(label), 100*conf))
}
