package report

import (
	"context"
	"fmt"
	"image"
	"slices"
	"strconv"

	"idxlabel/plot"
	"idxlabel/sample"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/confusion"
	"idxlabel/suspect/embed"
	"idxlabel/suspect/health"
	"idxlabel/suspect/nn"
)

// ConfusionSection returns the report's section for the confusion matrix m: the chart (rows the
// given labels, columns the out-of-fold predicted classes, cells coloured by count, per-class
// figures; plot.NewConfusion in the light style) and the per-class figures as a table. name
// (may be nil) gives a class's name for the chart and the table.
func ConfusionSection(m *confusion.Matrix, name func(c int) string) Section {
	img := plot.NewConfusion(m, plot.ConfusionOptions{Name: name, Figures: true, Style: plot.Light()}).Draw()
	t := &Table{Header: []string{"class", "samples", "out-of-fold accuracy", "suspects", "predicted as it"}}
	for _, c := range m.Classes() {
		t.Rows = append(t.Rows, []string{classText(c.Label, name), strconv.Itoa(c.Samples),
			fmt.Sprintf("%.2f%%", 100*c.Accuracy()), strconv.Itoa(c.Suspects), strconv.Itoa(c.Predicted)})
	}
	return Section{
		Title:   "Confusion matrix",
		Caption: "Rows are the given labels, columns the class the cross-validated CNN predicts for the sample when it did not train on it (out of fold). Off the diagonal are the samples whose label the model disagrees with: the likely label errors and the classes that are confused.",
		Image:   img,
		Alt:     "confusion matrix of the given labels against the out-of-fold predictions",
		Table:   t,
	}
}

// MapSection returns the report's section for the 2-D map: every sample at its place in xy
// (N×2, from suspect/embed), coloured by its given label (labels, N, sample.NoLabel for none, in
// classes' palette order), with the samples of marked ringed or crossed (suspects, outliers).
// name (may be nil) names the classes in the key. Errors: those of plot.NewMap (an odd length,
// a value that is not finite) and labels of another length than the points.
func MapSection(xy []float32, labels, classes []int, marked []plot.Marked, name func(c int) string) (Section, error) {
	pm, err := plot.NewMap(xy)
	if err != nil {
		return Section{}, err
	}
	if len(labels) != pm.Len() {
		return Section{}, fmt.Errorf("%d labels for %d points of the map", len(labels), pm.Len())
	}
	colour := make([]uint16, len(labels))
	for i, l := range labels {
		colour[i] = plot.NoColour
		if k, ok := slices.BinarySearch(classes, l); ok && l != sample.NoLabel {
			colour[i] = uint16(k)
		}
	}
	keys := plot.ClassKeys(classes, name)
	seen := plot.Marks(0)
	for _, m := range marked {
		seen |= m.Marks
	}
	for _, k := range []struct {
		m    plot.Marks
		text string
	}{{plot.Suspect, "likely label error"}, {plot.Outlier, "outlier"}} {
		if seen&k.m != 0 {
			keys = append(keys, plot.Key{Marks: k.m, Text: k.text})
		}
	}
	var img image.Image = pm.Image(1000, 800, plot.Layer{Colour: colour, Palette: plot.Palette(len(classes)), Marked: marked}, keys, plot.Light())
	return Section{
		Title:   "Map of the dataset",
		Caption: "Every sample as a point, placed so that samples the CNN sees as alike sit together (a neighbour-graph layout of its features). Colour is the given label: a point of one colour inside another's cluster is a likely label error; points between clusters are ambiguous.",
		Image:   img,
		Alt:     "2-D map of the samples coloured by label",
	}, nil
}

// classText shows class c by number, and by name too when name gives one.
func classText(c int, name func(int) string) string {
	s := strconv.Itoa(c)
	if name != nil {
		if n := name(c); n != "" {
			s += " " + n
		}
	}
	return s
}

// ScanViews is what a health check's CNN scan shows beyond its findings: the confusion matrix
// of the given labels against the out-of-fold predictions and, when laid out, the 2-D map of
// the scan's features with the flagged label errors (plot.Suspect) and outliers (plot.Outlier)
// marked. The command line and the window both make it (NewScanViews), for the report's
// sections (Sections) and the CSV files.
type ScanViews struct {
	Confusion *confusion.Matrix // nil when no scan ran
	XY        []float32         // N×2 (suspect/embed.Map); nil when the map was not laid out
	Labels    []int             // the N given labels the scan saw (its rows)
	Classes   []int             // the scan's classes, ascending
	Marked    []plot.Marked     // the flagged label errors and outliers, by row, ascending
}

// NewScanViews builds the views of res, a health check whose scan (res.Scan; none: the zero
// ScanViews) has one row per label of labels, and whose Label and Outlier findings name those
// rows: the confusion matrix, and with withMap the 2-D map (embed.Map; progress, may be nil,
// sees its share done). Growth: O(N·classes) for the matrix, embed.Map's for the map. Errors:
// confusion.New's (a scan of other samples), the layout's, or the context's when cancelled.
func NewScanViews(ctx context.Context, res *health.Result, labels []int, withMap bool, progress func(float64)) (ScanViews, error) {
	var v ScanViews
	if res.Scan == nil {
		return v, nil
	}
	m, err := confusion.New(labels, res.Scan.Probs, res.Scan.Classes)
	if err != nil {
		return v, err
	}
	v.Confusion, v.Labels, v.Classes = m, labels, res.Scan.Classes
	if !withMap {
		return v, nil
	}
	if v.XY, err = embed.Map(ctx, nn.Vectors{Data: res.Scan.Features, N: len(labels), Dim: cnn.Features},
		embed.MapOptions{Options: embed.Options{Progress: progress}}); err != nil {
		return ScanViews{}, err
	}
	marks := map[int]plot.Marks{}
	for _, f := range res.Findings[health.Label] {
		if f.Kind == health.Label && f.Flagged() {
			marks[f.Index] |= plot.Suspect
		}
	}
	for _, f := range res.Findings[health.Outlier] {
		if f.Kind == health.Outlier && f.Flagged() {
			marks[f.Index] |= plot.Outlier
		}
	}
	for i, mk := range marks {
		v.Marked = append(v.Marked, plot.Marked{Index: i, Marks: mk})
	}
	slices.SortFunc(v.Marked, func(a, b plot.Marked) int { return a.Index - b.Index })
	return v, nil
}

// Sections returns the report's sections of v: the confusion matrix (ConfusionSection) and the
// map (MapSection) when laid out; none without a scan. name (may be nil) names the classes.
// Errors: MapSection's.
func (v ScanViews) Sections(name func(c int) string) ([]Section, error) {
	var out []Section
	if v.Confusion != nil {
		out = append(out, ConfusionSection(v.Confusion, name))
	}
	if v.XY != nil {
		s, err := MapSection(v.XY, v.Labels, v.Classes, v.Marked, name)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}
