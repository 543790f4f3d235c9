package report

import (
	"context"
	"slices"
	"strings"
	"testing"

	"idxlabel/plot"
	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/confusion"
	"idxlabel/suspect/health"
)

// The confusion matrix and map sections: a chart and a table row per given label (with its
// name), a map image with its key, and a refusal of labels that do not match the points.
func TestConfusionAndMapSections(t *testing.T) {
	labels := []int{0, 0, 1, 1, sample.NoLabel}
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

// ScanViews: the matrix of the scan's rows, the map of its features with the flagged label
// errors and outliers marked once each (a sample both is marked both ways), and their sections;
// no scan, no views.
func TestScanViews(t *testing.T) {
	const n = 60
	labels := make([]int, n)
	probs := make([]float32, 2*n)
	feats := make([]float32, n*cnn.Features)
	for i := range n {
		c := i % 2
		labels[i] = c
		probs[2*i+c], probs[2*i+1-c] = 0.9, 0.1
		for k := range cnn.Features {
			feats[i*cnn.Features+k] = float32((i*7+k*13)%11) / 11
		}
		feats[i*cnn.Features+c] += 5 // two clusters
	}
	res := &health.Result{Scan: &suspect.CNNResult{Probs: probs, Classes: []int{0, 1}, Features: feats}, Findings: map[health.Kind][]health.Finding{
		health.Label: {{Kind: health.Label, Index: 7, Label: 1, Suggested: 0, Score: 0.9}, {Kind: health.Label, Index: 3, Label: 1, Suggested: 0, Score: 0.8},
			{Kind: health.Label, Index: 9, Label: 1, Suggested: 0, Score: 0.2}, {Kind: health.Label, Index: 11, Label: 1, Suggested: 1, Score: 0.6}},
		health.Outlier: {{Kind: health.Outlier, Index: 3, Score: 9}, {Kind: health.Outlier, Index: 20, Score: 6}, {Kind: health.Outlier, Index: 21, Score: 1}},
	}}
	ctx := context.Background()
	v, err := NewScanViews(ctx, res, labels, false, nil)
	if err != nil || v.Confusion == nil || v.XY != nil || v.Confusion.Count(1, 1) != n/2 {
		t.Fatalf("without the map: %v", err)
	}
	if s, err := v.Sections(nil); err != nil || len(s) != 1 || s[0].Title != "Confusion matrix" {
		t.Fatalf("sections without the map: %v", err)
	}
	var seen []float64
	v, err = NewScanViews(ctx, res, labels, true, func(f float64) { seen = append(seen, f) })
	if err != nil || len(v.XY) != 2*n || len(seen) == 0 {
		t.Fatalf("with the map: %v, %d progress calls", err, len(seen))
	}
	want := []plot.Marked{{Index: 3, Marks: plot.Suspect | plot.Outlier}, {Index: 7, Marks: plot.Suspect}, {Index: 20, Marks: plot.Outlier}}
	if !slices.Equal(v.Marked, want) {
		t.Fatalf("marked %+v", v.Marked)
	}
	if s, err := v.Sections(nil); err != nil || len(s) != 2 || s[1].Title != "Map of the dataset" {
		t.Fatalf("sections: %v", err)
	}
	if v, err := NewScanViews(ctx, &health.Result{}, labels, true, nil); err != nil || v.Confusion != nil {
		t.Fatal("views without a scan")
	}
	if _, err := NewScanViews(ctx, res, labels[:10], true, nil); err == nil {
		t.Fatal("a scan of other samples was taken")
	}
}
