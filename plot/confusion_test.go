package plot

import (
	"image"
	"testing"

	"idxlabel/suspect/confusion"
)

// handMatrix has counts row 0 = [5 1 0], row 1 = [0 9 2], row 2 = [3 0 4] (classes 0–2).
func handMatrix(t *testing.T) *confusion.Matrix {
	t.Helper()
	counts := [][]int{{5, 1, 0}, {0, 9, 2}, {3, 0, 4}}
	var labels []int
	var probs []float32
	for r, row := range counts {
		for c, n := range row {
			for range n {
				labels = append(labels, r)
				p := make([]float32, 3)
				p[c] = 1
				probs = append(probs, p...)
			}
		}
	}
	m, err := confusion.New(labels, probs, []int{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestConfusionChart checks that every cell's centre maps back to its label and class, that
// pixels off the grid map to none, that a larger count is drawn darker in the light style, and
// that a hidden diagonal is drawn Faint.
func TestConfusionChart(t *testing.T) {
	m := handMatrix(t)
	names := map[int]string{0: "zero", 1: "один", 2: "ひ"} // "ひ" is not in the Go font: shown as 2
	for _, hide := range []bool{false, true} {
		s := Light()
		c := NewConfusion(m, ConfusionOptions{Name: func(k int) string { return names[k] }, HideDiagonal: hide, Figures: true, Style: s})
		img := c.Draw()
		if w, h := c.Size(); img.Rect.Dx() != w || img.Rect.Dy() != h {
			t.Fatalf("image %v, size %d×%d", img.Rect, w, h)
		}
		centre := func(r, k int) (int, int) { return c.gx + k*c.cell + 3, c.gy + r*c.cell + 3 }
		for r := range 3 {
			for k := range 3 {
				x, y := centre(r, k)
				l, cl, ok := c.CellAt(x, y)
				if !ok || l != r || cl != k {
					t.Fatalf("cell (%d, %d): CellAt = %d, %d, %v", r, k, l, cl, ok)
				}
			}
		}
		for r := range 3 {
			for k := range 3 {
				rc, ok := c.CellRect(r, k)
				x, y := centre(r, k)
				if l, cl, in := c.CellAt(rc.Min.X+1, rc.Max.Y-2); !ok || !(image.Point{x, y}.In(rc)) || !in || l != r || cl != k {
					t.Fatalf("cell (%d, %d): CellRect = %v, %v", r, k, rc, ok)
				}
			}
		}
		if _, ok := c.CellRect(3, 0); ok {
			t.Error("a cell for a label without a row")
		}
		if _, _, ok := c.CellAt(c.gx-1, c.gy+1); ok {
			t.Error("left of the grid is a cell")
		}
		if _, _, ok := c.CellAt(c.gx+3*c.cell+1, c.gy+1); ok {
			t.Error("right of the grid is a cell")
		}
		lum := func(r, k int) int {
			p := img.RGBAAt(centre(r, k))
			return int(p.R) + int(p.G) + int(p.B)
		}
		if hide {
			if img.RGBAAt(centre(1, 1)) != s.Faint || !(lum(2, 0) < lum(1, 2) && lum(1, 2) < lum(0, 1)) {
				t.Errorf("diagonal hidden: (1, 1) %v; brightness of counts 3, 2, 1: %d %d %d", img.RGBAAt(centre(1, 1)), lum(2, 0), lum(1, 2), lum(0, 1))
			}
		} else if !(lum(1, 1) < lum(0, 0) && lum(0, 0) < lum(0, 1) && lum(0, 1) < lum(0, 2)) || img.RGBAAt(centre(0, 2)) != s.Background {
			t.Errorf("brightness of counts 9, 5, 1, 0: %d %d %d %d", lum(1, 1), lum(0, 0), lum(0, 1), lum(0, 2))
		}
		if c.cols[0] != "zero" || c.cols[1] != "один" || c.cols[2] != "2" {
			t.Errorf("column labels %q", c.cols)
		}
	}
}

// TestConfusionChartOfManyClasses: the chart of the most classes a CNN scan can have
// (cnn.MaxClasses, 1024) stays a few thousand pixels square (16-pixel cells made it 16,642 ×
// 16,500 pixels, 1.1 GB), labels every k-th class with k keeping the labels a line apart, and
// still maps each cell's pixels to its label and class.
func TestConfusionChartOfManyClasses(t *testing.T) {
	for _, n := range []int{26, 256, 1024} {
		classes := make([]int, n)
		for k := range classes {
			classes[k] = k
		}
		labels := make([]int, 2*n)
		probs := make([]float32, 2*n*n)
		for i := range labels {
			labels[i] = i % n
			probs[i*n+(i/2)%n] = 1
		}
		m, err := confusion.New(labels, probs, classes)
		if err != nil {
			t.Fatal(err)
		}
		c := NewConfusion(m, ConfusionOptions{Figures: true, Style: Dark()})
		w, h := c.Size()
		if n*c.cell > maxGrid || w > maxGrid+600 || h > maxGrid+600 || c.cell < 2 {
			t.Fatalf("%d classes: chart %d×%d, cells of %d pixels", n, w, h, c.cell)
		}
		if c.cell*c.step < c.t.height+2 || (c.step > 1 && c.cell*(c.step-1) >= c.t.height+2) {
			t.Fatalf("%d classes: cells of %d pixels labelled every %d", n, c.cell, c.step)
		}
		if img := c.Draw(); img.Rect.Dx() != w || img.Rect.Dy() != h {
			t.Fatalf("drawn %v, size %d×%d", img.Rect, w, h)
		}
		for _, r := range []int{0, n / 2, n - 1} {
			x, y := c.gx+r*c.cell+c.cell/2, c.gy+(n-1-r)*c.cell+c.cell/2
			if l, k, ok := c.CellAt(x, y); !ok || l != n-1-r || k != r {
				t.Fatalf("%d classes: pixel (%d, %d) is cell %d, %d, %v; want %d, %d", n, x, y, l, k, ok, n-1-r, r)
			}
		}
		t.Logf("%d classes: %d×%d pixels, cells of %d, every %d labelled", n, w, h, c.cell, c.step)
	}
}

// A fixed table draws as the matrix of the same counts does (the per-row figures made from its
// counts as the matrix makes them), and its axis and figure titles are the ones given.
func TestTableDrawsAsTheMatrix(t *testing.T) {
	m := handMatrix(t)
	opts := ConfusionOptions{Figures: true, Style: Light()}
	want := NewConfusion(m, opts).Draw()
	got := NewTable([]int{0, 1, 2}, []int{0, 1, 2}, m.Counts(), opts).Draw()
	if !got.Rect.Eq(want.Rect) || string(got.Pix) != string(want.Pix) {
		t.Fatal("the table's chart differs from the matrix's")
	}
	opts.RowTitle, opts.ColTitle, opts.FigureTitles = "bob", "carol", [3]string{"samples", "agree", "differ"}
	titled := NewTable([]int{0, 1, 2}, []int{0, 1, 2}, m.Counts(), opts).Draw()
	if string(titled.Pix) == string(want.Pix) {
		t.Fatal("the titles given are not drawn")
	}
}
