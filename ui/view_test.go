package ui

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The view model's per-key operations (grow after an append, shrink after one undone, clearing
// the selection, listing it) leave it as rebuilding it from its order would: the same
// positions, selection and counts.
func TestViewKeepsItsIndexWithoutRebuilding(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	n := 50
	v := newView(nil, n)
	for i := range n {
		if rng.IntN(3) > 0 {
			v.order = append(v.order, i)
		}
	}
	v.reindex(n)
	check := func(what string) {
		t.Helper()
		w := &view{order: slices.Clone(v.order), selected: slices.Clone(v.selected), cursor: v.cursor, anchor: v.anchor}
		w.reindex(n)
		if !slices.Equal(v.pos, w.pos) || v.nsel != w.nsel || len(v.selected) != n {
			t.Fatalf("%s: pos %v, %d selected; rebuilt: pos %v, %d selected", what, v.pos, v.nsel, w.pos, w.nsel)
		}
		for i, s := range v.selected {
			if s && !slices.Contains(v.marked, i) {
				t.Fatalf("%s: sample %d selected but not marked", what, i)
			}
		}
		var sel []int
		for _, i := range v.order {
			if v.selected[i] {
				sel = append(sel, i)
			}
		}
		if got := v.Selection(); v.nsel > 0 && !slices.Equal(got, sel) {
			t.Fatalf("%s: selection %v, want %v", what, got, sel)
		}
	}
	for step := range 300 {
		switch rng.IntN(6) {
		case 0: // an append of k samples, shown at the end
			k := 1 + rng.IntN(3)
			for i := n; i < n+k; i++ {
				v.order = append(v.order, i)
			}
			n += k
			v.grow(n)
			check("grow")
		case 1: // the last append undone
			k := min(n-1, 1+rng.IntN(3))
			n -= k
			if !v.shrink(n) {
				t.Fatalf("step %d: shrink refused samples at the end of the order", step)
			}
			check("shrink")
		case 2:
			if v.Len() > 0 {
				v.click(rng.IntN(v.Len()), rng.IntN(2) == 0, rng.IntN(2) == 0)
			}
			check("click")
		case 3:
			v.clearSelection()
			if v.nsel != 0 || slices.Contains(v.selected, true) {
				t.Fatal("clearSelection left a sample selected")
			}
			check("clear")
		case 4:
			v.selectAll()
			check("select all")
		case 5: // Ctrl-clicks: a few samples toggled, some twice
			for range 1 + rng.IntN(4) {
				if v.Len() > 0 {
					v.click(rng.IntN(v.Len()), false, true)
				}
			}
			check("ctrl-clicks")
		}
	}
	// Samples dropped from the middle of the order: shrink says so and changes nothing.
	v.order = append([]int{n - 1}, slices.DeleteFunc(slices.Clone(v.order), func(i int) bool { return i == n-1 })...)
	v.reindex(n)
	if v.shrink(n - 1) {
		t.Fatal("shrink dropped a sample shown at the front")
	}
}
