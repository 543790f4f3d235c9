package annotate

import (
	"cmp"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// columns turns a samples×annotators table into a panel's columns.
func columns(rows [][]int32) []Column {
	k := len(rows[0])
	cols := make([]Column, k)
	for a := range k {
		cols[a].Name = string(rune('a' + a))
		for _, r := range rows {
			cols[a].Labels = append(cols[a].Labels, r[a])
		}
	}
	return cols
}

// fromCounts builds ratings from a table of how many of k raters gave each category to each
// subject (Fleiss' κ does not depend on which rater gave which).
func fromCounts(counts [][]int) [][]int32 {
	var rows [][]int32
	for _, c := range counts {
		var r []int32
		for cat, n := range c {
			for range n {
				r = append(r, int32(cat+1))
			}
		}
		rows = append(rows, r)
	}
	return rows
}

func mustPanel(t testing.TB, cols []Column) *Panel {
	t.Helper()
	p, err := NewPanel(cols)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// Fleiss (1971), "Measuring nominal scale agreement among many raters", Psychological Bulletin
// 76(5): 30 patients, each given one of 5 diagnoses (1 depression, 2 personality disorder,
// 3 schizophrenia, 4 neurosis, 5 other) by 6 psychiatrists (Sandifer et al. 1968); κ = 0.430.
// The ratings are R's irr::diagnoses as coded in statsmodels' test_inter_rater.py, whose
// kappam.fleiss value is 0.4302445.
func TestFleiss1971Diagnoses(t *testing.T) {
	diagnoses := [][]int32{
		{4, 4, 4, 4, 4, 4}, {2, 2, 2, 5, 5, 5}, {2, 3, 3, 3, 3, 5}, {5, 5, 5, 5, 5, 5}, {2, 2, 2, 4, 4, 4},
		{1, 1, 3, 3, 3, 3}, {3, 3, 3, 3, 5, 5}, {1, 1, 3, 3, 3, 4}, {1, 1, 4, 4, 4, 4}, {5, 5, 5, 5, 5, 5},
		{1, 4, 4, 4, 4, 4}, {1, 2, 4, 4, 4, 4}, {2, 2, 2, 3, 3, 3}, {1, 4, 4, 4, 4, 4}, {2, 2, 4, 4, 4, 5},
		{3, 3, 3, 3, 3, 5}, {1, 1, 1, 4, 5, 5}, {1, 1, 1, 1, 1, 2}, {2, 2, 4, 4, 4, 4}, {1, 3, 3, 5, 5, 5},
		{5, 5, 5, 5, 5, 5}, {2, 4, 4, 4, 4, 4}, {2, 2, 4, 5, 5, 5}, {1, 1, 4, 4, 4, 4}, {1, 4, 4, 4, 4, 5},
		{2, 2, 2, 2, 2, 4}, {1, 1, 1, 1, 5, 5}, {2, 2, 4, 4, 4, 4}, {1, 3, 3, 3, 3, 3}, {5, 5, 5, 5, 5, 5},
	}
	s := mustPanel(t, columns(diagnoses)).Summary()
	if s.Fleiss.N != 30 || !near(s.Fleiss.Value, 0.4302445, 5e-8) {
		t.Fatalf("Fleiss' κ %.7f over %d patients, want 0.4302445 over 30", s.Fleiss.Value, s.Fleiss.N)
	}
	// The diagnoses' totals over the 180 ratings are 26, 26, 30, 55 and 43 (statsmodels'
	// test_aggregate_raters), so P̄_e = Σ (total/180)².
	var pe float64
	for _, c := range []float64{26, 26, 30, 55, 43} {
		pe += (c / 180) * (c / 180)
	}
	if !near(s.Fleiss.Expected, pe, 1e-12) {
		t.Errorf("P̄_e %.6f, want %.6f", s.Fleiss.Expected, pe)
	}
}

// Wikipedia's worked example of Fleiss' κ ("Fleiss' kappa", Worked example; statsmodels'
// test_fleiss_kappa): 10 subjects, 14 raters, 5 categories; κ = 0.210.
func TestFleissWikipediaExample(t *testing.T) {
	counts := [][]int{
		{0, 0, 0, 0, 14}, {0, 2, 6, 4, 2}, {0, 0, 3, 5, 6}, {0, 3, 9, 2, 0}, {2, 2, 8, 1, 1},
		{7, 7, 0, 0, 0}, {3, 2, 6, 3, 0}, {2, 5, 3, 2, 2}, {6, 5, 2, 1, 0}, {0, 2, 2, 3, 7},
	}
	s := mustPanel(t, columns(fromCounts(counts))).Summary()
	if !near(s.Fleiss.Value, 0.210, 5e-4) || !near(s.Fleiss.Observed, 0.378, 5e-4) || !near(s.Fleiss.Expected, 0.213, 5e-4) {
		t.Fatalf("κ %.4f (P̄ %.4f, P̄_e %.4f), want 0.210 (0.378, 0.213)", s.Fleiss.Value, s.Fleiss.Observed, s.Fleiss.Expected)
	}
}

// table makes two raters' labels from a contingency table: table[r][c] items rated r by the
// first and c by the second.
func table(tab [][]int) (a, b []int32) {
	for r, row := range tab {
		for c, n := range row {
			for range n {
				a, b = append(a, int32(r)), append(b, int32(c))
			}
		}
	}
	return a, b
}

// Two textbook tables for Cohen's κ: Wikipedia's "Cohen's kappa", Simple example (50 grant
// proposals, yes/yes 20, yes/no 5, no/yes 10, no/no 15: p_o 0.7, p_e 0.5, κ 0.4), and SAS/STAT's
// PROC FREQ agreement example as statsmodels checks it (table [[0,4,1],[0,8,0],[0,1,5]]:
// κ 0.4842).
func TestCohenTextbookTables(t *testing.T) {
	for _, tc := range []struct {
		tab           [][]int
		po, pe, kappa float64
		tol           float64
	}{
		{[][]int{{20, 5}, {10, 15}}, 0.7, 0.5, 0.4, 1e-12},
		{[][]int{{0, 4, 1}, {0, 8, 0}, {0, 1, 5}}, 13.0 / 19, math.NaN(), 0.4842, 5e-5},
	} {
		a, b := table(tc.tab)
		k, err := Cohen(a, b)
		if err != nil {
			t.Fatal(err)
		}
		if !near(k.Value, tc.kappa, tc.tol) || !near(k.Observed, tc.po, 1e-12) || (!math.IsNaN(tc.pe) && !near(k.Expected, tc.pe, 1e-12)) {
			t.Errorf("%v: κ %.5f (p_o %.4f, p_e %.4f), want %.4f", tc.tab, k.Value, k.Observed, k.Expected, tc.kappa)
		}
	}
}

// Perfect agreement gives κ = 1; annotators who label independently at random give κ ≈ 0
// (within 0.01 at 100,000 samples, three seeds); one class for everything leaves κ undefined.
func TestKappaPerfectChanceAndUndefined(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		n := 100_000
		cols := make([]Column, 5)
		same := make([]int32, n)
		for i := range same {
			same[i] = int32(rng.IntN(10))
		}
		for a := range cols {
			cols[a].Labels = make([]int32, n)
			for i := range n {
				cols[a].Labels[i] = int32(rng.IntN(10))
			}
		}
		s := mustPanel(t, cols).Summary()
		if math.Abs(s.Fleiss.Value) > 0.01 || math.Abs(s.Cohen.Value) > 0.01 {
			t.Errorf("seed %d: chance gives Fleiss %.4f, Cohen %.4f", seed, s.Fleiss.Value, s.Cohen.Value)
		}
		perfect := mustPanel(t, []Column{{Labels: same}, {Labels: same}, {Labels: same}}).Summary()
		if perfect.Fleiss.Value != 1 || perfect.Cohen.Value != 1 || perfect.Raw != 1 {
			t.Errorf("seed %d: perfect agreement gives Fleiss %v, Cohen %v, raw %v", seed, perfect.Fleiss.Value, perfect.Cohen.Value, perfect.Raw)
		}
	}
	one := []int32{3, 3, 3}
	s := mustPanel(t, []Column{{Labels: one}, {Labels: one}}).Summary()
	if !math.IsNaN(s.Cohen.Value) || !math.IsNaN(s.Fleiss.Value) || s.Raw != 1 {
		t.Errorf("one class throughout: Cohen %v, Fleiss %v (want NaN: undefined), raw %v", s.Cohen.Value, s.Fleiss.Value, s.Raw)
	}
}

// naiveSummary is the reference computation: every statistic from its textbook definition, one
// sample and one class at a time, with maps; no shared code with the package.
func naiveSummary(cols [][]int32) (raw, cohen, fleiss float64, fleissN int, agreement map[int32]float64, confused map[int32]int32) {
	n, k := len(cols[0]), len(cols)
	// Cohen: the first two annotators.
	tab := map[[2]int32]float64{}
	var both float64
	for i := range n {
		if cols[0][i] != NoLabel && cols[1][i] != NoLabel {
			tab[[2]int32{cols[0][i], cols[1][i]}]++
			both++
		}
	}
	ra, rb := map[int32]float64{}, map[int32]float64{}
	var po float64
	for key, v := range tab {
		ra[key[0]] += v
		rb[key[1]] += v
		if key[0] == key[1] {
			po += v
		}
	}
	po /= both
	var pe float64
	for c, v := range ra {
		pe += v / both * rb[c] / both
	}
	cohen = (po - pe) / (1 - pe)
	// Raw, Fleiss, per class.
	var compared, agreeing float64
	var pSum float64
	classTotal := map[int32]float64{}
	same, pairs := map[int32]float64{}, map[int32]float64{}
	met := map[[2]int32]float64{}
	for i := range n {
		cnt := map[int32]int{}
		m := 0
		for a := range k {
			if l := cols[a][i]; l != NoLabel {
				cnt[l]++
				m++
			}
		}
		if m < 2 {
			continue
		}
		compared++
		if len(cnt) == 1 {
			agreeing++
		}
		for c, nc := range cnt {
			same[c] += float64(nc * (nc - 1))
			pairs[c] += float64(nc * (m - 1))
			for d, nd := range cnt {
				if c != d {
					met[[2]int32{c, d}] += float64(nc * nd)
				}
			}
		}
		if m == k {
			fleissN++
			var s float64
			for c, nc := range cnt {
				s += float64(nc * (nc - 1))
				classTotal[c] += float64(nc)
			}
			pSum += s / float64(k*(k-1))
		}
	}
	raw = agreeing / compared
	pbar := pSum / float64(fleissN)
	var pbarE float64
	for _, v := range classTotal {
		p := v / float64(fleissN*k)
		pbarE += p * p
	}
	fleiss = (pbar - pbarE) / (1 - pbarE)
	agreement, confused = map[int32]float64{}, map[int32]int32{}
	for c := range pairs {
		agreement[c] = same[c] / pairs[c]
		best, with := 0.0, NoLabel
		for key, v := range met {
			if key[0] == c && (v > best || v == best && key[1] < with) {
				best, with = v, key[1]
			}
		}
		confused[c] = with
	}
	return
}

// On generated panels (2 to 6 annotators, 2 to 40 classes among them negative and large ones,
// up to 30% of labels missing, annotators of varied accuracy), raw agreement, Cohen's κ, Fleiss'
// κ, each class's specific agreement and most confused class equal the reference computation.
func TestSummaryMatchesReference(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		rng := rand.New(rand.NewPCG(seed, 11))
		k := 2 + rng.IntN(5)
		nc := 2 + rng.IntN(39)
		classes := make([]int32, nc)
		for c := range classes {
			classes[c] = int32(c)
			if rng.IntN(4) == 0 {
				classes[c] = int32(rng.IntN(1<<31-1)) - 1<<30 // far outside 0…65535, negative too
			}
		}
		n := 200 + rng.IntN(3000)
		missing := rng.Float64() * 0.3
		truth := make([]int32, n)
		for i := range truth {
			truth[i] = classes[rng.IntN(nc)]
		}
		cols := make([][]int32, k)
		pc := make([]Column, k)
		for a := range k {
			acc := 0.4 + 0.6*rng.Float64()
			cols[a] = make([]int32, n)
			for i := range n {
				switch {
				case rng.Float64() < missing:
					cols[a][i] = NoLabel
				case rng.Float64() < acc:
					cols[a][i] = truth[i]
				default:
					cols[a][i] = classes[rng.IntN(nc)]
				}
			}
			pc[a] = Column{Labels: cols[a]}
		}
		s := mustPanel(t, pc).Summary()
		raw, cohen, fleiss, fleissN, agreement, confused := naiveSummary(cols)
		if !near(s.Raw, raw, 1e-12) || !near(s.Cohen.Value, cohen, 1e-9) || s.Fleiss.N != fleissN || (fleissN > 0 && !near(s.Fleiss.Value, fleiss, 1e-9)) {
			t.Fatalf("seed %d: raw %v cohen %v fleiss %v over %d; reference %v %v %v over %d", seed, s.Raw, s.Cohen.Value, s.Fleiss.Value, s.Fleiss.N, raw, cohen, fleiss, fleissN)
		}
		if !slices.IsSortedFunc(s.Classes, func(x, y ClassAgreement) int { return cmp.Compare(x.Class, y.Class) }) {
			t.Fatalf("seed %d: classes out of order", seed)
		}
		for _, ca := range s.Classes {
			want, ok := agreement[ca.Class]
			if !ok { // given only where no one else labelled the sample: no pair to agree in
				if !math.IsNaN(ca.Agreement) {
					t.Fatalf("seed %d: class %d has agreement %v without any pair", seed, ca.Class, ca.Agreement)
				}
				continue
			}
			if !near(ca.Agreement, want, 1e-12) || ca.Confused != confused[ca.Class] {
				t.Fatalf("seed %d class %d: agreement %v confused %d; reference %v %d", seed, ca.Class, ca.Agreement, ca.Confused, want, confused[ca.Class])
			}
		}
	}
}

