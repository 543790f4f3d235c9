package cli

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// TestSuggestUsageErrors checks the usage errors (exit 2, before any file is read: the files
// do not exist) and --help (exit 0, the usage on stdout).
func TestSuggestUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--ask", "0", "/nonexistent/i"}, "--ask must be at least 1, not 0"},
		{[]string{"--ask", "-2", "/nonexistent/i"}, "--ask must be at least 1, not -2"},
		{[]string{"--seed", "0", "/nonexistent/i"}, "--seed must be at least 1"},
		{[]string{"/nonexistent/i", "/nonexistent/l", "/nonexistent/x"}, "usage: idxlabel suggest"},
		{[]string{}, "usage: idxlabel suggest"},
	}
	for _, c := range cases {
		code, out, errOut := runCLI(append([]string{"suggest"}, c.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, code, out, errOut, c.want)
		}
	}
	code, out, _ := runCLI("suggest", "--help")
	if code != 0 || !strings.Contains(out, "usage: idxlabel suggest [--ask N] [--fast] [--accepted CSV] [--per-class P] [--seed S] [--no-cache] IMAGES [LABELS]") {
		t.Errorf("--help: exit %d, %q", code, out)
	}
}

// barImages writes n generated 28×28 images (even samples a horizontal bar, odd a vertical
// one, each shifted at random by up to ±3 px) as an IDX image file in dir, named as MNIST names
// its images, and returns its path and each sample's class (0 horizontal, 1 vertical).
func barImages(t *testing.T, dir string, n int) (string, []int) {
	a, _ := idx.New(idx.UByte, n, 28, 28)
	rng := rand.New(rand.NewPCG(1, 2))
	cls := make([]int, n)
	for i := range n {
		cls[i] = i % 2
		at := 14 + rng.IntN(7) - 3
		from, to := 4+rng.IntN(3), 22+rng.IntN(3)
		for p := from; p < to; p++ {
			for w := -1; w <= 1; w++ {
				y, x := at+w, p
				if cls[i] == 1 {
					y, x = p, at+w
				}
				a.Data[i*784+y*28+x] = 255
			}
		}
	}
	path := filepath.Join(dir, "bars-images-idx3-ubyte")
	if err := idx.WriteFile(path, a); err != nil {
		t.Fatal(err)
	}
	return path, cls
}

// TestSuggestLoop runs the loop on generated images: --ask with no label file names distinct
// samples (the same for the same seed); the asked samples labelled in an int32 file beside the
// images (−2147483648 for the rest, found without naming it), suggest lists every other sample
// once, most confident first, and gets them right.
func TestSuggestLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("trains CNNs for seconds: left out of go test -short (make test runs it)")
	}
	dir := t.TempDir()
	const n = 200
	images, cls := barImages(t, dir, n)
	code, out, errOut := runCLI("suggest", "--ask", "6", images)
	if code != 0 {
		t.Fatalf("--ask: exit %d, %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 || lines[0] != "index" {
		t.Fatalf("--ask 6: %q", out)
	}
	if !strings.Contains(errOut, "asked for 6") {
		t.Errorf("--ask: stderr %q", errOut)
	}
	if _, again, _ := runCLI("suggest", "--ask", "6", images); again != out {
		t.Errorf("the same seed asked %q, then %q", out, again)
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = sample.NoLabel
	}
	for _, l := range lines[1:] {
		i, err := strconv.Atoi(l)
		if err != nil || i < 0 || i >= n || labels[i] != sample.NoLabel {
			t.Fatalf("--ask printed %q", l)
		}
		labels[i] = cls[i]
	}
	if slices.Index(labels, 0) < 0 || slices.Index(labels, 1) < 0 {
		t.Fatalf("the asks %v cover one class only", lines[1:])
	}
	lab, _ := idx.New(idx.Int32, n)
	for i, l := range labels {
		binary.BigEndian.PutUint32(lab.Data[4*i:], uint32(int32(l)))
	}
	if err := idx.WriteFile(pairfile.LabelsFileFor(images), lab); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI("suggest", images)
	if code != 0 {
		t.Fatalf("suggest: exit %d, %s", code, errOut)
	}
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if rows[0] != "index,suggested,confidence" || len(rows) != n-6+1 {
		t.Fatalf("suggest printed %d lines, header %q", len(rows), rows[0])
	}
	seen := map[int]bool{}
	last := 2.0
	for _, r := range rows[1:] {
		f := strings.Split(r, ",")
		i, _ := strconv.Atoi(f[0])
		s, _ := strconv.Atoi(f[1])
		c, _ := strconv.ParseFloat(f[2], 64)
		if len(f) != 3 || labels[i] != sample.NoLabel || seen[i] || c > last || s != cls[i] {
			t.Fatalf("row %q: labelled, repeated, out of order or wrong (class %d)", r, cls[i])
		}
		seen[i], last = true, c
	}
	if !strings.Contains(errOut, "labels: ") || !strings.Contains(errOut, "suggested 194") {
		t.Errorf("suggest: stderr %q", errOut)
	}
}

