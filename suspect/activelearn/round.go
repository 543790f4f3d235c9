package activelearn

import (
	"context"
	"fmt"
	"slices"

	"idxlabel/sample"
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

// holdable returns the typed samples that may be held out to calibrate: those of a class with
// at least one other typed label (held out, a class's only label would leave its class unknown,
// which no suggestion of a known class is).
func (l *learnt) holdable() []int {
	count := make([]int, len(l.classes))
	for _, i := range l.labelled {
		count[l.cls[i]]++
	}
	var out []int
	for _, i := range l.labelled {
		if count[l.cls[i]] >= 2 {
			out = append(out, i)
		}
	}
	return out
}

// learning returns what a round learns from labels (N, sample.NoLabel for none) and
// opts.Accepted. Errors: lengths that do not fit, labels of fewer than 2 typed classes or more
// than cnn.MaxClasses.
func learning(labels []int, n int, o Options) (*learnt, error) {
	lab, err := typedLabelling(labels, n, o.Accepted)
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
// 2004), calibrated (Calibration) on the typed labels, each scored by the spreading without its
// own label (leave-one-out: exact, since spreading is linear in the labels; at most
// looHeld(N) of them, a stratified share drawn with the seed). Refine makes better ones,
// in seconds. Growth: O(N·k·classes) per spreading iteration, one spreading, then one of
// max(classes, 16) columns for every as many held-out labels. Errors: those of the labels
// (lengths, fewer than 2 typed classes, more than cnn.MaxClasses), or the context's error when
// cancelled.
func (s *Space) Suggest(ctx context.Context, labels []int, opts Options) (*Suggestions, error) {
	o := opts.withDefaults()
	l, err := learning(labels, s.N(), o)
	if err != nil {
		return nil, err
	}
	o.report("spreading", 0)
	nc := len(l.classes)
	sp := newSpreader(s.Graph, spreadNeighbours)
	raw, err := sp.raw(ctx, oneHot(l.cls, nc), nc)
	if err != nil {
		return nil, err
	}
	probs := slices.Clone(raw)
	for i := range s.N() {
		normalizeRow(probs[i*nc : (i+1)*nc])
	}
	out := &Suggestions{Classes: l.classes, Probs: probs, Typed: len(l.labelled)}
	if held := l.holdable(); len(held) >= MinCalibration {
		if most := looHeld(s.N()); len(held) > most {
			held = folds.Stratified(held, l.cls, nil, (len(held)+most-1)/most, o.Seed)[0]
		}
		p, err := sp.leaveOneOut(ctx, raw, l.cls, nc, held)
		if err != nil {
			return nil, err
		}
		y := make([]int, len(held))
		for m, i := range held {
			y[m] = l.cls[i]
		}
		out.Calibration, out.Calibrated = fitCalibration(p, y, nc), true
		out.Calibration.apply(probs, nc)
	}
	out.List = listOf(probs, l.classes, func(i int) bool { return l.unlabelled[i] }, s.N())
	o.report("spreading", 1)
	return out, nil
}

// looHeld returns the most typed labels Suggest scores without their own label to calibrate,
// for n samples: 160 up to 10,000 samples, in inverse proportion above, at least 24. Each costs
// a column of spreading (a tenth of a 10-class spreading): at 10,000 samples the 160 take a
// fraction of a second; at 60,000 the 26 about 2.6 of the round's own spreadings (with 160
// there, a round took 38 s under a load of 7–10, most of it these).
func looHeld(n int) int {
	return max(24, min(160, 160*10000/max(n, 1)))
}
