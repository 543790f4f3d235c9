package ui

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"idxlabel/store"
	"idxlabel/suspect"
)

// The model that suggests labels (issue 12): the CNN scan's (the mean of its fold networks), or
// one network trained in the background on the labelled samples, when the draw window opens or
// the Suggested review needs one. It stays in memory for the session of one dataset; nothing is
// written to disk. It suggests labels for drawings (the draw window's label box) and for the
// samples without a label (the Suggested review, review.go).

// trainModel starts training a model for suggestions on the labelled samples unless one exists
// or is training (the draw window, as it opens). It does nothing when the labelled samples have
// fewer than two classes (there is nothing to learn).
func (w *mainWindow) trainModel() { w.learn() }

// suggestLabels suggests a label for every sample without one (not deleted) and shows them in
// the Suggested review, most confident first (Show → Suggested when there are none yet; Tools
// → Suggest Labels). Until the model is ready the review lists them in sample order, and the
// person can label them already. The model is trained first when there is none, or when it
// learnt from markedly fewer labelled samples than exist now (see stale). When there is nothing
// to suggest, or nothing to learn from, it says so.
func (w *mainWindow) suggestLabels() {
	if w.ds == nil {
		return
	}
	snap := w.ds.Snapshot()
	labelled, unlabelled := splitLabelled(snap)
	if len(unlabelled) == 0 {
		w.inform("Suggested labels", "Every sample has a label: there is nothing to suggest.")
		w.leaveReview(suggestedText)
		return
	}
	if msg := nothingToLearn(snap, labelled); msg != "" && w.model == nil {
		w.inform("Suggested labels", msg)
		w.leaveReview(suggestedText)
		return
	}
	r := &review{kind: reviewSuggested, of: map[int]suspect.Suspect{}, pending: true, method: "the model is training"}
	for _, k := range unlabelled {
		r.order = append(r.order, snap.Indices[k])
	}
	if w.training != nil && w.training.review != nil {
		w.training.cancel() // it suggests for the samples as they were
		w.training = nil
	}
	w.sugg = r
	w.showReview(suggestedText)
	w.learn()
}

// nothingToLearn says why a model cannot be trained on the labelled samples (positions in snap),
// or returns "" when it can: a classifier needs labelled samples of at least two classes.
func nothingToLearn(snap store.Snapshot, labelled []int) string {
	classes := map[int]bool{}
	for _, k := range labelled {
		classes[snap.Labels[k]] = true
	}
	const how = " Label a few samples of each class by hand (select them and type the class), then choose Show → Suggested again."
	switch len(classes) {
	case 0:
		return "No label to learn from: the model that suggests labels learns from the labelled samples, and no sample has a label yet." + how
	case 1:
		return fmt.Sprintf("Only one class to learn from: every labelled sample (%s) is of class %d, and the model that suggests labels needs two classes or more.", plural(len(labelled), "sample"), snap.Labels[labelled[0]]) + how
	}
	return ""
}

// splitLabelled returns the positions in snap of the labelled samples and of those without a
// label.
func splitLabelled(snap store.Snapshot) (labelled, unlabelled []int) {
	for k, l := range snap.Labels {
		if l == store.NoLabel {
			unlabelled = append(unlabelled, k)
		} else {
			labelled = append(labelled, k)
		}
	}
	return labelled, unlabelled
}

// stale reports whether a model that learnt from `from` labelled samples is retrained before it
// suggests labels when `now` are labelled: when more than a tenth more are labelled now (the
// person labelled many since; training on 9,000 samples took 50 s on 2 cores).
func stale(from, now int) bool { return now > from+from/10 }