// TestSummaryOfDistinctLabels: label files whose every label is a class of its own (hostile, or
// numbers mistaken for labels) cost Summary O(C) memory, not a count per pair of classes that
// meet on a sample and a record per class: 5 annotators × 20,000 samples, 100,000 classes, the
// κ still computed (every sample disagrees: observed 0), the classes' own figures left out
// (Classes nil past MaxClassFigures): 24 bytes a class (Fleiss' counts, Cohen's marginals), where
// each pair of classes met cost a map entry and each class a record (376 bytes a class).
// Measured by the bytes Summary allocates, not by time.
func TestSummaryOfDistinctLabels(t *testing.T) {
	const n, k = 20000, 5
	cols := make([]Column, k)
	for a := range cols {
		cols[a].Labels = make([]int32, n)
		for i := range n {
			cols[a].Labels[i] = int32(i*k + a)
		}
	}
	p := mustPanel(t, cols)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := p.Summary()
	runtime.ReadMemStats(&after)
	C := len(p.Classes())
	if C != n*k {
		t.Fatalf("%d classes, want %d", C, n*k)
	}
	if s.Compared != n || s.Agreeing != 0 || s.Fleiss.N != n || s.Fleiss.Observed != 0 {
		t.Errorf("compared %d, agreeing %d, Fleiss over %d observed %v", s.Compared, s.Agreeing, s.Fleiss.N, s.Fleiss.Observed)
	}
	if s.Classes != nil {
		t.Errorf("%d classes' figures for %d classes (at most %d are given)", len(s.Classes), C, MaxClassFigures)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 32*uint64(C) {
		t.Errorf("Summary allocated %d bytes for %d classes (%d a class); at most 32 a class", got, C, got/uint64(C))
	}
}
