package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	fixturedigits "idxlabel/fixture/digits"
	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
	"idxlabel/store"
)

// genBuildPair writes a pair of n samples of h×w pixels of dtype it to dir/<name>-images and
// dir/<name>-labels (labels of dtype lt, cols values a row): sample i's pixels all equal
// base+i (within the dtype), its class labelOf(i), its other columns 100·i+c. It returns the
// paths.
func genBuildPair(t *testing.T, dir, name string, n, h, w int, it, lt idx.DType, cols int, base int, labelOf func(int) int64) (string, string) {
	t.Helper()
	images, err := idx.New(it, n, h, w)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		for j := range h * w {
			images.SetInt(i*h*w+j, int64((base+i)%100))
		}
	}
	dims := []int{n}
	if cols > 1 {
		dims = append(dims, cols)
	}
	labels, err := idx.New(lt, dims...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		labels.SetInt(i*cols, labelOf(i))
		for c := 1; c < cols; c++ {
			labels.SetInt(i*cols+c, int64(100*i+c))
		}
	}
	ip, lp := filepath.Join(dir, name+"-images"), filepath.Join(dir, name+"-labels")
	if err := idx.WriteFile(ip, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// rows returns the (image, label row) pairs of a pair's files as strings, in file order: the
// image's values and every label column.
func rows(t *testing.T, ip, lp string) []string {
	t.Helper()
	images, err := idx.ReadFile(ip)
	if err != nil {
		t.Fatal(err)
	}
	labels, err := idx.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	n, stride, cols := images.Dims[0], images.Stride(), labels.Stride()
	out := make([]string, n)
	var b []byte
	for i := range n {
		b = b[:0]
		for j := range stride {
			b = strconv.AppendFloat(b, images.Float(i*stride+j), 'g', -1, 64)
			b = append(b, ' ')
		}
		b = append(b, '|')
		for c := range cols {
			b = append(b, ' ')
			b = strconv.AppendInt(b, labels.Int(i*cols+c), 10)
		}
		out[i] = string(b)
	}
	return out
}

// noFiles fails t when dir holds any of names (nothing written by a refused command).
func noFiles(t *testing.T, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := os.Lstat(n); err == nil {
			t.Errorf("%s was written", n)
		}
	}
}

// TestMergeAppendsInOrderWidening: merge of three generated pairs keeps every row in order;
// ubyte images with int16 images become int16, ubyte labels with int32 labels int32.
func TestMergeAppendsInOrderWidening(t *testing.T) {
	dir := t.TempDir()
	a1, a2 := genBuildPair(t, dir, "a", 5, 3, 2, idx.UByte, idx.UByte, 1, 0, func(i int) int64 { return int64(i % 3) })
	b1, b2 := genBuildPair(t, dir, "b", 4, 3, 2, idx.Int16, idx.Int32, 1, 50, func(i int) int64 {
		if i == 2 {
			return sample.NoLabel // a sample without a label stays one
		}
		return 70000 + int64(i)
	})
	c1, c2 := genBuildPair(t, dir, "c", 0, 3, 2, idx.UByte, idx.UByte, 1, 0, func(int) int64 { return 0 })
	oi, ol := filepath.Join(dir, "out-images.gz"), filepath.Join(dir, "out-labels")
	code, out, errOut := runCLI("merge", a1, a2, b1, b2, c1, c2, oi, ol)
	if code != 0 {
		t.Fatalf("merge: exit %d, %s", code, errOut)
	}
	if !strings.Contains(out, "9 samples") {
		t.Errorf("stdout %q", out)
	}
	h, _ := idx.ReadHeaderFile(oi)
	lh, _ := idx.ReadHeaderFile(ol)
	if h.String() != (idx.Header{Type: idx.Int16, Dims: []int{9, 3, 2}}).String() || lh.Type != idx.Int32 {
		t.Errorf("headers %s, %s", h, lh)
	}
	want := append(rows(t, a1, a2), rows(t, b1, b2)...)
	if got := rows(t, oi, ol); !slices.Equal(got, want) {
		t.Errorf("rows\n%q\nwant\n%q", got, want)
	}
	if ok, _ := idx.IsGzipFile(oi); !ok {
		t.Error("out-images.gz is not gzip")
	}
}

