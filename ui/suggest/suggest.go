// Package suggest is the window's suggested labels: the model that suggests a label for each
// drawing of the draw window, and the Suggested list (Tools → Suggest Labels, Ctrl+Shift+U), the
// labelling-from-scratch loop that asks for the labels that help most and then suggests the
// others, most confident first, reviewed one by one (ui/review) or accepted many at once: every
// class above a confidence (Tools → Accept Suggestions…, Ctrl+Shift+T: acceptdialog.go), or one
// class from the cursor's confidence up, or the selection (Ctrl+Shift+A: accept.go).
package suggest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"fyne.io/fyne/v2"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/suspect/activelearn"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
	"idxlabel/ui/review"
)

// Suggester holds the model that suggests labels for drawings (the draw window's label box):
// the CNN scan's (the mean of its fold networks), or one network trained in the background on
// the labelled samples when the draw window opens. It stays in memory for the session of one
// dataset; nothing is written to disk. It also runs the Suggested mode's list (Mode), the
// labelling-from-scratch loop (ask.go).
type Suggester struct {
	c     mode.Controller
	jobs  *jobs.Jobs
	d     *dialogs.Dialogs
	Mode  *review.Mode // the Suggested list
	model *suspect.Model
	from  int                 // the labelled samples the model learnt from
	opts  *suspect.CNNOptions // how the CNNs train (the scanner's: scan.Scanner.Opts)
	// The training running, nil when none.
	training *jobs.Job
	loop     askLoop // the Suggested list's rounds (ask.go)
	// Where the draw window hears of the model: its progress (note) and a new model (ready);
	// nil: nowhere (Tell).
	note  func(text string)
	ready func()
	// The loop's method (package activelearn) and its wait for the labels to rest
	// (time.AfterFunc), the window's tests put stand-ins in their place: quicker ones, to test
	// the list's behaviour, not the method's, and a clock of their own, so that when a round
	// starts is theirs to say, not the machine's speed. A round calls, on its goroutine,
	// Prepare (nil: nothing; by default it finds the space of the samples' pixels, read from
	// the file kept beside the images or computed once and kept: keptSpace), AskFor (the
	// samples to label next), FirstFor (the first suggestions, shown at once; nil: none) and
	// SuggestFor (the refined ones, shown when done). By default the last three use the
	// space Prepare found: Space.Ask, Space.Suggest (label spreading) and Space.Refine.
	Prepare    func(ctx context.Context, d sample.Set, opts activelearn.Options, at place) error
	AskFor     func(ctx context.Context, d sample.Set, n int, opts activelearn.Options) ([]int, error)
	FirstFor   func(ctx context.Context, d sample.Set, opts activelearn.Options) ([]activelearn.Suggestion, error)
	SuggestFor func(ctx context.Context, d sample.Set, opts activelearn.Options) ([]activelearn.Suggestion, error)
	AfterRest  func(d time.Duration, f func()) RestTimer
	kept       *keptSpace // the space of the dataset's pixels (the default method's)
	win        fyne.Window
	// newRound hears of each round shown while the Accept Suggestions dialog is open (nil:
	// none open), on the UI thread: the dialog says a newer round exists (acceptdialog.go).
	newRound func(r *review.List)
}

// New makes the suggested labels of the window win whose controller is c, its jobs j, its
// dialogs d: the CNNs train with opts (the scanner's, so one setting serves both), and dump (not "")
// names the test hook's file (testSuggestEnv).
func New(c mode.Controller, j *jobs.Jobs, d *dialogs.Dialogs, win fyne.Window, opts *suspect.CNNOptions, dump string) *Suggester {
	g := &Suggester{c: c, jobs: j, d: d, win: win, opts: opts, loop: askLoop{dump: dump, seed: seedFromEnv(), home: -1}, kept: &keptSpace{},
		AfterRest: func(d time.Duration, f func()) RestTimer { return time.AfterFunc(d, f) }}
	g.Prepare, g.AskFor, g.FirstFor, g.SuggestFor = g.kept.prepare, g.kept.ask, g.kept.first, g.kept.refine
	g.Mode = &review.Mode{Kind: review.Suggested, Name: "Suggested", Begin: g.Suggest, Why: g.Why,
		WhyNot: g.noSuggestion, Progress: g.progressNote, Decided: g.decided}
	return g
}

// Tell has note told of the model's progress and ready of a new model (the draw window's status
// line and its label box), on the UI thread.
func (g *Suggester) Tell(note func(text string), ready func()) { g.note, g.ready = note, ready }

// Model is the model that suggests labels (nil: none yet).
func (g *Suggester) Model() *suspect.Model { return g.model }

// Trained reports whether a model suggests labels.
func (g *Suggester) Trained() bool { return g.model != nil }

// Idle reports whether no round of the Suggested list runs or waits for the labels to rest.
func (g *Suggester) Idle() bool { return g.loop.job == nil && g.loop.timer == nil }

// Rounding reports whether a round of the Suggested list runs.
func (g *Suggester) Rounding() bool { return g.loop.job != nil }

// Tally counts what the person did in the Suggested list (loopTally): the suggestions accepted,
// the labels decided one at a time with a suggestion to compare (scored), and those that were
// the suggestion (right).
type Tally struct{ Accepted, Scored, Right int }

// Tally is what the person did in the Suggested list now.
func (g *Suggester) Tally() Tally {
	t := *g.tally()
	return Tally{Accepted: t.accepted, Scored: t.scored, Right: t.right}
}

