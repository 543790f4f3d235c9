package ui

import (
	"context"
	"errors"
	"fmt"
	"time"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/review"
)

// suggester holds the model that suggests labels for drawings (the draw window's label box):
// the CNN scan's (the mean of its fold networks), or one network trained in the background on
// the labelled samples when the draw window opens. It stays in memory for the session of one
// dataset; nothing is written to disk. It also runs the Suggested mode's list, the
// labelling-from-scratch loop (ask.go).
type suggester struct {
	c      *controller
	d      *dialogs.Dialogs
	review *review.Mode // the Suggested mode
	model  *suspect.Model
	from   int                 // the labelled samples the model learnt from
	opts   *suspect.CNNOptions // how the CNNs train (the scanner's: scan.Scanner.Opts)
	// The training running, nil when none.
	training *jobs.Job
	loop     askLoop // the Suggested list's rounds (ask.go)
	// Where the draw window hears of the model: its progress (note) and a new model (ready);
	// nil while no draw window is open.
	note  func(text string)
	ready func()
}

// errNoModel: a guess was asked for before any model was trained.
var errNoModel = errors.New("no model to suggest labels yet")

// why says why a sample has no suggestion: a round of the Suggested list is running or waiting,
// the model is training, no labels of two classes exist yet, or it was stopped.
func (g *suggester) why() string {
	switch r := g.review.List; {
	case g.loop.job != nil || g.loop.timer != nil:
		return "No suggestion for this sample yet (the suggestions are being made)"
	case g.training != nil:
		return "No suggestion for this sample yet (the model is training)"
	case r != nil && r.SuggestsNone:
		return "No suggestion yet: suggestions need labels of two classes or more (label the asked samples first)"
	}
	return "No suggestion for this sample (Tools → Suggest Labels makes them)"
}

// trainModel starts training a model for suggestions on the labelled samples unless one exists
// or is training (the draw window, as it opens). It does nothing when the labelled samples have
// fewer than two classes (there is nothing to learn).
func (g *suggester) trainModel() { g.learn() }

// suggestLabels shows the samples without a label (not deleted) in the Suggested mode, as the
// labelling-from-scratch loop (ask.go): at once in sample order, and the person can label them
// already; then, when its first round is done, the samples to label first (asked) and the
// suggestions most confident first (Show → Suggested when there is no list yet; Tools → Suggest
// Labels). With no label at all it still asks. When every sample has a label it says so.
func (g *suggester) suggestLabels() {
	c := g.c
	snap := c.ds.Snapshot()
	_, unlabelled := splitLabelled(snap)
	if len(unlabelled) == 0 {
		g.d.Inform("Suggested labels", "Every sample has a label: there is nothing to suggest.")
		return
	}
	r := &review.List{Kind: review.Suggested, Of: map[int]suspect.Suspect{}, Pending: true, Method: "the suggestions are being made"}
	for _, k := range unlabelled {
		r.Order = append(r.Order, snap.Index[k])
	}
	g.stopLoop() // a round running suggests for the samples as they were
	g.review.List = r
	c.enter(g.review)
	g.round()
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
		return fmt.Sprintf("Only one class to learn from: every labelled sample (%s) is of class %d, and the model that suggests labels needs two classes or more.", numfmt.Plural(len(labelled), "sample"), snap.Labels[labelled[0]]) + how
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

// learn starts training, in the background, a model on the labelled samples for the draw window
// when there is none and none is training. Progress shows on the status bar (and the draw
// window's); Tools → Stop Training the CNN cancels it.
func (g *suggester) learn() {
	c := g.c
	if g.training != nil {
		return
	}
	snap := c.ds.Snapshot()
	labelled, _ := splitLabelled(snap)
	if g.model != nil || nothingToLearn(snap, labelled) != "" {
		return
	}
	ds, opts := c.ds, *g.opts
	note := "Suggestion model: training on " + numfmt.Plural(len(labelled), "labelled sample")
	job := c.jobs.Start(jobs.Training, note)
	g.training = job
	c.renderCursor()
	g.tellDraw(note + "…")
	progress := func(text string) {
		c.jobs.Schedule(func() {
			if g.training == job {
				c.jobs.SetNote(job, text)
				g.tellDraw(text)
				c.showProgress()
			}
		})
	}
	start := time.Now()
	c.jobs.Run(func() {
		var last time.Time
		model, err := suspect.TrainModel(job.Ctx, snap.Subset(labelled), opts, func(p suspect.Progress) {
			if time.Since(last) >= time.Second || p.Done == 1 {
				last = time.Now()
				progress(fmt.Sprintf("Suggestion model: epoch %d/%d, %s left", p.Epoch, p.Epochs, p.Left.Round(time.Second)))
			}
		})
		c.jobs.Schedule(func() {
			if g.training != job {
				return // stopped, or another dataset
			}
			g.training = nil
			c.jobs.Finish(job)
			g.learnt(learning{ds: ds, model: model, from: len(labelled), err: err, took: time.Since(start)})
		})
	})
}

// learning is what a learn job did: the model it trained, from how many labelled samples.
type learning struct {
	ds    *store.Dataset
	model *suspect.Model
	from  int
	err   error
	took  time.Duration
}

// learnt takes a learn job's result on the UI thread: the model, unless the dataset was
// replaced meanwhile.
func (g *suggester) learnt(l learning) {
	c := g.c
	if l.ds != c.ds || l.err == context.Canceled {
		return
	}
	if l.err != nil {
		g.tellDraw("No label suggestions: " + l.err.Error())
		c.renderCursor()
		return
	}
	if g.model == nil || l.from > g.from {
		g.setModel(l.model, l.from) // a model that learnt from more samples stays
	}
	c.renderCursor()
}

// setModel makes m, which learnt from `from` labelled samples, the model that suggests labels,
// and tells the draw window (and whether m learnt from too few labels to be trusted).
func (g *suggester) setModel(m *suspect.Model, from int) {
	g.model, g.from = m, from
	text := "The model suggests labels: Enter accepts, a digit overrides."
	if review.FewLabels(m) {
		text = fmt.Sprintf("The model suggests labels, learnt from %s (%s): Enter accepts, a digit overrides.", numfmt.Plural(m.Labelled(), "label"), review.FewLabelsNote)
	}
	g.tellDraw(text)
	if g.ready != nil {
		g.ready()
	}
}

// lowConfidence reports whether the model that suggests labels learnt from too few labelled
// samples for its confidence to be trusted (fewLabels).
func (g *suggester) lowConfidence() bool { return review.FewLabels(g.model) }

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
		g.c.jobs.Finish(g.training)
		g.training = nil
	}
	g.stopLoop()
}

// stop is Tools → Stop Training the CNN for the model: the model trained before, if any, stays;
// samples waiting for a suggestion keep none until Tools → Suggest Labels, and the status bar
// says so.
func (g *suggester) stop() {
	if g.training == nil && g.loop.job == nil && g.loop.timer == nil {
		return
	}
	g.stopJob()
	g.c.renderCursor()
	if r := g.review.List; r != nil && r.Pending {
		g.c.say("Stopped: no suggestions (Tools → Suggest Labels starts again)")
	}
}

// drop forgets the model and stops its training (the dataset is being replaced).
func (g *suggester) drop() {
	g.stopJob()
	g.model, g.from = nil, 0
	g.loop.tally = loopTally{}
}

// tellDraw puts text on the draw window's status line, when it is open.
func (g *suggester) tellDraw(text string) {
	if g.note != nil {
		g.note(text)
	}
}
