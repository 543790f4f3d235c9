package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// TestSubsetSelections: on a generated float32 pair with N×3 int16 labels, each selection keeps
// exactly the rows it names (every label column kept), in input order unless --shuffle, the
// same with the same seed.
func TestSubsetSelections(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genBuildPair(t, dir, "in", 60, 2, 3, idx.Float32, idx.Int16, 3, 0, func(i int) int64 { return int64(i % 4) })
	os.WriteFile(lp+".classes.txt", []byte("zero\none\ntwo\nthree\n"), 0o644)
	in := rows(t, ip, lp)
	classOf := func(r string) string { f := strings.Fields(r[strings.Index(r, "|")+1:]); return f[0] }
	n := 0
	run := func(args ...string) (out []string, stderr string, files [2]string) {
		t.Helper()
		n++
		files = [2]string{filepath.Join(dir, fmt.Sprintf("o%d-images", n)), filepath.Join(dir, fmt.Sprintf("o%d-labels", n))}
		code, _, errOut := runCLI(append(append(append([]string{"subset"}, args...), ip, lp), files[0], files[1])...)
		if code != 0 {
			t.Fatalf("subset %v: exit %d, %s", args, code, errOut)
		}
		return rows(t, files[0], files[1]), errOut, files
	}
	inOrder := func(rs []string) bool {
		return slices.IsSortedFunc(rs, func(a, b string) int { return slices.Index(in, a) - slices.Index(in, b) })
	}
	sub, _, _ := run("--classes", "1,three")
	if len(sub) != 30 || !inOrder(sub) {
		t.Errorf("--classes 1,three: %d rows, in order %v", len(sub), inOrder(sub))
	}
	for _, r := range sub {
		if c := classOf(r); c != "1" && c != "3" {
			t.Errorf("--classes kept class %s", c)
		}
	}
	sub, errOut, _ := run("--classes", "0,2", "--per-class", "20")
	if len(sub) != 30 || !strings.Contains(errOut, "class 0 (zero) has 15 samples, fewer than --per-class 20: all 15 kept") {
		t.Errorf("--per-class 20: %d rows, stderr %q", len(sub), errOut)
	}
	a, _, fa := run("--per-class", "5", "--seed", "9")
	_, _, fb := run("--per-class", "5", "--seed", "9")
	per := map[string]int{}
	for _, r := range a {
		per[classOf(r)]++
	}
	if len(a) != 20 || !inOrder(a) || fmt.Sprint(per) != "map[0:5 1:5 2:5 3:5]" {
		t.Errorf("--per-class 5: %d rows, %v", len(a), per)
	}
	for k := range fa {
		x, _ := os.ReadFile(fa[k])
		y, _ := os.ReadFile(fb[k])
		if !bytes.Equal(x, y) {
			t.Errorf("the same seed wrote different %s", fa[k])
		}
	}
	sub, _, _ = run("--max", "7", "--shuffle")
	if len(sub) != 7 || inOrder(sub) {
		t.Errorf("--max 7 --shuffle: %d rows, in order %v", len(sub), inOrder(sub))
	}
	list := filepath.Join(dir, "list.csv")
	os.WriteFile(list, []byte("kind,index,other,label,suggested,score\nlabel,4,,0,1,0.9\nduplicate,9,12,1,,0.99\nlabel,4,,0,1,0.8\n"), 0o644)
	sub, _, _ = run("--indices", list)
	if !slices.Equal(sub, []string{in[4], in[9]}) {
		t.Errorf("--indices (check's CSV) kept %d rows", len(sub))
	}
	plain := filepath.Join(dir, "plain.txt")
	os.WriteFile(plain, []byte("0\n\n59\n"), 0o644)
	sub, _, _ = run("--exclude", plain)
	if !slices.Equal(sub, in[1:59]) {
		t.Errorf("--exclude 0,59 kept %d rows", len(sub))
	}
	sub, _, files := run("--classes", "3,1", "--map", "3:0,1:1")
	for _, r := range sub {
		orig := in[slices.IndexFunc(in, func(x string) bool { return x[:strings.Index(x, "|")] == r[:strings.Index(r, "|")] })]
		want := map[string]string{"3": "0", "1": "1"}[classOf(orig)]
		if classOf(r) != want || strings.Fields(r[strings.Index(r, "|")+1:])[1] != strings.Fields(orig[strings.Index(orig, "|")+1:])[1] {
			t.Errorf("--map: row %q from %q", r, orig)
		}
	}
	names, _, _ := pairfile.FindClassNames(files[1])
	if fmt.Sprint(names) != "map[0:three 1:one]" {
		t.Errorf("--map class names %v", names)
	}
}