// TestSuggestKeptAcceptedPerClass: the first call learns the features and keeps them beside
// the images, the next reads them; --fast lists the first suggestions; --per-class counts them
// at a threshold, class by class; --accepted takes the rows of an earlier output whose labels
// were written into the label file: they are not suggested again, and the others' confidences
// do not move; a bad --accepted file is an error naming it.
func TestSuggestKeptAcceptedPerClass(t *testing.T) {
	dir := t.TempDir()
	const n = 120
	images, cls := barImages(t, dir, n)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = sample.NoLabel
	}
	for _, i := range []int{0, 1, 2, 3} {
		labels[i] = cls[i]
	}
	write := func() {
		lab, _ := idx.New(idx.Int32, n)
		for i, l := range labels {
			binary.BigEndian.PutUint32(lab.Data[4*i:], uint32(int32(l)))
		}
		if err := idx.WriteFile(pairfile.LabelsFileFor(images), lab); err != nil {
			t.Fatal(err)
		}
	}
	write()
	code, out, errOut := runCLI("suggest", "--fast", images)
	if code != 0 || !strings.Contains(errOut, "features learnt") {
		t.Fatalf("--fast: exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(images + ".idxlabel-space"); err != nil {
		t.Fatalf("no space kept beside the images: %v", err)
	}
	if rows := strings.Split(strings.TrimSpace(out), "\n"); len(rows) != n-4+1 || rows[0] != "index,suggested,confidence" {
		t.Fatalf("--fast printed %d rows", len(rows))
	}
	code, out, errOut = runCLI("suggest", "--per-class", "0.5", images)
	if code != 0 || !strings.Contains(errOut, "features read from") {
		t.Fatalf("--per-class: exit %d, %s", code, errOut)
	}
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if len(rows) != 3 || rows[0] != "class,suggested,accepted,expected_wrong" {
		t.Fatalf("--per-class printed %q", out)
	}
	total := 0
	for _, r := range rows[1:] {
		f := strings.Split(r, ",")
		s, _ := strconv.Atoi(f[1])
		a, _ := strconv.Atoi(f[2])
		if len(f) != 4 || a > s {
			t.Fatalf("--per-class row %q", r)
		}
		total += s
	}
	if total != n-4 {
		t.Errorf("--per-class counted %d suggestions of %d", total, n-4)
	}
	_, out, _ = runCLI("suggest", images)
	before := map[string]string{}
	var accept []string
	for k, r := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		f := strings.Split(r, ",")
		before[f[0]] = r
		if k%2 == 0 { // accept every other suggestion, whatever its confidence
			accept = append(accept, f[0])
			i, _ := strconv.Atoi(f[0])
			labels[i], _ = strconv.Atoi(f[1])
		}
	}
	write()
	acc := filepath.Join(dir, "accepted.csv")
	os.WriteFile(acc, []byte("suggested,index\n1,"+strings.Join(accept, "\n1,")+"\n"), 0o644)
	code, out, errOut = runCLI("suggest", "--accepted", acc, images)
	if code != 0 {
		t.Fatalf("--accepted: exit %d, %s", code, errOut)
	}
	after := strings.Split(strings.TrimSpace(out), "\n")[1:]
	if len(after) != n-4-len(accept) {
		t.Fatalf("%d suggestions after accepting %d of %d", len(after), len(accept), n-4)
	}
	for _, r := range after {
		if before[strings.Split(r, ",")[0]] != r {
			t.Errorf("after the accept %q, before %q", r, before[strings.Split(r, ",")[0]])
		}
	}
	// The window's save keeps the same marks beside the labels: without --accepted they are
	// read from there, to the same output; once the labels change, they are stale: ignored,
	// with a warning naming the file.
	lp := pairfile.LabelsFileFor(images)
	im, _ := idx.ReadFile(images)
	lab, _ := idx.ReadFile(lp)
	var marks []int
	for _, a := range accept {
		i, _ := strconv.Atoi(a)
		marks = append(marks, i)
	}
	slices.Sort(marks)
	if err := pairfile.WriteAccepted(pairfile.AcceptedFile(lp), pairfile.KeyOf(lab, pairfile.ImagesCRC(im.Data)), marks); err != nil {
		t.Fatal(err)
	}
	code, kept, errOut := runCLI("suggest", images)
	if code != 0 || kept != out || !strings.Contains(errOut, fmt.Sprintf("%d labels are accepted suggestions", len(marks))) {
		t.Fatalf("marks kept beside the labels: exit %d, %s; the same output as --accepted: %v", code, errOut, kept == out)
	}
	was := labels[marks[0]]
	labels[marks[0]] = sample.NoLabel
	write()
	code, stale, errOut := runCLI("suggest", images)
	if code != 0 || stale == out || !strings.Contains(errOut, pairfile.AcceptedFile(lp)) || !strings.Contains(errOut, "other contents") {
		t.Fatalf("stale marks: exit %d, %s", code, errOut)
	}
	labels[marks[0]] = was
	write()
	for name, body := range map[string]string{
		"no index":   "a,b\n1,2\n",
		"not number": "index\nx\n",
		"beyond":     "index\n" + strconv.Itoa(n) + "\n",
		"twice":      "index\n" + accept[0] + "\n" + accept[0] + "\n",
		"no label":   "index\n" + strings.Split(after[0], ",")[0] + "\n",
	} {
		os.WriteFile(acc, []byte(body), 0o644)
		if code, _, errOut := runCLI("suggest", "--accepted", acc, images); code != 1 || !strings.Contains(errOut, acc) {
			t.Errorf("%s: exit %d, %q", name, code, errOut)
		}
	}
	for _, args := range [][]string{{"--per-class", "1.5", images}, {"--ask", "3", "--fast", images}} {
		if code, _, _ := runCLI(append([]string{"suggest"}, args...)...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestReadAcceptedBounded: an --accepted file is untrusted: a line longer than 64 KiB is
// refused (the CSV reader held whole lines of up to 64 MiB), and a message quotes at most 40
// characters of what it found (a 1 MB header without an index column was echoed whole).
func TestReadAcceptedBounded(t *testing.T) {
	dir := t.TempDir()
	data := sample.Set{N: 10, H: 28, W: 28, Labels: []int{0, 1, 0, 1, 0, 1, 0, 1, 0, 1}}
	for name, c := range map[string]struct{ text, says string }{
		"header": {strings.Repeat("a", 1<<20) + "\n1\n", "longer than 65536 bytes"},
		"row":    {"index\n" + strings.Repeat("7", 1<<20) + "\n", "longer than 65536 bytes"},
		"column": {strings.Repeat("b", 60000) + "\n1\n", "no column named index"},
		"value":  {"index\n" + strings.Repeat("7", 60000) + "\n", "is not a sample"},
	} {
		path := filepath.Join(dir, name+".csv")
		if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readAccepted(path, data)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), c.says) || len(err.Error()) > len(path)+200 {
			msg := fmt.Sprint(err)
			t.Errorf("%s: %d bytes: %.200s", name, len(msg), msg)
		}
	}
	ok := filepath.Join(dir, "ok.csv")
	os.WriteFile(ok, []byte("index,suggested\n3,1\n8,0\n"), 0o644)
	if marks, err := readAccepted(ok, data); err != nil || !marks[3] || !marks[8] || marks[4] {
		t.Errorf("ok.csv: %v %v", marks, err)
	}
}
