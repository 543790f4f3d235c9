package ui

import (
	"context"
	"errors"
	"fmt"
	"time"

	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
)

// suggester holds the model that suggests labels: the CNN scan's (the mean of its fold
// networks), or one network trained in the background on the labelled samples, when the draw
// window opens or the Suggested mode needs one. It stays in memory for the session of one
// dataset; nothing is written to disk. It suggests labels for drawings (the draw window's label
// box) and for the samples without a label (the Suggested mode, whose list it makes).
type suggester struct {
	c      *controller
	d      *dialogs
	review *reviewMode // the Suggested mode
	model  *suspect.Model
	from   int                // the labelled samples the model learnt from
	opts   suspect.CNNOptions // how the CNNs train: zero for the recipe's defaults (tests shorten it)
	// The training (and suggesting) running, nil when none, and the list it suggests for (nil
	// when it only trains).
	training *job
	forList  *review
	// Where the draw window hears of the model: its progress (note) and a new model (ready);
	// nil while no draw window is open.
	note  func(text string)
	ready func()
}

// errNoModel: a guess was asked for before any model was trained.
var errNoModel = errors.New("no model to suggest labels yet")

// why says why a sample has no suggestion: the model is still training (or suggesting), or
// was stopped.
func (g *suggester) why() string {
	if g.training != nil {
		return "No suggestion for this sample yet (the model is training)"
	}
	return "No suggestion for this sample (Tools → Suggest Labels makes them)"
}

// trainModel starts training a model for suggestions on the labelled samples unless one exists
// or is training (the draw window, as it opens). It does nothing when the labelled samples have
// fewer than two classes (there is nothing to learn).
func (g *suggester) trainModel() { g.learn() }

// suggestLabels suggests a label for every sample without one (not deleted) and shows them in
// the Suggested mode, most confident first (Show → Suggested when there are none yet; Tools →
// Suggest Labels). Until the model is ready the list is in sample order, and the person can
// label them already. The model is trained first when there is none, or when it learnt from
// markedly fewer labelled samples than exist now (see stale). When there is nothing to
// suggest, or nothing to learn from, it says so.
func (g *suggester) suggestLabels() {
	c := g.c
	snap := c.ds.Snapshot()
	labelled, unlabelled := splitLabelled(snap)
	if len(unlabelled) == 0 {
		g.d.inform("Suggested labels", "Every sample has a label: there is nothing to suggest.")
		return
	}
	if msg := nothingToLearn(snap, labelled); msg != "" && g.model == nil {
		g.d.inform("Suggested labels", msg)
		return
	}
	r := &review{kind: reviewSuggested, of: map[int]suspect.Suspect{}, pending: true, method: "the model is training"}
	for _, k := range unlabelled {
		r.order = append(r.order, snap.Index[k])
	}
	if g.training != nil && g.forList != nil {
		g.stopJob() // it suggests for the samples as they were
	}
	g.review.r = r
	c.enter(modeSuggested)
	g.learn()
}

