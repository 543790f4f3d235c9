// Package health is the dataset health check: one run finds label errors, outliers,
// near-duplicates and leakage against a second set, and returns each kind's findings most
// severe first. It drives the models of package suspect (the cross-validated CNN, shared by the
// label and outlier kinds: one scan), suspect/outlier and suspect/neardup; a command line and a
// window both call Run. check never imports Fyne.
package health

import (
	"fmt"
	"idxlabel/suspect"
	"slices"
	"strings"
)

// Kind names one kind of finding. Its string is the kind column of `idxlabel check`'s CSV.
type Kind string

// The kinds, in the order the CSV and the report list them (Run computes the quick ones,
// Duplicate and Leak, first).
const (
	// Label: a sample whose given label the CNN's out-of-fold probabilities doubt. Score is
	// 1 − p(given label) (suspect.ScanCNN's self-confidence ranking).
	Label Kind = "label"
	// Outlier: a sample unlike every class (not a digit). Score is outlier.Scores': Σ over
	// the detectors of ln(1 + z⁺), z the robust z-score of the sample's distance to its
	// neighbours (0 for a typical sample; planted non-digits in t10k score 4–12).
	Outlier Kind = "outlier"
	// Duplicate: two samples of the set that are the same image up to small changes, closer to
	// each other than to any other sample by far (neardup.Within). A group of k copies is k − 1
	// findings, its first sample (Index) with each other member (Other). Score is their
	// shift-aligned cosine similarity (neardup.Similarity), 1 for identical images.
	Duplicate Kind = "duplicate"
	// Leak: a sample of the set that is such a copy of a sample of the other set (its most
	// similar copy there). Score as for Duplicate.
	Leak Kind = "leak"
)

// Kinds lists every kind in list order.
var Kinds = []Kind{Label, Outlier, Duplicate, Leak}

// ParseKinds reads a comma-separated list of kind names ("label,outlier"), in any order and
// without repeats, into list order. Errors: an empty list, an unknown or repeated name.
func ParseKinds(s string) ([]Kind, error) {
	seen := map[Kind]bool{}
	for _, f := range strings.Split(s, ",") {
		k := Kind(strings.TrimSpace(f))
		if !slices.Contains(Kinds, k) {
			return nil, fmt.Errorf("unknown kind %q (the kinds are label, outlier, duplicate, leak)", string(k))
		}
		if seen[k] {
			return nil, fmt.Errorf("kind %q is listed twice", string(k))
		}
		seen[k] = true
	}
	var out []Kind
	for _, k := range Kinds {
		if seen[k] {
			out = append(out, k)
		}
	}
	return out, nil
}

// Finding is one finding of a kind.
type Finding struct {
	Kind  Kind
	Index int // the sample of the set, 0-based in the sample.Set's order
	// Other is the second sample: for Duplicate another sample of the set (Index < Other), for
	// Leak a sample of the other set; -1 for Label and Outlier.
	Other int
	Label int // Index's given label (sample.NoLabel for none)
	// Suggested is the CNN's most probable class for Index (sample.NoLabel when no scan ran).
	Suggested int
	Score     float64 // larger is more severe within the kind; see the Kind constants
	// Uniqueness, for Duplicate and Leak, says how distinct the match is (neardup.Pair's: 1
	// for an identical image, at least 1 − neardup.DefaultRatio when listed); 0 otherwise.
	Uniqueness float64
}

// Flagged reports whether f passes its kind's bar, the one rule for what a list, a count or a
// map marks: a Label finding doubted as suspect.Suspect.Doubted says (Score from FlagLabel and
// a suggestion other than the label: a sample whose label is still its most probable class is
// not flagged), an Outlier scoring FlagOutlier or more, every Duplicate and Leak.
func (f Finding) Flagged() bool {
	switch f.Kind {
	case Label:
		return suspect.Suspect{Label: f.Label, Suggested: f.Suggested, Score: f.Score}.Doubted()
	case Outlier:
		return f.Score >= FlagOutlier
	}
	return true
}

// Description says in one sentence what a finding of kind k is.
func (k Kind) Description() string {
	switch k {
	case Label:
		return "A sample whose given label the cross-validated CNN doubts; the suggestion is the class it finds most probable."
	case Outlier:
		return "A sample unlike every class: not a digit (a letter, a symbol, noise, a blank or near-blank image, a filled shape, an inverted scan, two digits in one image)."
	case Duplicate:
		return "Two samples of the set that are the same image up to small changes (an exact copy, a shift of a pixel or two, mild noise, a change of intensity); a group of copies is listed from its first sample."
	case Leak:
		return "A sample of the set that is such a copy of a sample of the other set: leakage that inflates any accuracy measured on it."
	}
	return ""
}

// ScoreNote says what kind k's score is.
func (k Kind) ScoreNote() string {
	switch k {
	case Label:
		return "1 − the out-of-fold probability of the given label (0–1; flagged from 0.5 when the most probable class is another)."
	case Outlier:
		return "Σ over the detectors (pixel statistics, pixel descriptors, CNN features) of ln(1 + z), z the robust z-score of the sample's mean distance to its 10 nearest neighbours (0 when not above the median; flagged from 6)."
	case Duplicate, Leak:
		return "the cosine similarity of the two images' pixels at their best alignment (0 and ±1 pixel, and around the centre-of-mass shift); 1 = identical up to shift and intensity (listed from the threshold, 0.99 by default, when the match is at least four times closer, in 1 − similarity, than any other sample: a plain stroke like many others is no copy)."
	}
	return ""
}
