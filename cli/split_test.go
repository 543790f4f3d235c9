package cli

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// splitFiles returns the four output paths of a split in dir, named by tag.
func splitFiles(dir, tag string) []string {
	var out []string
	for _, s := range []string{"train-images", "train-labels", "test-images", "test-labels"} {
		out = append(out, filepath.Join(dir, tag+"-"+s))
	}
	return out
}

// checkCover fails t unless the two parts hold exactly the input's rows (as a multiset) and,
// when ordered, each part keeps the input order.
func checkCover(t *testing.T, in, train, test []string, ordered bool) {
	t.Helper()
	all := append(slices.Clone(train), test...)
	slices.Sort(all)
	want := slices.Clone(in)
	slices.Sort(want)
	if !slices.Equal(all, want) {
		t.Fatalf("the parts hold %d rows, not the input's %d rows each once", len(all), len(in))
	}
	if !ordered {
		return
	}
	for _, part := range [][]string{train, test} {
		last := -1
		for _, r := range part {
			k := slices.Index(in, r)
			if k <= last {
				t.Fatalf("a part is not in input order")
			}
			last = k
		}
	}
}

// TestSplitStratifiedSeeded: a stratified split of a generated int16 pair of 5×3 samples with
// unlabelled samples: every row once, input order, each class (unlabelled too) within one
// sample of the fraction; the same seed gives byte-identical files, another seed another split;
// --shuffle keeps the rows but not the order.
func TestSplitStratifiedSeeded(t *testing.T) {
	dir := t.TempDir()
	classOf := func(i int) int64 {
		if i%11 == 0 {
			return sample.NoLabel
		}
		return int64(i % 7)
	}
	ip, lp := genBuildPair(t, dir, "in", 503, 5, 3, idx.Int16, idx.Int32, 1, 0, classOf)
	os.WriteFile(lp+".classes.txt", []byte("0 48\n6 54\n"), 0o644) // EMNIST-style mapping lines
	in := rows(t, ip, lp)
	run := func(tag string, args ...string) []string {
		t.Helper()
		out := splitFiles(dir, tag)
		code, _, errOut := runCLI(append(append(append([]string{"split"}, args...), ip, lp), out...)...)
		if code != 0 {
			t.Fatalf("split %v: exit %d, %s", args, code, errOut)
		}
		return out
	}
	a := run("a", "--stratify", "--test", "0.3", "--seed", "7")
	train, test := rows(t, a[0], a[1]), rows(t, a[2], a[3])
	checkCover(t, in, train, test, true)
	if len(test) != int(math.Round(0.3*503)) {
		t.Errorf("test part %d samples, want %d", len(test), int(math.Round(0.3*503)))
	}
	count := func(rs []string) map[string]int {
		m := map[string]int{}
		for _, r := range rs {
			m[r[strings.Index(r, "|"):]]++ // the class (one label column)
		}
		return m
	}
	all, inTest := count(in), count(test)
	if len(all) != 8 {
		t.Fatalf("%d classes, want 7 and unlabelled", len(all))
	}
	for c, n := range all {
		if d := math.Abs(float64(inTest[c]) - 0.3*float64(n)); d >= 1 {
			t.Errorf("class %s: %d of %d in the test part, %.2f from the fraction", c, inTest[c], n, d)
		}
	}
	for _, l := range []string{a[1], a[3]} {
		if names, _, err := pairfile.FindClassNames(l); err != nil || fmt.Sprint(names) != "map[0:0 6:6]" {
			t.Errorf("%s: class names %v (%v), want the input's", l, names, err)
		}
	}
	b := run("b", "--stratify", "--test", "0.3", "--seed", "7")
	for k := range a {
		x, _ := os.ReadFile(a[k])
		y, _ := os.ReadFile(b[k])
		if !bytes.Equal(x, y) {
			t.Errorf("%s and %s differ with the same seed", a[k], b[k])
		}
	}
	c := run("c", "--stratify", "--test", "0.3", "--seed", "8")
	if slices.Equal(rows(t, c[2], c[3]), test) {
		t.Error("seeds 7 and 8 chose the same test part")
	}
	s := run("s", "--test-count", "100", "--shuffle", "--seed", "7")
	strain, stest := rows(t, s[0], s[1]), rows(t, s[2], s[3])
	checkCover(t, in, strain, stest, false)
	if len(stest) != 100 || slices.IsSortedFunc(stest, func(x, y string) int { return slices.Index(in, x) - slices.Index(in, y) }) {
		t.Errorf("--test-count 100 --shuffle: %d test samples, in input order: %v", len(stest), slices.IsSorted(stest))
	}
}

