package annotators

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"idxlabel/annotate"
	"idxlabel/ui/mode/modetest"
)

// planted returns annotators' label files of the generated pair: each differs from the pair's
// labels (i mod 10) on about share of the samples, at random (seed), to a random class.
func planted(t *testing.T, dir string, seed uint64, share float64, names ...string) []string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	var paths []string
	for _, name := range names {
		change := map[int]int{}
		for i := range n {
			if r.Float64() < share {
				change[i] = r.IntN(10)
			}
		}
		paths = append(paths, annotator(t, dir, name, change))
	}
	return paths
}

// reference is annotate's panel of the open labels of ds and the annotators' files, read
// apart from the comparison.
func reference(t *testing.T, open []int32, cmp *Comparison) *annotate.Panel {
	t.Helper()
	cols := []annotate.Column{{Name: "open", Labels: open}}
	for a, l := range cmp.Others {
		cols = append(cols, annotate.Column{Name: cmp.Names[a+1], Labels: slices.Clone(l)})
	}
	p, err := annotate.NewPanel(cols)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The chart beside the grid is the confusion matrix of the pair chosen, its counts annotate's
// Confusion of those two annotators, for every pair and over several seeds; a click on a cell
// lists in the grid exactly the samples where the first gave the row's label and the second
// the column's (annotate's Cell), and Every disagreement lists them all again.
func TestPairMatrixAndItsCells(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		dir := t.TempDir()
		ip, lp := writePair(t, dir)
		ds := open(t, ip, lp)
		files := planted(t, dir, seed, 0.2, "bob", "carol")
		c := modetest.New(ds)
		j, q := testJobs()
		d, win := testWindow(t)
		a := New(c, j, d, win, widget.NewLabel("the grid"))
		cmp, f, err := compareFile(ds, n, nil, "g", files[0])
		if err == nil {
			cmp, f, err = compareFile(ds, n, cmp, "g", files[1])
		}
		if err != nil {
			t.Fatal(err)
		}
		a.Mode.set(cmp, f, ds.Gen())
		c.Enter(a.Mode)
		win.SetContent(a.Mode.Center())
		ref := reference(t, openLabels(ds, n), cmp)
		for _, pair := range [][2]int{{0, 1}, {0, 2}, {1, 2}} {
			if pair != [2]int{0, 1} {
				a.Mode.view.Pair.SetSelectedIndex(slices.Index(a.Mode.view.pairs, pair)) // the person's choice
				if a.Mode.Pair != pair {
					t.Fatalf("seed %d: choosing %v made the pair %v", seed, pair, a.Mode.Pair)
				}
				if s := a.Mode.Status(c.State()); !strings.HasSuffix(s, " …") || j.Running() != 1 {
					t.Fatalf("seed %d, %v: the matrix is not being made (%q)", seed, pair, s)
				}
				run(t, q)
			}
			a.Mode.Shown(c.State())
			want, _ := ref.Confusion(pair[0], pair[1])
			got := a.Mode.figs.Table
			if a.Mode.figs.Pair != pair || got == nil || !slices.Equal(got.Classes, want.Classes) || !slices.Equal(got.Counts, want.Counts) {
				t.Fatalf("seed %d, pair %v: matrix %+v, annotate's %+v", seed, pair, got, want)
			}
			if a.Mode.view.Table != got || !strings.Contains(a.Mode.view.Pair.Selected, cmp.Names[pair[1]]) {
				t.Fatalf("seed %d, pair %v: the chart drawn is not the pair's (choice %q)", seed, pair, a.Mode.view.Pair.Selected)
			}
			// Every cell of one row and the diagonal: a click lists exactly annotate's cell.
			for _, xy := range [][2]int{{3, 3}, {3, 5}, {5, 3}, {0, 9}} {
				tapCell(t, a.Mode.view, xy[0], xy[1])
				want := ref.Cell(pair[0], pair[1], int32(xy[0]), int32(xy[1]))
				if !slices.Equal(c.Order, want) || !slices.Equal(a.Mode.List.Order, want) {
					t.Fatalf("seed %d, pair %v, cell %v: the grid lists %v, want %v", seed, pair, xy, c.Order, want)
				}
				a.Mode.Shown(c.State()) // the window's render after the change
				if !strings.Contains(a.Mode.view.Note.Text, "when chosen") {
					t.Fatalf("the note %q", a.Mode.view.Note.Text)
				}
			}
			test.Tap(a.Mode.view.Every)
			if !slices.Equal(c.Order, cmp.Order) {
				t.Fatalf("seed %d: Every disagreement lists %d samples, want %d", seed, len(c.Order), len(cmp.Order))
			}
		}
		// The detail panel: each annotator's agreement with the open labels, and its κ.
		about := a.Mode.About(c.State(), cmp.Order[0]).Text
		k := ref.Cohen(0, 2)
		if !strings.Contains(about, "carol "+percent(k.Observed)+" (κ "+three(k.Value)+")") {
			t.Fatalf("seed %d: the detail panel %q lacks carol's agreement %s", seed, about, percent(k.Observed))
		}
	}
}

