package suspect

import (
	"errors"
	"fmt"
	"idxlabel/sample"
	"slices"
)

// ErrNewClass: a label that the scores being reused have no column for (a class added since
// the scan): scan again.
var ErrNewClass = errors.New("a label the scan did not know")

// Rescore returns the verdicts of a finished scan's probabilities against the labels as they
// are now, as ScanCNN gives them: probs holds N×len(classes) values (CNNResult.Probs, classes
// ascending), labels N labels (sample.NoLabel for none). suspects lists the labelled samples, most
// suspicious first (Score 1 − p(label)); unlabelled the others, most confident first. It is how
// a cached scan (suspect/scancache) serves a dataset whose labels changed since: the networks
// learnt from the labels of then, so a relabelled sample keeps the probabilities it had.
// Errors: sizes that do not fit, or ErrNewClass (naming the sample and label).
func Rescore(classes []int, probs []float32, labels []int) (suspects, unlabelled []Suspect, err error) {
	nc := len(classes)
	if nc == 0 || len(probs) != len(labels)*nc {
		return nil, nil, fmt.Errorf("%d probabilities for %d samples of %d classes", len(probs), len(labels), nc)
	}
	for i, l := range labels {
		p := probs[i*nc : (i+1)*nc]
		if l == sample.NoLabel {
			unlabelled = append(unlabelled, verdict(i, sample.NoLabel, -1, p, classes))
			continue
		}
		c, ok := slices.BinarySearch(classes, l)
		if !ok {
			return nil, nil, fmt.Errorf("%w: sample %d has label %d", ErrNewClass, i, l)
		}
		suspects = append(suspects, verdict(i, l, c, p, classes))
	}
	sortSuspects(suspects)
	sortSuggestions(unlabelled)
	return suspects, unlabelled, nil
}