// TestMergeRefusals: a different height, a different rank, image dtypes neither holding the
// other's, different label columns, an output that exists, an output that is an input: each
// refused naming the file, nothing written.
func TestMergeRefusals(t *testing.T) {
	dir := t.TempDir()
	a1, a2 := genBuildPair(t, dir, "a", 3, 4, 4, idx.UByte, idx.UByte, 1, 0, func(int) int64 { return 1 })
	b1, b2 := genBuildPair(t, dir, "b", 3, 5, 4, idx.UByte, idx.UByte, 1, 0, func(int) int64 { return 1 })
	s1, s2 := genBuildPair(t, dir, "s", 3, 4, 4, idx.SByte, idx.UByte, 1, 0, func(int) int64 { return 1 })
	q1, q2 := genBuildPair(t, dir, "q", 3, 4, 4, idx.UByte, idx.Int32, 8, 0, func(int) int64 { return 1 })
	flat, _ := idx.New(idx.UByte, 3, 16)
	f1 := filepath.Join(dir, "flat-images")
	idx.WriteFile(f1, flat)
	oi, ol := filepath.Join(dir, "o-images"), filepath.Join(dir, "o-labels")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{b1, b2}, 1, b1 + ": images are 5×4 ubyte samples, " + a1 + "'s are 4×4 ubyte samples: merged images must have the same rank, height and width"},
		{[]string{f1, b2}, 1, f1 + ": images are 16 ubyte samples"},
		{[]string{s1, s2}, 1, s1 + ": images are sbyte, " + a1 + "'s are ubyte, and neither dtype holds the other's values"},
		{[]string{q1, q2}, 1, q2 + ": label rows of 8 values, " + a2 + "'s of 1"},
		{[]string{a1, oi}, 2, "output is the input"},
	} {
		args := append(append([]string{"merge", a1, a2}, tc.args...), oi, ol)
		if tc.args[1] == oi {
			args = []string{"merge", a1, a2, a1, a2, a1, ol}
		}
		code, _, errOut := runCLI(args...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d, %q", tc.args, code, errOut, tc.code, tc.want)
		}
		noFiles(t, oi, ol)
	}
	os.WriteFile(oi, []byte("keep"), 0o644)
	code, _, errOut := runCLI("merge", a1, a2, a1, a2, oi, ol)
	if code != 1 || !strings.Contains(errOut, oi+": exists (use --force to replace it)") {
		t.Errorf("existing output: exit %d, %q", code, errOut)
	}
	if b, _ := os.ReadFile(oi); string(b) != "keep" {
		t.Error("existing output replaced")
	}
	noFiles(t, ol)
	if code, _, errOut := runCLI("merge", "--force", a1, a2, a1, a2, oi, ol); code != 0 {
		t.Errorf("--force: exit %d, %q", code, errOut)
	}
	if got := rows(t, oi, ol); len(got) != 6 {
		t.Errorf("--force wrote %d rows", len(got))
	}
}

// TestMergeClassNames: class-name files are merged by name into one beside the output; a class
// number meaning two names is refused, nothing written.
func TestMergeClassNames(t *testing.T) {
	dir := t.TempDir()
	a1, a2 := genBuildPair(t, dir, "a", 3, 2, 2, idx.UByte, idx.UByte, 1, 0, func(i int) int64 { return int64(i) })
	b1, b2 := genBuildPair(t, dir, "b", 3, 2, 2, idx.UByte, idx.UByte, 1, 0, func(i int) int64 { return int64(i + 2) })
	os.WriteFile(a2+".classes.txt", []byte("cat\ndog\nowl\n"), 0o644)
	os.WriteFile(b2+".classes.txt", []byte("2 111 119 108\n4 101 109 117\n"), 0o644) // 2 owl, 4 emu
	oi, ol := filepath.Join(dir, "o-images"), filepath.Join(dir, "o-labels")
	if code, _, errOut := runCLI("merge", a1, a2, b1, b2, oi, ol); code != 0 {
		t.Fatalf("exit %d, %q", code, errOut)
	}
	names, file, err := pairfile.FindClassNames(ol)
	want := map[int]string{0: "cat", 1: "dog", 2: "owl", 4: "emu"}
	if err != nil || file != ol+".classes.txt" || fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("names %v in %q (%v), want %v", names, file, err, want)
	}
	os.WriteFile(b2+".classes.txt", []byte("2 101 109 117\n"), 0o644) // 2 emu
	oi2, ol2 := filepath.Join(dir, "p-images"), filepath.Join(dir, "p-labels")
	code, _, errOut := runCLI("merge", a1, a2, b1, b2, oi2, ol2)
	if code != 1 || !strings.Contains(errOut, `names class 2 "emu", `+a2+`.classes.txt names it "owl": a class number cannot mean two names`) {
		t.Errorf("exit %d, %q", code, errOut)
	}
	noFiles(t, oi2, ol2, ol2+".classes.txt")
}