// TestSubsetRefusals: an index outside the samples, a bad --map, an unknown class name, an
// output that is the index file: refused, nothing written.
func TestSubsetRefusals(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genBuildPair(t, dir, "in", 10, 2, 2, idx.UByte, idx.UByte, 1, 0, func(i int) int64 { return int64(i % 2) })
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("3\n10\n"), 0o644)
	oi, ol := filepath.Join(dir, "o-images"), filepath.Join(dir, "o-labels")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--indices", bad, ip, lp, oi, ol}, 1, bad + ": line 2: sample 10 is outside 0 to 9"},
		{[]string{"--map", "3-0", ip, lp, oi, ol}, 2, "expected OLD:NEW"},
		{[]string{"--classes", "cat", ip, lp, oi, ol}, 2, `"cat" is neither a class number nor a class name`},
		{[]string{"--indices", bad, ip, lp, oi, bad}, 2, "output is the input"},
	} {
		code, _, errOut := runCLI(append([]string{"subset"}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q", tc.args, code, errOut)
		}
		noFiles(t, oi, ol)
	}
}

// TestSubsetRealMNIST: a binary set of t10k's 3s and 8s relabelled 0 and 1, and 100 of each
// class of the training set (real files; skipped when ../shared is absent).
func TestSubsetRealMNIST(t *testing.T) {
	if testing.Short() {
		t.Skip("builds from the 70,000 real samples for seconds: left out of go test -short (make test runs it)")
	}
	ti, tl, ri, rl := mnistFiles(t)
	dir := t.TempDir()
	oi, ol := filepath.Join(dir, "b-images"), filepath.Join(dir, "b-labels")
	if code, _, errOut := runCLI("subset", "--classes", "3,8", "--map", "3:0,8:1", ti, tl, oi, ol); code != 0 {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	src, _ := idx.ReadFile(ti)
	srcL, _ := idx.ReadFile(tl)
	var want []byte
	var wantL []byte
	for i, l := range srcL.Data {
		if l == 3 || l == 8 {
			want = append(want, src.Data[i*784:(i+1)*784]...)
			wantL = append(wantL, map[byte]byte{3: 0, 8: 1}[l])
		}
	}
	got, _ := idx.ReadFile(oi)
	gotL, _ := idx.ReadFile(ol)
	if len(wantL) != 1010+974 || !bytes.Equal(got.Data, want) || !bytes.Equal(gotL.Data, wantL) {
		t.Errorf("the binary set holds %d samples, want t10k's %d 3s and 8s in order", gotL.Dims[0], len(wantL))
	}
	pi, pl := filepath.Join(dir, "p-images"), filepath.Join(dir, "p-labels")
	if code, _, errOut := runCLI("subset", "--per-class", "100", ri, rl, pi, pl); code != 0 {
		t.Fatalf("exit %d, %s", code, errOut)
	}
	train := rows(t, ri, rl)
	sub := rows(t, pi, pl)
	count := map[string]int{}
	last := -1
	for _, r := range sub {
		count[r[strings.Index(r, "|"):]]++
		k := slices.Index(train, r)
		if k <= last {
			t.Fatal("a row of the subset is not in the training set, or out of order")
		}
		last = k
	}
	if len(sub) != 1000 || len(count) != 10 {
		t.Errorf("%d samples in %d classes", len(sub), len(count))
	}
}
