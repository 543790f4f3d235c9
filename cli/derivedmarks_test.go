package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// markedInput writes a pair of n 14×14 samples whose pixels all equal base+i (so that a derived
// pair's sample says which it was: sourceOf) with accepted marks on marks beside its label file,
// as a window's save leaves them. It returns the paths.
func markedInput(t *testing.T, dir, name string, n, base int, marks []int) (string, string) {
	t.Helper()
	ip, lp := genBuildPair(t, dir, name, n, 14, 14, idx.UByte, idx.UByte, 1, base, func(i int) int64 { return int64(i % 10) })
	images, _ := idx.ReadFile(ip)
	labels, _ := idx.ReadFile(lp)
	if err := pairfile.WriteAccepted(pairfile.AcceptedFile(lp), pairfile.KeyOf(labels, pairfile.ImagesCRC(images.Data)), marks); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// derivedMarks checks the accepted marks of the derived pair oi, ol: they are exactly the places
// k whose sample (source: its pixel value → its number among the marked samples' inputs) was
// marked, read back by pairfile with the pair's own key and as `suggest` sees them (the dataset
// it opens: accepted vs typed), with no notice about them. It returns how many there are.
func derivedMarks(t *testing.T, what, oi, ol string, source func(pixel int) int, marked map[int]bool) int {
	t.Helper()
	images, err := idx.ReadFile(oi)
	if err != nil {
		t.Fatal(err)
	}
	labels, err := idx.ReadFile(ol)
	if err != nil {
		t.Fatal(err)
	}
	n, rec := images.Dims[0], len(images.Data)/max(images.Dims[0], 1)
	var want []int
	for k := range n {
		if marked[source(int(images.Data[k*rec]))] {
			want = append(want, k)
		}
	}
	got, err := pairfile.ReadAccepted(pairfile.AcceptedFile(ol), pairfile.KeyOf(labels, pairfile.ImagesCRC(images.Data)))
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("%s: %s's marks read back %v (%v); want %v", what, ol, got, err, want)
	}
	var e bytes.Buffer
	c := &cli{stdout: &e, stderr: &e, progressAfter: noProgress}
	ds, err := openCheckSet(c, []string{oi, ol})
	if err != nil {
		t.Fatal(err)
	}
	defer ds.Close()
	data := ds.Snapshot()
	acc := ds.AcceptedIn(data)
	var seen []int
	for k := range acc {
		if acc[k] {
			seen = append(seen, data.Index[k])
		}
	}
	if !slices.Equal(seen, want) {
		t.Errorf("%s: suggest sees %v accepted (the rest typed); want %v", what, seen, want)
	}
	if strings.Contains(e.String(), "accepted") {
		t.Errorf("%s: %s", what, e.String())
	}
	return len(want)
}