// learn starts, in the background, what the model is wanted for and is not done yet, unless a
// job runs already (whatever is still wanted starts when it ends): training a model on the
// labelled samples when there is none, or when the Suggested review waits and the model is
// stale; then suggesting labels for the samples the waiting review lists. Progress shows on the
// status bar (and the draw window's); Tools → Stop Training the CNN cancels it.
func (w *mainWindow) learn() {
	if w.ds == nil || w.training != nil {
		return
	}
	suggest := w.sugg != nil && w.sugg.pending
	snap := w.ds.Snapshot()
	labelled, unlabelled := splitLabelled(snap)
	train := w.model == nil || suggest && stale(w.modelFrom, len(labelled))
	if train && nothingToLearn(snap, labelled) != "" {
		if w.model == nil {
			return // suggestLabels said why
		}
		train = false // the labels changed since: the model in memory still suggests
	}
	if !train && !suggest {
		return
	}
	ds, resets, model, opts := w.ds, w.resets, w.model, w.cnnOpts
	ctx, cancel := context.WithCancel(w.life)
	job := &cnnJob{cancel: cancel, note: "Suggestion model: training on " + plural(len(labelled), "labelled sample")}
	if !train {
		job.note = "Suggesting labels"
	}
	if suggest {
		job.review = w.sugg
	}
	w.training = job
	w.updateStatus()
	w.setDrawStatus(job.note + "…")
	schedule := w.schedule // fyne.Do; tests run it on their own goroutine
	note := func(text string) {
		schedule(func() {
			if w.training == job {
				job.note = text
				w.setDrawStatus(text)
				w.updateStatus()
			}
		})
	}
	start := time.Now()
	w.bg.Go(func() {
		var err error
		var last time.Time
		if train {
			model, err = suspect.TrainModel(ctx, cnnData(ds, snap, labelled), opts, func(p suspect.Progress) {
				if time.Since(last) >= time.Second || p.Done == 1 {
					last = time.Now()
					note(fmt.Sprintf("Suggestion model: epoch %d/%d, %s left", p.Epoch, p.Epochs, p.Left.Round(time.Second)))
				}
			})
		}
		var list []suspect.Suspect
		if err == nil && suggest {
			list, err = model.Suggest(ctx, cnnData(ds, snap, nil), unlabelled, func(f float64) {
				if time.Since(last) >= time.Second {
					last = time.Now()
					note(fmt.Sprintf("Suggesting labels: %.0f%%", 100*f))
				}
			})
		}
		schedule(func() {
			if w.training != job {
				return // stopped, or another dataset
			}
			w.training = nil
			cancel()
			w.learnt(learning{ds: ds, resets: resets, snap: snap, model: model, from: len(labelled), trained: train, review: job.review, list: list, err: err, took: time.Since(start)})
		})
	})
}

// learning is what a learn job did: the model it trained (or used), from how many labelled
// samples, and its suggestions (snapshot positions) for the Suggested review.
type learning struct {
	ds      *store.Dataset
	resets  int
	snap    store.Snapshot
	model   *suspect.Model
	from    int
	trained bool
	review  *review // the review it suggested for, nil for none
	list    []suspect.Suspect
	err     error
	took    time.Duration
}

// learnt takes a learn job's result on the UI thread: the model, then the suggestions, unless
// the dataset was replaced or renumbered meanwhile (then the suggestions are made again, by the
// model alone).
func (w *mainWindow) learnt(l learning) {
	if l.ds != w.ds {
		return
	}
	switch {
	case l.err == context.Canceled:
		return
	case l.err != nil:
		w.setDrawStatus("No label suggestions: " + l.err.Error())
		if l.review != nil {
			w.showError(fmt.Errorf("no suggestions: %w", l.err))
		}
		w.updateStatus()
		return
	}
	if l.trained && (w.model == nil || l.from > w.modelFrom) {
		w.setModel(l.model, l.from) // a model that learnt from more samples stays
	}
	r := w.sugg
	if r == nil || r != l.review || !r.pending || w.resets != l.resets {
		w.updateStatus()
		w.learn() // what is still wanted: suggestions for samples renumbered by a save meanwhile
		return
	}
	r.fill(l.list, l.snap)
	r.method = fmt.Sprintf("a CNN that learnt from %s", plural(w.modelFrom, "labelled sample"))
	if r == w.review() {
		w.rebuildView(w.side.filter())
		w.toFirstUndecided() // the most confident suggestion not decided yet
	}
	w.refresh()
	w.status.SetText(fmt.Sprintf("Suggested labels for %s, most confident first (%s; %s)", plural(len(l.list), "sample"), r.method, l.took.Round(time.Second)))
}

// fill gives the waiting review its suggestions (list, in snapshot positions, most confident
// first): the samples decided while the model trained come first, as they were, then the
// suggestions.
func (r *review) fill(list []suspect.Suspect, snap store.Snapshot) {
	suggested := make(map[int]bool, len(list))
	for _, s := range list {
		s.Index = snap.Indices[s.Index]
		r.of[s.Index] = s
		suggested[s.Index] = true
	}
	var order []int
	for _, i := range r.order {
		if !suggested[i] {
			order = append(order, i)
		}
	}
	for _, s := range list {
		order = append(order, snap.Indices[s.Index])
	}
	r.order, r.pending = order, false
}

// setModel makes m, which learnt from `from` labelled samples, the model that suggests labels,
// and suggests one for the drawing on the pad.
func (w *mainWindow) setModel(m *suspect.Model, from int) {
	w.model, w.modelFrom = m, from
	if w.draw != nil {
		w.setDrawStatus("The model suggests labels: Enter accepts, a digit overrides.")
		w.draw.suggest()
	}
}

// dropModel forgets the model and stops its training (the dataset is being replaced).
func (w *mainWindow) dropModel() {
	if w.training != nil {
		w.training.cancel()
		w.training = nil
	}
	w.model, w.modelFrom = nil, 0
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