// TestMergeRealMNIST: t10k then train, every row of both in order (real files; skipped when
// ../shared is absent).
func TestMergeRealMNIST(t *testing.T) {
	if testing.Short() {
		t.Skip("builds from the 70,000 real samples for seconds: left out of go test -short (make test runs it)")
	}
	ti, tl, ri, rl := mnistFiles(t)
	dir := t.TempDir()
	oi, ol := filepath.Join(dir, "all-images-idx3-ubyte.gz"), filepath.Join(dir, "all-labels-idx1-ubyte.gz")
	code, out, errOut := runCLI("merge", ti, tl, ri, rl, oi, ol)
	if code != 0 || !strings.Contains(out, "70000 samples (images 0x00000803 ubyte 70000×28×28, labels 0x00000801 ubyte 70000)") {
		t.Fatalf("exit %d, %q, %q", code, out, errOut)
	}
	a, _ := idx.ReadFile(ti)
	b, _ := idx.ReadFile(ri)
	got, _ := idx.ReadFile(oi)
	if !slices.Equal(got.Data, append(slices.Clone(a.Data), b.Data...)) {
		t.Error("merged images differ from t10k's then train's")
	}
	la, _ := idx.ReadFile(tl)
	lb, _ := idx.ReadFile(rl)
	gl, _ := idx.ReadFile(ol)
	if !slices.Equal(gl.Data, append(slices.Clone(la.Data), lb.Data...)) {
		t.Error("merged labels differ from t10k's then train's")
	}
}

// mnistFiles returns the real t10k and training pairs' paths, skipping t when ../shared is
// absent (mnisttest.Path).
func mnistFiles(t *testing.T) (ti, tl, ri, rl string) {
	return mnisttest.Path(t, mnisttest.TestImages), mnisttest.Path(t, mnisttest.TestLabels),
		mnisttest.Path(t, mnisttest.TrainImages), mnisttest.Path(t, mnisttest.TrainLabels)
}

// TestBuildersHonourLocksAndJournals: merge, split and subset --force into a pair open for
// editing exit 1 with the lock's message; into a pair whose journal holds edits, exit 1 naming
// the journal; the files are left as they were.
func TestBuildersHonourLocksAndJournals(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genBuildPair(t, dir, "in", 6, 2, 2, idx.UByte, idx.UByte, 1, 0, func(i int) int64 { return int64(i % 2) })
	hi, hl := genBuildPair(t, dir, "held", 3, 2, 2, idx.UByte, idx.UByte, 1, 0, func(i int) int64 { return 1 })
	before := rows(t, hi, hl)
	x, y := filepath.Join(dir, "x"), filepath.Join(dir, "y")
	cmds := [][]string{
		{"merge", "--force", ip, lp, ip, lp, hi, hl},
		{"split", "--force", ip, lp, x, y, hi, hl},
		{"subset", "--force", ip, lp, hi, hl},
	}
	d, err := store.Open(hi, hl, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range cmds {
		if code, _, e := runCLI(args...); code != 1 || !strings.Contains(e, "open for editing") {
			t.Errorf("%v on a held pair: exit %d, %q", args, code, e)
		}
	}
	d.Close()
	os.WriteFile(hl+pairfile.JournalSuffix, []byte("edits"), 0o644)
	for _, args := range cmds {
		if code, _, e := runCLI(args...); code != 1 || !strings.Contains(e, "holds edits") {
			t.Errorf("%v beside a journal: exit %d, %q", args, code, e)
		}
	}
	if !slices.Equal(rows(t, hi, hl), before) {
		t.Error("the held pair was replaced")
	}
	noFiles(t, x, y)
}

// TestShadowingClassNamesSaid: a class-name file the app reads before <labels>.classes.txt
// (EMNIST's <set>-mapping.txt) beside an output is named on stderr.
func TestShadowingClassNamesSaid(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genBuildPair(t, dir, "in", 4, 2, 2, idx.UByte, idx.UByte, 1, 0, func(i int) int64 { return int64(i % 2) })
	os.WriteFile(lp+".classes.txt", []byte("even\nodd\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "x-mapping.txt"), []byte("0 65\n1 66\n"), 0o644)
	code, _, e := runCLI("subset", ip, lp, filepath.Join(dir, "x-images"), filepath.Join(dir, "x-labels"))
	if code != 0 || !strings.Contains(e, filepath.Join(dir, "x-mapping.txt")+": idxlabel reads the class names of "+filepath.Join(dir, "x-labels")+" from this file, not from "+filepath.Join(dir, "x-labels.classes.txt")) {
		t.Errorf("exit %d, %q", code, e)
	}
}

// digits returns the first n ≤ 1,100 of 1,100 generated MNIST-like digits (fixture/digits) as
// N×784 pixels and N labels, so that a test runs the same with or without the real MNIST files.
func digits(t *testing.T, n int) (px, labels []byte) {
	t.Helper()
	images, l := fixturedigits.Load(t, 1100)
	return images.Data[:n*784], l.Data[:n]
}