// errNoModel: a guess was asked for before any model was trained.
var errNoModel = errors.New("no model to suggest labels yet")

// Why says why a sample has no suggestion: a round of the Suggested list is running or waiting,
// the model is training, no labels of two classes exist yet, or it was stopped.
func (g *Suggester) Why() string {
	switch r := g.Mode.List; {
	case g.loop.job != nil || g.loop.timer != nil:
		return "No suggestion for this sample yet (the suggestions are being made)"
	case g.training != nil:
		return "No suggestion for this sample yet (the model is training)"
	case r != nil && r.SuggestsNone:
		return "No suggestion yet: suggestions need labels of two classes or more (label the asked samples first)"
	}
	return "No suggestion for this sample (Tools → Suggest Labels makes them)"
}

// Train starts training a model for suggestions on the labelled samples unless one exists
// or is training (the draw window, as it opens). It does nothing when the labelled samples have
// fewer than two classes (there is nothing to learn).
func (g *Suggester) Train() { g.learn() }

// Suggest shows the samples without a label (not deleted) in the Suggested mode, as the
// labelling-from-scratch loop (ask.go): at once in sample order, and the person can label them
// already; then, when its first round is done, the samples to label first (asked) and the
// suggestions most confident first (Show → Suggested when there is no list yet; Tools → Suggest
// Labels). With no label at all it still asks. When every sample has a label it says so.
func (g *Suggester) Suggest() {
	c := g.c
	snap := c.State().DS.Snapshot()
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
	g.Mode.List = r
	c.Enter(g.Mode)
	g.loop.home = c.State().View.Current()
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
func (g *Suggester) learn() {
	c := g.c
	if g.training != nil {
		return
	}
	snap := c.State().DS.Snapshot()
	labelled, _ := splitLabelled(snap)
	if g.model != nil || nothingToLearn(snap, labelled) != "" {
		return
	}
	ds, opts := c.State().DS, *g.opts
	note := "Suggestion model: training on " + numfmt.Plural(len(labelled), "labelled sample")
	job := g.jobs.Start(jobs.Training, note)
	g.training = job
	c.Render()
	g.tellDraw(note + "…")
	progress := func(text string) {
		g.jobs.Schedule(func() {
			if g.training == job {
				g.jobs.SetNote(job, text)
				g.tellDraw(text)
				c.Progress()
			}
		})
	}
	start := time.Now()
	g.jobs.Run(func() {
		var last time.Time
		model, err := suspect.TrainModel(job.Ctx, snap.Subset(labelled), opts, func(p suspect.Progress) {
			if time.Since(last) >= time.Second || p.Done == 1 {
				last = time.Now()
				progress(fmt.Sprintf("Suggestion model: epoch %d/%d, %s left", p.Epoch, p.Epochs, p.Left.Round(time.Second)))
			}
		})
		g.jobs.Schedule(func() {
			if g.training != job {
				return // stopped, or another dataset
			}
			g.training = nil
			g.jobs.Finish(job)
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
func (g *Suggester) learnt(l learning) {
	c := g.c
	if l.ds != c.State().DS || l.err == context.Canceled {
		return
	}
	if l.err != nil {
		g.tellDraw("No label suggestions: " + l.err.Error())
		c.Render()
		return
	}
	if g.model == nil || l.from > g.from {
		g.SetModel(l.model, l.from) // a model that learnt from more samples stays
	}
	c.Render()
}

// SetModel makes m, which learnt from `from` labelled samples, the model that suggests labels,
// and tells the draw window (and whether m learnt from too few labels to be trusted).
func (g *Suggester) SetModel(m *suspect.Model, from int) {
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

// LowConfidence reports whether the model that suggests labels learnt from too few labelled
// samples for its confidence to be trusted (fewLabels).
func (g *Suggester) LowConfidence() bool { return review.FewLabels(g.model) }

// Guess is the model's label for a drawing (h×w display pixels) and how sure it is. Errors:
// errNoModel, or the model's.
func (g *Suggester) Guess(px []byte, h, w int) (int, float64, error) {
	if g.model == nil {
		return 0, 0, errNoModel
	}
	// The model learnt the samples as stored; EMNIST stores them transposed.
	return g.model.Predict(sample.Upright(px, w, h, g.c.State().DS.Transposed(), nil))
}

// stopJob cancels the training running, if any.
func (g *Suggester) stopJob() {
	if g.training != nil {
		g.jobs.Finish(g.training)
		g.training = nil
	}
	g.stopLoop()
}

// Stop is Tools → Stop Training the CNN for the model: the model trained before, if any, stays;
// samples waiting for a suggestion keep none until Tools → Suggest Labels, and the status bar
// says so.
func (g *Suggester) Stop() {
	if g.training == nil && g.loop.job == nil && g.loop.timer == nil {
		return
	}
	g.stopJob()
	g.c.Render()
	if r := g.Mode.List; r != nil && r.Pending {
		g.c.Say("Stopped: no suggestions (Tools → Suggest Labels starts again)")
	}
}

// Drop forgets the model and stops its training (the dataset is being replaced).
func (g *Suggester) Drop() {
	g.stopJob()
	g.newRound = nil
	g.model, g.from = nil, 0
	g.loop.tally = loopTally{} // the next dataset's marks are read from it (tally)
}

// tellDraw puts text on the draw window's status line, when it is open.
func (g *Suggester) tellDraw(text string) {
	if g.note != nil {
		g.note(text)
	}
}