// TestSplitGroupColumn: with --group-column 2 of N×8 int32 labels (QMNIST's writer column) no
// group is in both parts, every column of every row is kept, and the test share is near the
// fraction.
func TestSplitGroupColumn(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genBuildPair(t, dir, "q", 400, 4, 4, idx.UByte, idx.Int32, 8, 0, func(i int) int64 { return int64(i % 10) })
	labels, _ := idx.ReadFile(lp)
	for i := range 400 {
		labels.SetInt(i*8+2, int64(i/7)) // 58 writers of 7 samples (the last of 1)
	}
	idx.WriteFile(lp, labels)
	out := splitFiles(dir, "g")
	code, _, errOut := runCLI(append([]string{"split", "--group-column", "2", "--stratify", "--test", "0.25", ip, lp}, out...)...)
	if code != 0 {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	checkCover(t, rows(t, ip, lp), rows(t, out[0], out[1]), rows(t, out[2], out[3]), true)
	writers := func(p string) map[int64]bool {
		a, _ := idx.ReadFile(p)
		m := map[int64]bool{}
		for i := range a.Dims[0] {
			m[a.Int(i*8+2)] = true
		}
		return m
	}
	tr, te := writers(out[1]), writers(out[3])
	for w := range te {
		if tr[w] {
			t.Errorf("writer %d is in both parts", w)
		}
	}
	h, _ := idx.ReadHeaderFile(out[3])
	if n := h.Dims[0]; n < 90 || n > 110 {
		t.Errorf("test part %d samples, want about 100", n)
	}
	code, _, errOut = runCLI(append([]string{"split", "--group-column", "8", ip, lp}, splitFiles(dir, "h")...)...)
	if code != 2 || !strings.Contains(errOut, "have no column 8") {
		t.Errorf("--group-column 8: exit %d, %q", code, errOut)
	}
	noFiles(t, splitFiles(dir, "h")...)
}

// TestSplitRefusals: usage mistakes exit 2, an existing output 1, with nothing written.
func TestSplitRefusals(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genBuildPair(t, dir, "in", 10, 2, 2, idx.UByte, idx.UByte, 1, 0, func(i int) int64 { return int64(i % 2) })
	out := splitFiles(dir, "x")
	for _, args := range [][]string{{"--test", "1.5"}, {"--test", "0"}, {"--test", "0.2", "--test-count", "3"}, {"--test-count", "11"}} {
		code, _, errOut := runCLI(append(append(append([]string{"split"}, args...), ip, lp), out...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
		noFiles(t, out...)
	}
	os.WriteFile(out[2], nil, 0o644)
	code, _, errOut := runCLI(append([]string{"split", ip, lp}, out...)...)
	if code != 1 || !strings.Contains(errOut, "exists (use --force to replace it)") {
		t.Errorf("existing output: exit %d, %q", code, errOut)
	}
	noFiles(t, out[0], out[1], out[3])
}

// TestSplitRealMNIST: a stratified split of the 70,000 MNIST samples (t10k and train merged):
// every row once, 14,000 in the test part, each class within one sample of 20% (real files;
// skipped when ../shared is absent).
func TestSplitRealMNIST(t *testing.T) {
	if testing.Short() {
		t.Skip("builds from the 70,000 real samples for seconds: left out of go test -short (make test runs it)")
	}
	ti, tl, ri, rl := mnistFiles(t)
	dir := t.TempDir()
	ai, al := filepath.Join(dir, "all-images"), filepath.Join(dir, "all-labels")
	if code, _, errOut := runCLI("merge", ti, tl, ri, rl, ai, al); code != 0 {
		t.Fatalf("merge: %d %s", code, errOut)
	}
	out := splitFiles(dir, "m")
	if code, _, errOut := runCLI(append([]string{"split", "--stratify", "--seed", "3", ai, al}, out...)...); code != 0 {
		t.Fatalf("split: %d %s", code, errOut)
	}
	in := rows(t, ai, al)
	train, test := rows(t, out[0], out[1]), rows(t, out[2], out[3])
	checkCover(t, in, train, test, false)
	if len(test) != 14000 {
		t.Errorf("test part %d samples", len(test))
	}
	all, _ := idx.ReadFile(al)
	tl2, _ := idx.ReadFile(out[3])
	var n, k [10]int
	for _, v := range all.Data {
		n[v]++
	}
	for _, v := range tl2.Data {
		k[v]++
	}
	for c := range 10 {
		if d := math.Abs(float64(k[c]) - 0.2*float64(n[c])); d >= 1 {
			t.Errorf("class %d: %d of %d in the test part", c, k[c], n[c])
		}
	}
}
