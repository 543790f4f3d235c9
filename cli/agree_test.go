package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"idxlabel/annotate"
	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
	"idxlabel/store"
)

const none = int64(annotate.NoLabel)

// writeLabels writes labels of dtype t to dir/name: N of them, or N×k with values row by row
// when k > 1. It returns the path.
func writeLabels(t *testing.T, dir, name string, dt idx.DType, k int, values []int64) string {
	t.Helper()
	dims := []int{len(values) / k}
	if k > 1 {
		dims = append(dims, k)
	}
	a, err := idx.New(dt, dims...)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range values {
		a.SetInt(i, v)
	}
	p := filepath.Join(dir, name)
	if err := idx.WriteFile(p, a); err != nil {
		t.Fatal(err)
	}
	return p
}

// t10kLabels returns the real t10k labels as int64s.
func t10kLabels(t *testing.T) []int64 {
	_, labels := mnisttest.Load(t)
	return labels.Ints()
}

// Three annotator files made from t10k's labels, with disagreements planted: some samples where
// one annotator differs, some where two differ from the third and each other, some left
// unlabelled by one annotator while the others agree (not a disagreement), and the third file
// QMNIST-like (int32 N×3, the class in column 0). agree lists exactly the planted samples, with
// each file's label, exits 1, and says Fleiss' κ over the samples every annotator labelled.
func TestAgreeFindsPlantedDisagreements(t *testing.T) {
	truth := t10kLabels(t)
	n := len(truth)
	dir := t.TempDir()
	a, b, c := slices.Clone(truth), slices.Clone(truth), slices.Clone(truth)
	other := func(l int64, d int64) int64 { return (l + d) % 10 }
	planted := map[int]bool{}
	for k := range 40 { // one annotator differs
		i := 37 + 241*k
		switch k % 3 {
		case 0:
			a[i] = other(a[i], 1)
		case 1:
			b[i] = other(b[i], 2)
		default:
			c[i] = other(c[i], 3)
		}
		planted[i] = true
	}
	for k := range 15 { // three different labels
		i := 101 + 613*k
		b[i], c[i] = other(b[i], 4), other(c[i], 5)
		planted[i] = true
	}
	for k := range 20 { // unlabelled by one, the others agree: no disagreement
		i := 55 + 487*k
		if planted[i] {
			t.Fatalf("sample %d planted twice", i)
		}
		a[i] = none
	}
	for k := range 5 { // unlabelled by one, the other two differ
		i := 9001 + 11*k
		a[i], b[i] = none, other(b[i], 6)
		planted[i] = true
	}
	cWide := make([]int64, 0, 3*n) // class, and two more columns as QMNIST has
	for i, l := range c {
		cWide = append(cWide, l, int64(i%297), 7)
	}
	fa := writeLabels(t, dir, "ann-labels", idx.Int32, 1, a)
	fb := writeLabels(t, dir, "bob-labels", idx.UByte, 1, b)
	fc := writeLabels(t, dir, "qmnist-labels", idx.Int32, 3, cWide)
	code, out, errOut := runCLI("agree", fa, fb, fc)
	if code != 1 {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if lines[0] != "index,ann-labels,bob-labels,qmnist-labels" {
		t.Fatalf("header %q", lines[0])
	}
	field := func(l int64) string {
		if l == none {
			return ""
		}
		return fmt.Sprint(l)
	}
	var want []string
	for i := range n {
		if planted[i] {
			want = append(want, fmt.Sprintf("%d,%s,%s,%s", i, field(a[i]), field(b[i]), field(c[i])))
		}
	}
	if !slices.Equal(lines[1:], want) {
		t.Fatalf("listed %d samples, planted %d:\n%s", len(lines)-1, len(want), strings.Join(lines[1:], "\n"))
	}
	for _, s := range []string{
		"agree: 3 annotators, 10000 samples\n",
		"ann-labels     9975 labelled\n",
		fmt.Sprintf("raw agreement: %.2f%% (%d of the 10000 samples labelled by two or more have one label; %d disagree)", 100*float64(n-len(want))/float64(n), n-len(want), len(want)),
		"over the 9975 samples every annotator labelled",
		"Cohen's κ of each pair",
		fmt.Sprintf("%d samples with differing labels listed on stdout", len(want)),
	} {
		if !strings.Contains(errOut, s) {
			t.Errorf("stderr lacks %q:\n%s", s, errOut)
		}
	}
	// The same file twice agrees: exit 0, the header alone (two files of one base name are
	// named by their paths).
	if code, out, errOut := runCLI("agree", fb, fb); code != 0 || out != "index,"+fb+","+fb+"\n" || !strings.Contains(errOut, "Cohen's κ: 1.0000 over the 10000 samples both labelled") {
		t.Fatalf("a file against itself: exit %d %q\n%s", code, out, errOut)
	}
}

// --consensus writes the majority labels in the first input's dtype when every sample has one,
// and int32 with −2147483648 where a sample has none (a tie); --votes writes
// index,label,votes,annotators for every sample; two inputs of one base name are named by their
// paths.
func TestAgreeConsensusAndVotes(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "x"), 0o755)
	os.Mkdir(filepath.Join(dir, "y"), 0o755)
	f1 := writeLabels(t, filepath.Join(dir, "x"), "labels", idx.UByte, 1, []int64{1, 2, 3, 4})
	f2 := writeLabels(t, filepath.Join(dir, "y"), "labels", idx.Int16, 1, []int64{1, 2, 3, 5})
	f3 := writeLabels(t, dir, "third", idx.Int32, 1, []int64{1, 7, 3, none})
	cons, votes := filepath.Join(dir, "cons"), filepath.Join(dir, "votes.csv")
	code, out, errOut := runCLI("agree", "--consensus", cons, "--votes", votes, f1, f2, f3)
	if code != 1 || out != fmt.Sprintf("index,%s,%s,%s\n1,2,2,7\n3,4,5,\n", f1, f2, f3) {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, errOut)
	}
	got, err := idx.ReadFile(cons)
	if err != nil {
		t.Fatal(err)
	}
	if got.Type != idx.Int32 || !slices.Equal(got.Ints(), []int64{1, 2, 3, none}) {
		t.Fatalf("consensus %s %v", got.Header, got.Ints())
	}
	b, _ := os.ReadFile(votes)
	if string(b) != "index,label,votes,annotators\n0,1,3,3\n1,2,2,3\n2,3,3,3\n3,,1,2\n" {
		t.Fatalf("votes %q", b)
	}
	if !strings.Contains(errOut, "consensus (majority): 3 of 4 samples labelled, 1 without one") {
		t.Errorf("stderr: %s", errOut)
	}
	// Every sample with a majority: the first input's dtype (ubyte).
	f4 := writeLabels(t, dir, "fourth", idx.Int32, 1, []int64{1, 2, 3, 4})
	if code, _, errOut := runCLI("agree", "--force", "--consensus", cons, f1, f2, f4); code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got, _ := idx.ReadFile(cons); got.Type != idx.UByte || !slices.Equal(got.Ints(), []int64{1, 2, 3, 4}) {
		t.Fatalf("consensus %s %v", got.Header, got.Ints())
	}
}

