package activelearn

import (
	"context"
	"fmt"
	"slices"

	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/folds"
)

// MinCalibration is the fewest typed labels the suggestions' confidences are calibrated on;
// with fewer they are the models' own (Suggestions.Calibrated is false).
const MinCalibration = 20

// learnt is what a round learns from: the typed labels as class indices (accepted labels
// masked out: pseudo-labels carry nothing the models did not already suggest), and which
// samples are to be suggested (no label at all).
type learnt struct {
	*labelling
	unlabelled []bool
}

// learning returns what a round learns from labels (N, sample.NoLabel for none) and
// opts.Accepted. Errors: lengths that do not fit, labels of fewer than 2 typed classes or more
// than cnn.MaxClasses.
func learning(labels []int, n int, o Options) (*learnt, error) {
	if len(labels) != n {
		return nil, fmt.Errorf("%d labels for %d samples", len(labels), n)
	}
	if o.Accepted != nil && len(o.Accepted) != n {
		return nil, fmt.Errorf("%d accepted marks for %d samples", len(o.Accepted), n)
	}
	typed := labels
	if o.Accepted != nil {
		typed = slices.Clone(labels)
		for i, a := range o.Accepted {
			if a {
				typed[i] = sample.NoLabel
			}
		}
	}
	lab, err := newLabelling(typed)
	if err != nil {
		return nil, err
	}
	if len(lab.classes) < 2 {
		return nil, fmt.Errorf("suggestions need typed labels of at least 2 classes, the dataset has %d typed labels, of %d classes", len(lab.labelled), len(lab.classes))
	}
	l := &learnt{labelling: lab, unlabelled: make([]bool, n)}
	for i, v := range labels {
		l.unlabelled[i] = v == sample.NoLabel
	}
	return l, nil
}

// Suggest is a round's first suggestions, in a fraction of a second per 10,000 samples: the
// typed labels (labels, N of them, sample.NoLabel for none; opts.Accepted marks the accepted
// ones, which are not learnt from) spread over the space's graph (label spreading, Zhou et al.
// 2004), calibrated by temperature scaling on the typed labels, each scored by a spreading
// that did not start from it (two folds). Refine makes better ones, in seconds. Growth:
// O(N·k·classes) per spreading iteration, 3 spreadings. Errors: those of the labels (lengths,
// fewer than 2 typed classes, more than cnn.MaxClasses), or the context's error when
// cancelled.
func (s *Space) Suggest(ctx context.Context, labels []int, opts Options) (*Suggestions, error) {
	o := opts.withDefaults()
	l, err := learning(labels, s.N(), o)
	if err != nil {
		return nil, err
	}
	o.report("spreading", 0)
	nc := len(l.classes)
	probs, err := spread(ctx, s.Graph, l.cls, nc)
	if err != nil {
		return nil, err
	}
	out := &Suggestions{Classes: l.classes, Probs: probs, Temperature: 1, Typed: len(l.labelled)}
	if len(l.labelled) >= MinCalibration {
		var p []float32
		var y []int
		for _, h := range folds.Stratified(l.labelled, l.cls, nil, 2, o.Seed) {
			hidden := slices.Clone(l.cls)
			for _, i := range h {
				hidden[i] = -1
			}
			sp, err := spread(ctx, s.Graph, hidden, nc)
			if err != nil {
				return nil, err
			}
			for _, i := range h {
				p = append(p, sp[i*nc:(i+1)*nc]...)
				y = append(y, l.cls[i])
			}
		}
		out.Temperature, out.Calibrated = temperature(p, y, nc), true
		suspect.Temper(probs, nc, out.Temperature)
	}
	out.List = listOf(probs, l.classes, func(i int) bool { return l.unlabelled[i] }, s.N())
	o.report("spreading", 1)
	return out, nil
}