// A digit typed while the pair's matrix is made again is applied at once; the matrix made
// then is of the labels as adjudicated, and a cell clicked afterwards lists the sample where
// it is now.
func TestKeyWhileTheMatrixIsMade(t *testing.T) {
	dir := t.TempDir()
	ip, lp := writePair(t, dir)
	ds := open(t, ip, lp)
	bob := annotator(t, dir, "bob", map[int]int{5: 3, 77: 1, 140: 9})
	c := modetest.New(ds)
	j, q := testJobs()
	d, win := testWindow(t)
	a := New(c, j, d, win, widget.NewLabel("the grid"))
	cmp, f, err := compareFile(ds, n, nil, "g", bob)
	if err != nil {
		t.Fatal(err)
	}
	a.Mode.set(cmp, f, ds.Gen())
	c.Enter(a.Mode)
	win.SetContent(a.Mode.Center())
	a.Mode.Shown(c.State())
	first := a.Mode.view.Table
	if first == nil || first.Counts[5*10+3] != 1 {
		t.Fatalf("the first matrix %+v", first)
	}
	a.Mode.Label(c, 3) // sample 5 (open 5, bob 3) adjudicated 3
	a.Mode.Status(c.State())
	if !a.Mode.figuring || j.Running() != 1 {
		t.Fatal("the matrix is not made again after an adjudication")
	}
	a.Mode.Label(c, 1) // typed while it is made: sample 77 (open 7, bob 1) adjudicated 1
	if ds.Label(5) != 3 || ds.Label(77) != 1 || c.At != 2 {
		t.Fatalf("labels %d %d, cursor %d: a key typed while the matrix is made was not applied", ds.Label(5), ds.Label(77), c.At)
	}
	run(t, q)
	a.Mode.Status(c.State()) // the second edit: made again
	run(t, q)
	a.Mode.Shown(c.State())
	want, _ := reference(t, openLabels(ds, n), cmp).Confusion(0, 1)
	got := a.Mode.view.Table
	if got == first || !slices.Equal(got.Counts, want.Counts) || got.Counts[3*10+3] != 31 || got.Counts[1*10+1] != 31 {
		t.Fatalf("the matrix after adjudicating: %v, want %v", got.Counts, want.Counts)
	}
	tapCell(t, a.Mode.view, 9, 9)
	if slices.Contains(c.Order, 140) || len(c.Order) != 30 { // 140 is open 0, bob 9
		t.Fatalf("cell (9, 9) lists %d samples", len(c.Order))
	}
	tapCell(t, a.Mode.view, 0, 9)
	if !slices.Equal(c.Order, []int{140}) {
		t.Fatalf("cell (0, 9) lists %v", c.Order)
	}
}

// tapCell taps the chart of v at the cell of labels x (rows) and y (columns).
func tapCell(t *testing.T, v *pairView, x, y int) {
	t.Helper()
	rc, ok := v.Drawn.CellRect(x, y)
	if !ok {
		t.Fatalf("no cell (%d, %d)", x, y)
	}
	test.TapAt(v.Chart, fyne.NewPos(float32(rc.Min.X+rc.Dx()/2), float32(rc.Min.Y+rc.Dy()/2)))
}
