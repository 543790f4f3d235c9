package activelearn

import (
	"cmp"
	"slices"
)

// Suggestion is a label suggested for one unlabelled sample.
type Suggestion struct {
	Index      int     // the sample, 0-based in the dataset's order
	Label      int     // the suggested label (one of the typed labels' values)
	Confidence float64 // the probability that Label is right, 0–1 (calibrated: see Suggestions)
}

// Suggestions are one round's suggestions: every sample's class probabilities and, for each
// sample without a label, the most probable class.
type Suggestions struct {
	Classes []int     // the labels the probabilities are of: the typed labels' values, ascending
	Probs   []float32 // N×len(Classes): each sample's class probabilities, rows summing to 1
	// List holds a suggestion for every sample without a label (neither typed nor accepted),
	// most confident first (ties: lower index first).
	List []Suggestion
	// Refined: the probabilities are the networks' (Space.Refine), not label spreading's alone
	// (Space.Suggest).
	Refined bool
	// Calibrated: the confidences were fitted: the first suggestions' (Space.Suggest) to typed
	// labels held out of the spreading (Calibration), the refined ones' (Space.Refine) to the
	// calibration networks' agreement with them (see fitAgreement). False below MinCalibration
	// typed labels (of classes with two or more: a class's only label is never held out), when
	// the confidences are the models' own.
	Calibrated  bool
	Calibration Calibration // what was fitted to typed labels (the zero value: none, or refined)
	Typed       int         // the typed labels learnt from (accepted ones are not learnt from)
}

// ClassAcceptance is what accepting every suggestion of one class at a confidence threshold or
// above would do.
type ClassAcceptance struct {
	Label     int     // the class
	Suggested int     // the class's suggestions
	Accepted  int     // of them, those at the threshold or above
	Wrong     float64 // the expected number of the accepted ones that are wrong: Σ (1 − confidence)
}

// Acceptance returns, for every class of s in ascending order, how many of its suggestions a
// confidence threshold (0–1) accepts and how many of those are expected to be wrong (the sum
// of 1 − confidence: calibrated confidences make it an estimate of the count). O(N + classes).
func (s *Suggestions) Acceptance(threshold float64) []ClassAcceptance {
	out := make([]ClassAcceptance, len(s.Classes))
	for c, l := range s.Classes {
		out[c].Label = l
	}
	for _, x := range s.List {
		c, ok := slices.BinarySearch(s.Classes, x.Label)
		if !ok {
			continue
		}
		out[c].Suggested++
		if x.Confidence >= threshold {
			out[c].Accepted++
			out[c].Wrong += 1 - x.Confidence
		}
	}
	return out
}

// listOf returns the suggestions of probs (N×len(classes)) for the samples not labelled
// (labels[i] == sample.NoLabel), most confident first, ties by lower index.
func listOf(probs []float32, classes []int, unlabelled func(i int) bool, n int) []Suggestion {
	nc := len(classes)
	var out []Suggestion
	for i := range n {
		if unlabelled(i) {
			row := probs[i*nc : (i+1)*nc]
			b := argmax(row)
			out = append(out, Suggestion{Index: i, Label: classes[b], Confidence: float64(row[b])})
		}
	}
	if out == nil {
		out = []Suggestion{}
	}
	slices.SortStableFunc(out, func(a, b Suggestion) int { return cmp.Compare(b.Confidence, a.Confidence) })
	return out
}

func argmax(p []float32) int {
	b := 0
	for c, v := range p {
		if v > p[b] {
			b = c
		}
	}
	return b
}