// --weighted writes Dawid–Skene's labels and prints each annotator's estimated accuracy: on the
// real t10k labels with annotators of 95%, 85% and 70% accuracy (labels planted by a fixed rule),
// its consensus file is at least as accurate as the majority's.
func TestAgreeWeighted(t *testing.T) {
	truth := t10kLabels(t)
	dir := t.TempDir()
	var files []string
	for a, every := range []int{20, 7, 3} { // wrong on every 20th, 7th, 3rd sample (shifted per annotator)
		l := slices.Clone(truth)
		for i := a; i < len(l); i += every {
			l[i] = (l[i] + 1 + int64((i+3*a)%9)) % 10
		}
		files = append(files, writeLabels(t, dir, fmt.Sprintf("a%d", a), idx.UByte, 1, l))
	}
	acc := func(path string) float64 {
		got, err := idx.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		right := 0
		for i, v := range got.Ints() {
			if v == truth[i] {
				right++
			}
		}
		return float64(right) / float64(len(truth))
	}
	maj, ds := filepath.Join(dir, "majority"), filepath.Join(dir, "weighted")
	if code, _, errOut := runCLI("agree", "--consensus", maj, files[0], files[1], files[2]); code != 1 {
		t.Fatalf("majority: exit %d %s", code, errOut)
	}
	code, _, errOut := runCLI("agree", "--weighted", "--consensus", ds, files[0], files[1], files[2])
	if code != 1 || !strings.Contains(errOut, "weighted consensus (Dawid–Skene EM") || !strings.Contains(errOut, "consensus (weighted)") {
		t.Fatalf("weighted: exit %d %s", code, errOut)
	}
	if m, w := acc(maj), acc(ds); w < m {
		t.Fatalf("weighted %.4f below the majority %.4f", w, m)
	} else {
		t.Logf("majority %.4f, weighted %.4f", m, w)
	}
}