// nothingToLearn says why a model cannot be trained on the labelled samples (positions in snap),
// or returns "" when it can: a classifier needs labelled samples of at least two classes.
func nothingToLearn(snap sample.Set, labelled []int) string {
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
func splitLabelled(snap sample.Set) (labelled, unlabelled []int) {
	for k, l := range snap.Labels {
		if l == sample.NoLabel {
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
// labelled samples when there is none, or when the Suggested list waits and the model is stale;
// then suggesting labels for the samples the waiting list holds. Progress shows on the status
// bar (and the draw window's); Tools → Stop Training the CNN cancels it.
func (g *suggester) learn() {
	c := g.c
	if g.training != nil {
		return
	}
	pending := g.review.r
	suggest := pending != nil && pending.pending
	snap := c.ds.Snapshot()
	labelled, unlabelled := splitLabelled(snap)
	train := g.model == nil || suggest && stale(g.from, len(labelled))
	if train && nothingToLearn(snap, labelled) != "" {
		if g.model == nil {
			return // suggestLabels said why
		}
		train = false // the labels changed since: the model in memory still suggests
	}
	if !train && !suggest {
		return
	}
	ds, resets, model, opts := c.ds, c.resets, g.model, g.opts
	note := "Suggestion model: training on " + plural(len(labelled), "labelled sample")
	if !train {
		note = "Suggesting labels"
	}
	job := c.jobs.start(jobTraining, note)
	g.training, g.forList = job, nil
	if suggest {
		g.forList = pending
	}
	forList := g.forList
	c.renderCursor()
	g.tellDraw(note + "…")
	progress := func(text string) {
		c.jobs.schedule(func() {
			if g.training == job {
				c.jobs.setNote(job, text)
				g.tellDraw(text)
				c.showProgress()
			}
		})
	}
	start := time.Now()
	c.jobs.run(func() {
		var err error
		var last time.Time
		if train {
			model, err = suspect.TrainModel(job.ctx, snap.Subset(labelled), opts, func(p suspect.Progress) {
				if time.Since(last) >= time.Second || p.Done == 1 {
					last = time.Now()
					progress(fmt.Sprintf("Suggestion model: epoch %d/%d, %s left", p.Epoch, p.Epochs, p.Left.Round(time.Second)))
				}
			})
		}
		var list []suspect.Suspect
		if err == nil && suggest {
			list, err = model.Suggest(job.ctx, snap, unlabelled, func(f float64) {
				if time.Since(last) >= time.Second {
					last = time.Now()
					progress(fmt.Sprintf("Suggesting labels: %.0f%%", 100*f))
				}
			})
		}
		c.jobs.schedule(func() {
			if g.training != job {
				return // stopped, or another dataset
			}
			g.training, g.forList = nil, nil
			c.jobs.finish(job)
			g.learnt(learning{ds: ds, resets: resets, snap: snap, model: model, from: len(labelled), trained: train, list: forList, suggestions: list, err: err, took: time.Since(start)})
		})
	})
}

// learning is what a learn job did: the model it trained (or used), from how many labelled
// samples, and its suggestions (snapshot positions) for the Suggested list.
type learning struct {
	ds          *store.Dataset
	resets      int
	snap        sample.Set
	model       *suspect.Model
	from        int
	trained     bool
	list        *review // the list it suggested for, nil for none
	suggestions []suspect.Suspect
	err         error
	took        time.Duration
}

// learnt takes a learn job's result on the UI thread: the model, then the suggestions, unless
// the dataset was replaced or renumbered meanwhile (then the suggestions are made again, by the
// model alone).
func (g *suggester) learnt(l learning) {
	c := g.c
	if l.ds != c.ds {
		return
	}
	switch {
	case l.err == context.Canceled:
		return
	case l.err != nil:
		g.tellDraw("No label suggestions: " + l.err.Error())
		if l.list != nil {
			g.d.showError(fmt.Errorf("no suggestions: %w", l.err))
		}
		c.renderCursor()
		return
	}
	if l.trained && (g.model == nil || l.from > g.from) {
		g.setModel(l.model, l.from) // a model that learnt from more samples stays
	}
	r := g.review.r
	if r == nil || r != l.list || !r.pending || c.resets != l.resets {
		c.renderCursor()
		g.learn() // what is still wanted: suggestions for samples renumbered by a save meanwhile
		return
	}
	r.fill(l.suggestions, l.snap)
	r.method = fmt.Sprintf("a CNN that learnt from %s", plural(g.from, "labelled sample"))
	r.few = fewLabels(g.model)
	c.modeChanged(modeSuggested)
	if c.mode == modeSuggested {
		g.review.toFirstUndecided(c) // the most confident suggestion not decided yet
	}
	method := r.method
	if r.few {
		method += ": " + fewLabelsNote
	}
	c.say(fmt.Sprintf("Suggested labels for %s, most confident first (%s; %s)", plural(len(l.suggestions), "sample"), method, l.took.Round(time.Second)))
}

// fill gives the waiting list its suggestions (list, in snapshot positions, most confident
// first): the samples decided while the model trained come first, as they were, then the
// suggestions.
func (r *review) fill(list []suspect.Suspect, snap sample.Set) {
	suggested := make(map[int]bool, len(list))
	for _, s := range list {
		s.Index = snap.Index[s.Index]
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
		order = append(order, snap.Index[s.Index])
	}
	r.order, r.pending = order, false
}

// setModel makes m, which learnt from `from` labelled samples, the model that suggests labels,
// and tells the draw window (and whether m learnt from too few labels to be trusted).
func (g *suggester) setModel(m *suspect.Model, from int) {
	g.model, g.from = m, from
	text := "The model suggests labels: Enter accepts, a digit overrides."
	if fewLabels(m) {
		text = fmt.Sprintf("The model suggests labels, learnt from %s (%s): Enter accepts, a digit overrides.", plural(m.Labelled(), "label"), fewLabelsNote)
	}
	g.tellDraw(text)
	if g.ready != nil {
		g.ready()
	}
}

// lowConfidence reports whether the model that suggests labels learnt from too few labelled
// samples for its confidence to be trusted (fewLabels).
func (g *suggester) lowConfidence() bool { return fewLabels(g.model) }

// guess is the model's label for a drawing (h×w display pixels) and how sure it is. Errors:
// errNoModel, or the model's.
func (g *suggester) guess(px []byte, h, w int) (int, float64, error) {
	if g.model == nil {
		return 0, 0, errNoModel
	}
	// The model learnt the samples as stored; EMNIST stores them transposed.
	return g.model.Predict(sample.Upright(px, w, h, g.c.ds.Transposed(), nil))
}

// stopJob cancels the training running, if any.
func (g *suggester) stopJob() {
	if g.training != nil {
		g.c.jobs.finish(g.training)
		g.training, g.forList = nil, nil
	}
}

// stop is Tools → Stop Training the CNN for the model: the model trained before, if any, stays;
// samples waiting for a suggestion keep none until Tools → Suggest Labels, and the status bar
// says so.
func (g *suggester) stop() {
	if g.training == nil {
		return
	}
	g.stopJob()
	g.c.renderCursor()
	if r := g.review.r; r != nil && r.pending {
		g.c.say("Stopped: no suggestions (Tools → Suggest Labels starts again)")
	}
}

// drop forgets the model and stops its training (the dataset is being replaced).
func (g *suggester) drop() {
	g.stopJob()
	g.model, g.from = nil, 0
}

// tellDraw puts text on the draw window's status line, when it is open.
func (g *suggester) tellDraw(text string) {
	if g.note != nil {
		g.note(text)
	}
}
