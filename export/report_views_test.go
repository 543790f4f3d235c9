package export

import (
	"strings"
	"testing"

	"idxlabel/plot"
	"idxlabel/store"
	"idxlabel/suspect/confusion"
)

// The confusion matrix and map sections: a chart and a table row per given label (with its
// name), a map image with its key, and a refusal of labels that do not match the points.
func TestConfusionAndMapSections(t *testing.T) {
	labels := []int{0, 0, 1, 1, store.NoLabel}
	probs := []float32{0.9, 0.1, 0.2, 0.8, 0.1, 0.9, 0.6, 0.4, 0.5, 0.5}
	m, err := confusion.New(labels, probs, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	name := func(c int) string { return map[int]string{0: "zero"}[c] }
	s := ConfusionSection(m, name)
	if s.Image == nil || s.Table == nil || len(s.Table.Rows) != 2 || s.Table.Rows[0][0] != "0 zero" ||
		s.Table.Rows[0][3] != "1" || s.Table.Rows[1][2] != "50.00%" {
		t.Fatalf("confusion section: %+v", s.Table)
	}
	xy := []float32{0, 0, 1, 1, 5, 5, 6, 6, 3, 3}
	ms, err := MapSection(xy, labels, []int{0, 1}, []plot.Marked{{Index: 1, Marks: plot.Suspect}}, name)
	if err != nil || ms.Image == nil || ms.Image.Bounds().Dx() != 1000 || !strings.Contains(ms.Caption, "given label") {
		t.Fatalf("map section: %v", err)
	}
	if _, err := MapSection(xy, labels[:3], []int{0, 1}, nil, nil); err == nil {
		t.Fatal("labels of another length were taken")
	}
}
