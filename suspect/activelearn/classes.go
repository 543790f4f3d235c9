package activelearn

import (
	"fmt"
	"slices"

	"idxlabel/sample"
	"idxlabel/suspect/cnn"
)

// labelling is the typed labels as class indices.
type labelling struct {
	classes  []int // the distinct labels, ascending
	cls      []int // each sample's class index, −1 for sample.NoLabel
	labelled []int // the labelled samples, ascending
}

// newLabelling maps labels to class indices. Errors: more than cnn.MaxClasses classes.
func newLabelling(labels []int) (*labelling, error) {
	l := &labelling{cls: make([]int, len(labels))}
	seen := map[int]bool{}
	for _, v := range labels {
		if v != sample.NoLabel && !seen[v] {
			seen[v] = true
			l.classes = append(l.classes, v)
			if len(l.classes) > cnn.MaxClasses {
				return nil, fmt.Errorf("more than %d classes", cnn.MaxClasses)
			}
		}
	}
	slices.Sort(l.classes)
	for i, v := range labels {
		l.cls[i] = -1
		if v != sample.NoLabel {
			l.cls[i], _ = slices.BinarySearch(l.classes, v)
			l.labelled = append(l.labelled, i)
		}
	}
	return l, nil
}

// typedLabelling returns the typed labels of labels (N of them, sample.NoLabel for none) as
// class indices: those accepted marks (nil, or N marks) are taken for no label. Errors: labels
// or marks not n long, more than cnn.MaxClasses classes.
func typedLabelling(labels []int, n int, accepted []bool) (*labelling, error) {
	if len(labels) != n || accepted != nil && len(accepted) != n {
		return nil, fmt.Errorf("%d labels and %d accepted marks for %d samples", len(labels), len(accepted), n)
	}
	typed := labels
	if accepted != nil {
		typed = slices.Clone(labels)
		for i, a := range accepted {
			if a {
				typed[i] = sample.NoLabel
			}
		}
	}
	return newLabelling(typed)
}