// Every writer that derives a pair from a marked one keeps the marks of the samples it keeps, at
// their new places, in the derived pair's own marks file: merge (each input's), split (each
// part's, shuffled and stratified), subset (by an index file, relabelled by --map: a class renamed, still the model's guess),
// convert of a label file (the same marks, keyed for the same images), apply-errata (all but
// the samples a row corrected: a person's label now). agree --consensus writes new labels, a
// vote of annotators: it carries none.
func TestDerivedPairsKeepAcceptedMarks(t *testing.T) {
	dir := t.TempDir()
	aMarks, bMarks := []int{1, 3, 7, 12, 25, 39}, []int{0, 5, 33}
	ai, al := markedInput(t, dir, "a", 40, 0, aMarks)
	bi, bl := markedInput(t, dir, "b", 40, 50, bMarks)
	marked := map[int]bool{} // by merged number: a's samples, then b's
	for _, i := range aMarks {
		marked[i] = true
	}
	for _, i := range bMarks {
		marked[40+i] = true
	}
	merged := func(v int) int {
		if v >= 50 {
			return 40 + v - 50
		}
		return v
	}
	fromA := func(v int) int { return v }
	out := filepath.Join(dir, "out")
	os.MkdirAll(out, 0o755)
	oi, ol := filepath.Join(out, "o-images"), filepath.Join(out, "o-labels")
	ti, tl := filepath.Join(out, "t-images"), filepath.Join(out, "t-labels")
	run := func(args ...string) string {
		t.Helper()
		code, stdout, errOut := runCLI(args...)
		if code != 0 && !(code == 1 && args[0] == "agree") {
			t.Fatalf("%s: exit %d, %s", args[0], code, errOut)
		}
		return stdout + errOut
	}

	said := run("merge", ai, al, bi, bl, oi, ol)
	if n := derivedMarks(t, "merge", oi, ol, merged, marked); n != len(aMarks)+len(bMarks) || !strings.Contains(said, "9 accepted suggestions (pseudo-labels) marked in "+pairfile.AcceptedFile(ol)) {
		t.Errorf("merge: %d marks; said %q", n, said)
	}

	run("split", "--force", "--test", "0.5", "--stratify", "--shuffle", "--seed", "3", ai, al, oi, ol, ti, tl)
	train := derivedMarks(t, "split train", oi, ol, fromA, marked)
	test := derivedMarks(t, "split test", ti, tl, fromA, marked)
	if train+test != len(aMarks) || train == 0 || test == 0 {
		t.Errorf("split: %d marks in train, %d in test; want %d in all, some in each", train, test, len(aMarks))
	}

	list := filepath.Join(dir, "keep.txt")
	os.WriteFile(list, []byte("index\n39\n2\n12\n3\n20\n1\n"), 0o644)
	run("subset", "--force", "--indices", list, "--map", "3:0,9:4", ai, al, oi, ol)
	if n := derivedMarks(t, "subset", oi, ol, fromA, marked); n != 4 {
		t.Errorf("subset: %d marks, want 4 (39, 12, 3, 1)", n)
	}
	labels, _ := idx.ReadFile(ol)
	if labels.Int(2) != 0 || labels.Int(5) != 4 { // samples 3 and 39, relabelled

		t.Errorf("subset --map: labels %v", labels.Data)
	}

	// convert of the label file alone: the same labels, the same marks, for a's images.
	cl := filepath.Join(out, "c-labels.gz")
	run("convert", al, cl)
	derivedMarks(t, "convert", ai, cl, fromA, marked)

	// apply-errata correcting samples 3 (marked) and 4: 3's label is the errata's now.
	otherLabels, errataPath := correctedErrata(t, dir, ai, al, 40, 3, 4)
	el := filepath.Join(out, "e-labels")
	run("apply-errata", errataPath, ai, al, el)
	delete(marked, 3)
	if n := derivedMarks(t, "apply-errata", ai, el, fromA, marked); n != len(aMarks)-1 {
		t.Errorf("apply-errata: %d marks, want %d", n, len(aMarks)-1)
	}
	marked[3] = true

	cons := filepath.Join(out, "consensus-labels")
	run("agree", "--consensus", cons, al, otherLabels, bl)
	if _, err := os.Lstat(pairfile.AcceptedFile(cons)); !os.IsNotExist(err) {
		t.Errorf("agree --consensus: its labels are a vote, yet marks were kept (%v)", err)
	}
}

// An input's marks file that cannot be used (damaged, a symbolic link, written for other
// contents) is said on stderr naming it, and carries no mark; the writer still writes its pair.
func TestDerivedPairsRefuseBadInputMarks(t *testing.T) {
	dir := t.TempDir()
	ai, al := markedInput(t, dir, "a", 20, 0, []int{2, 5})
	marks := pairfile.AcceptedFile(al)
	good, _ := os.ReadFile(marks)
	elsewhere := filepath.Join(dir, "elsewhere")
	os.WriteFile(elsewhere, good, 0o644)
	oi, ol := filepath.Join(dir, "o-images"), filepath.Join(dir, "o-labels")
	for _, tc := range []struct {
		name, says string
		spoil      func()
	}{
		{"damaged", "damaged", func() { os.WriteFile(marks, good[:len(good)-3], 0o644) }},
		{"symbolic link", "not a regular file", func() { os.Symlink(elsewhere, marks) }},
		{"stale", "other contents", func() { os.WriteFile(marks, bytes.Replace(good, []byte("samples 20"), []byte("samples 21"), 1), 0o644) }},
	} {
		os.Remove(marks)
		tc.spoil()
		for _, args := range [][]string{
			{"subset", "--force", "--max", "10", ai, al, oi, ol},
			{"convert", "--force", al, ol},
		} {
			code, _, errOut := runCLI(args...)
			if code != 0 || !strings.Contains(errOut, marks) || !strings.Contains(errOut, tc.says) {
				t.Errorf("%s, %s: exit %d, %q", tc.name, args[0], code, errOut)
			}
			if _, err := os.Lstat(pairfile.AcceptedFile(ol)); !os.IsNotExist(err) {
				t.Errorf("%s, %s: marks kept from a marks file refused (%v)", tc.name, args[0], err)
			}
		}
	}
}

