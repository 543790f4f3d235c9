package ui

import (
	"context"
	"fmt"
	"time"

	"fyne.io/fyne/v2"

	"idxlabel/store"
	"idxlabel/suspect"
)

// cnnJob is a CNN training running in the background: the confident-learning scan (startCNNScan)
// or the model that suggests labels (suggest.go). Its progress shows on the status bar; Tools →
// Stop Training the CNN cancels it.
type cnnJob struct {
	cancel context.CancelFunc
	note   string  // its progress, for the status bar
	review *review // the Suggested review it suggests labels for; nil when it only trains
}

// cnnData is what the CNN reads of a snapshot's samples at positions keep (all of them when
// keep is nil): their pixels in stored order, their labels, and the dataset's sample size.
func cnnData(ds *store.Dataset, snap store.Snapshot, keep []int) suspect.Data {
	h, w := ds.Size()
	d := suspect.Data{N: len(snap.Indices), Dim: snap.Dim, H: h, W: w, Pixels: snap.Pixels, Labels: snap.Labels}
	if keep != nil {
		d.N, d.Labels = len(keep), make([]int, len(keep))
		d.Pixels = func(k int) []byte { return snap.Pixels(keep[k]) }
		for k, p := range keep {
			d.Labels[k] = snap.Labels[p]
		}
	}
	return d
}

// The confident-learning scan (suspect.ScanCNN, a cross-validated CNN) refines a review of
// suspects after the quick kNN pass: it trains in the background, 2–3 minutes for 10,000
// samples on 2 cores, while the person already reviews the kNN's list, and then replaces the
// review's order with its own ranking. Decisions already made stay (they live in the store).

// startCNNScan trains the CNN scan on snap (the snapshot the kNN pass scanned, whose result knn
// gives the neighbours shown in the detail panel) and, when it is done, makes its ranking the
// review's. It is dropped if the dataset is replaced or renumbered (saved) meanwhile.
func (w *mainWindow) startCNNScan(ds *store.Dataset, snap store.Snapshot, knn *suspect.Result) {
	w.stopCNNScan()
	ctx, cancel := context.WithCancel(w.life)
	scan := &cnnJob{cancel: cancel, note: "CNN scan starting"}
	w.cnn = scan
	resets := w.resets
	start := time.Now()
	data, opts := cnnData(ds, snap, nil), w.cnnOpts
	labelled := 0
	for _, l := range snap.Labels {
		if l != store.NoLabel {
			labelled++
		}
	}
	w.bg.Go(func() {
		var last time.Time
		res, err := suspect.ScanCNN(ctx, data, opts, func(p suspect.Progress) {
			if time.Since(last) < time.Second {
				return
			}
			last = time.Now()
			note := fmt.Sprintf("CNN scan: fold %d/%d, epoch %d/%d, %s left", p.Fold, p.Folds, p.Epoch, p.Epochs, p.Left.Round(time.Second))
			fyne.Do(func() {
				if w.cnn == scan {
					scan.note = note
					w.updateStatus()
				}
			})
		})
		fyne.Do(func() {
			if w.cnn != scan {
				return // stopped, or replaced by a newer scan
			}
			w.cnn = nil
			cancel()
			switch {
			case err == context.Canceled:
			case err != nil:
				w.showError(fmt.Errorf("the CNN scan failed; the kNN ranking stays: %w", err))
			case ds != w.ds:
			case w.resets != resets || w.sus == nil:
				// The samples were renumbered (saved) or the review closed: its positions no
				// longer name the samples it scanned. The model still knows the classes.
				w.setModel(res.Model, labelled)
			default:
				w.sus = newSuspects(res.Suspects, knn, snap, time.Since(start))
				w.setModel(res.Model, labelled) // the cross-validated model suggests labels from now on
				w.sus.method = fmt.Sprintf("CNN, out-of-fold error %.2f%%", 100*res.Error)
				if w.reviewing() {
					w.rebuildView(w.side.filter())
				}
				w.refresh()
				w.status.SetText(fmt.Sprintf("The CNN's ranking replaced the kNN's: %s to review (%s)", plural(len(w.sus.order), "suspect"), w.sus.method))
				return
			}
			w.updateStatus()
		})
	})
}

// stopBackground cancels the window's cancellable background work (scans, the suggestion
// model's training, an export), including any that such work would start next (their contexts
// derive from w.life), and waits for every background goroutine of the window to end; a load,
// save or import is waited for. It may be called from any goroutine but the UI thread of a
// running app, where the goroutines' last steps are queued.
func (w *mainWindow) stopBackground() {
	w.end()
	w.bg.Wait()
}

// stopCNNScan cancels a CNN scan that is running; the kNN ranking stays.
func (w *mainWindow) stopCNNScan() {
	if w.cnn != nil {
		w.cnn.cancel()
		w.cnn = nil
		w.updateStatus()
	}
}

// stopTraining cancels every CNN training that runs (Tools → Stop Training the CNN): the scan
// (the kNN ranking stays) and the model that suggests labels (the model trained before, if any,
// stays; samples waiting for a suggestion keep none until Tools → Suggest Labels).
func (w *mainWindow) stopTraining() {
	w.stopCNNScan()
	if w.training != nil {
		w.training.cancel()
		w.training = nil
		w.updateStatus()
		if w.sugg != nil && w.sugg.pending {
			w.status.SetText("Stopped: no suggestions (Tools → Suggest Labels starts again)")
		}
	}
}

// jobsStatus is the status bar's part on the jobs running: a save's and the trainings' progress.
func (w *mainWindow) jobsStatus() string {
	var text string
	if w.saving != "" {
		text += "   |   " + w.saving
		if w.afterSavingName != "" {
			text += ", then " + w.afterSavingName
		}
	}
	for _, j := range []*cnnJob{w.cnn, w.training} {
		if j != nil {
			text += "   |   " + j.note
		}
	}
	return text
}