// Bad input exits 2 naming the file, whatever it is: counts that differ, float labels, an image
// file given as labels, a missing file, one file; and the outputs' rule holds: an existing output
// without --force, an output that is an input, two outputs that are one file, a link to an
// existing file (written through only with --force), a pair open for editing. Nothing is
// written where it was refused.
func TestAgreeBadInputAndOutputs(t *testing.T) {
	dir := t.TempDir()
	ip, _ := genPair(t, dir, 5)
	f1 := writeLabels(t, dir, "one", idx.UByte, 1, []int64{1, 2, 3, 4, 5})
	f2 := writeLabels(t, dir, "two", idx.UByte, 1, []int64{1, 2, 3, 4, 6})
	short := writeLabels(t, dir, "short", idx.UByte, 1, []int64{1, 2, 3})
	fl, _ := idx.New(idx.Float32, 5)
	float := filepath.Join(dir, "float")
	idx.WriteFile(float, fl)
	precious := filepath.Join(dir, "precious")
	os.WriteFile(precious, []byte("mine"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(precious, link)
	f2Before, _ := os.ReadFile(f2)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{f1, short}, short + " has 3 labels, " + f1 + " has 5"},
		{[]string{f1, float}, float + ": labels must be integers"},
		{[]string{f1, ip}, ip + ": labels must be N (or N×K"},
		{[]string{f1, filepath.Join(dir, "missing")}, filepath.Join(dir, "missing") + ": no such file"},
		{[]string{f1}, "usage: idxlabel agree"},
		{[]string{"--consensus", precious, f1, f2}, precious + ": exists (use --force to replace it)"},
		{[]string{"--votes", link, f1, f2}, link + ": exists (use --force to replace it)"},
		{[]string{"--consensus", f2, f1, f2}, f2 + ": output is the input " + f2},
		{[]string{"--consensus", precious, "--votes", precious, "--force", f1, f2}, "are the same file"},
	} {
		code, out, errOut := runCLI(append([]string{"agree"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) || out != "" {
			t.Errorf("agree %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
	unchanged(t, "refused outputs", precious, []byte("mine"))
	unchanged(t, "an input named as an output", f2, f2Before)
	// With --force the link is written through: the file it names holds the votes.
	if code, _, errOut := runCLI("agree", "--force", "--votes", link, f1, f2); code != 1 {
		t.Fatalf("--force through a link: exit %d %s", code, errOut)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(precious); !strings.HasPrefix(string(b), "index,label,votes,annotators\n") {
		t.Fatalf("the link's file holds %q", b)
	}
	// A pair open for editing in a window: its label file is not replaced, even with --force.
	_, lp := genPair(t, t.TempDir(), 5)
	before, _ := os.ReadFile(lp)
	d, err := store.Open(filepath.Join(filepath.Dir(lp), "g-images-idx3-ubyte"), lp, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI("agree", "--force", "--consensus", lp, f1, f2)
	d.Close()
	if code != 2 || !strings.Contains(errOut, "open for editing") {
		t.Fatalf("consensus onto an open pair: exit %d %q", code, errOut)
	}
	unchanged(t, "the open pair", lp, before)
}

// Files of 0 labels agree (exit 0, the header alone; κ undefined, said so); --weighted with more
// classes than Dawid–Skene estimates is refused before anything is printed; the summary of many
// annotators or classes stays short.
func TestAgreeEmptyAndTooManyClasses(t *testing.T) {
	dir := t.TempDir()
	e1 := writeLabels(t, dir, "e1", idx.UByte, 1, nil)
	e2 := writeLabels(t, dir, "e2", idx.UByte, 1, nil)
	code, out, errOut := runCLI("agree", "--votes", filepath.Join(dir, "v.csv"), e1, e2)
	if code != 0 || out != "index,e1,e2\n" || !strings.Contains(errOut, "Cohen's κ: no sample was labelled by both annotators") {
		t.Fatalf("empty: exit %d %q %s", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "v.csv")); string(b) != "index,label,votes,annotators\n" {
		t.Fatalf("votes of nothing: %q", b)
	}
	many := make([]int64, 300)
	for i := range many {
		many[i] = int64(i)
	}
	w1 := writeLabels(t, dir, "w1", idx.Int16, 1, many)
	code, out, errOut = runCLI("agree", "--weighted", w1, w1)
	if code != 2 || out != "" || !strings.Contains(errOut, "300 classes; Dawid–Skene estimates at most 256") {
		t.Fatalf("300 classes weighted: exit %d %q %s", code, out, errOut)
	}
	// Without --weighted they agree; the summary does not list 300 classes nor 55 pairs.
	eleven := []string{"agree"}
	for range 11 {
		eleven = append(eleven, w1)
	}
	code, _, errOut = runCLI(eleven...)
	if code != 0 || !strings.Contains(errOut, "per class: not listed for more than 256 classes (300 given)") ||
		!strings.Contains(errOut, "Cohen's κ of each pair: not listed for more than 10 annotators (55 pairs)") || strings.Count(errOut, "\n") > 20 {
		t.Fatalf("11 annotators of 300 classes: exit %d\n%s", code, errOut)
	}
}