// Marks that cannot be kept beside the derived labels (a folder in the way of the marks file) are
// an error saying the pair is written and its pseudo-labels count as typed; the pair is there.
func TestDerivedMarksNotKeptSaid(t *testing.T) {
	dir := t.TempDir()
	ai, al := markedInput(t, dir, "a", 20, 0, []int{2, 5})
	oi, ol := filepath.Join(dir, "o-images"), filepath.Join(dir, "o-labels")
	if err := os.MkdirAll(filepath.Join(pairfile.AcceptedFile(ol), "in-the-way"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI("subset", "--max", "10", ai, al, oi, ol)
	if code != 1 || !strings.Contains(errOut, ol+" is written, but") || !strings.Contains(errOut, "count as typed") {
		t.Fatalf("exit %d, %q", code, errOut)
	}
	if code, out, errOut := runCLI("verify", oi, ol); code != 0 {
		t.Fatalf("the pair written does not verify: %s %s", out, errOut)
	}
}

// A derived pair written through a symbolic link to an existing label file (written through to
// the file it names) keeps its marks beside that file, where opening it by its own name finds
// them, and the marks that were there from before go; opened through the link, the same marks.
func TestDerivedMarksThroughALink(t *testing.T) {
	dir := t.TempDir()
	marks := []int{2, 5, 9}
	ai, al := markedInput(t, dir, "a", 20, 0, marks)
	real, links := filepath.Join(dir, "real"), filepath.Join(dir, "links")
	os.MkdirAll(real, 0o755)
	os.MkdirAll(links, 0o755)
	ri, rl := filepath.Join(real, "o-images"), filepath.Join(real, "o-labels")
	if code, _, e := runCLI("subset", "--max", "8", ai, al, ri, rl); code != 0 { // marks 2 and 5 beside rl
		t.Fatal(e)
	}
	link := filepath.Join(links, "o-labels")
	if err := os.Symlink(rl, link); err != nil {
		t.Fatal(err)
	}
	if code, _, e := runCLI("subset", "--force", "--max", "12", ai, al, ri, link); code != 0 {
		t.Fatal(e)
	}
	marked := map[int]bool{2: true, 5: true, 9: true}
	fromA := func(v int) int { return v }
	if n := derivedMarks(t, "subset through a link, opened by the file's name", ri, rl, fromA, marked); n == 0 {
		t.Error("the subset through the link holds no marked sample: the test proves nothing")
	}
	derivedMarks(t, "subset through a link, opened through it", ri, link, fromA, marked)
	if _, err := os.Lstat(link + pairfile.AcceptedSuffix); !os.IsNotExist(err) {
		t.Errorf("a marks file beside the link, not the file it names (%v)", err)
	}
}

// An output whose marks file, of either kind, would be an input (an input named
// "<out>.idxlabel-accepted" or "<out>.idxlabel-reviewed") is refused: the write removes the marks
// beside its output once it is in place, and would have removed the input. The input stays byte
// for byte.
func TestOutputsMarksFileIsNoInput(t *testing.T) {
	for _, kind := range pairfile.MarksKinds {
		dir := t.TempDir()
		ai, al := markedInput(t, dir, "a", 20, 0, nil)
		ol := filepath.Join(dir, "o-labels")
		in := kind.File(ol)
		if err := os.Rename(al, in); err != nil {
			t.Fatal(err)
		}
		want, _ := os.ReadFile(in)
		for _, args := range [][]string{
			{"convert", in, ol},
			{"subset", "--max", "10", ai, in, filepath.Join(dir, "o-images"), ol},
		} {
			code, _, errOut := runCLI(args...)
			got, err := os.ReadFile(in)
			if code != 2 || err != nil || !bytes.Equal(got, want) || !strings.Contains(errOut, "marks file "+in) {
				t.Errorf("%s into the output whose marks file is the input %s: exit %d, %q; the input %v (read: %v)", args[0], in, code, errOut, bytes.Equal(got, want), err)
			}
		}
	}
}
