package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
)

// runCLI runs one invocation as Run does, except that no progress line ever shows (progressLine:
// noProgress), so that what a command prints does not depend on how long it took on a loaded
// machine; TestProgressLine tests the lines themselves with a clock of its own.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = newCLI(&o, &e, noProgress).run(args, noGUI)
	return code, o.String(), e.String()
}

// noProgress is a progressAfter that no work reaches.
const noProgress = time.Duration(math.MaxInt64)

// errGUI is what noGUI returns: the command line asked for the GUI.
var errGUI = errors.New("the GUI would open")

// noGUI stands in for the GUI in tests: it opens nothing and says it was asked.
func noGUI([]string) error { return errGUI }

func TestInfoRealLabels(t *testing.T) {
	p := mnisttest.Path(t, mnisttest.TestLabels)
	code, out, errOut := runCLI("info", p)
	if code != 0 || errOut != "" {
		t.Fatalf("info exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"0x00000801 (2049)", "dtype   ubyte", "dims    10000", "classes 10", "     1     1135  11.3%", "(gzip)"} {
		if !strings.Contains(out, want) {
			t.Errorf("info output lacks %q:\n%s", want, out)
		}
	}
}

func TestInfoRealImagesHasNoHistogram(t *testing.T) {
	code, out, _ := runCLI("info", mnisttest.Path(t, mnisttest.TestImages))
	if code != 0 || !strings.Contains(out, "dims    10000×28×28") || strings.Contains(out, "classes") {
		t.Fatalf("info on images: exit %d\n%s", code, out)
	}
}

func TestVerifyRealPair(t *testing.T) {
	code, out, _ := runCLI("verify", mnisttest.Path(t, mnisttest.TestImages), mnisttest.Path(t, mnisttest.TestLabels))
	if code != 0 || !strings.HasPrefix(out, "ok: 10000 samples") || !strings.Contains(out, "10 classes (0–9)") {
		t.Fatalf("verify: exit %d, %q", code, out)
	}
}

// verify refuses a pair whose counts differ, naming both files and both counts.
func TestVerifyCountMismatch(t *testing.T) {
	dir := t.TempDir()
	images, _ := genPair(t, dir, 100)
	_, labels := genPair(t, t.TempDir(), 600)
	code, out, errOut := runCLI("verify", images, labels)
	want := "idxlabel: " + labels + " has 600 labels, but " + images + " has 100 images: the counts must match\n"
	if code != 1 || out != "" || errOut != want {
		t.Fatalf("exit %d, stderr %q, want %q", code, errOut, want)
	}
}

func TestVerifyRejectsFloatLabels(t *testing.T) {
	dir := t.TempDir()
	images, _ := idx.New(idx.UByte, 2, 3, 3)
	labels, _ := idx.New(idx.Float32, 2)
	idx.WriteFile(filepath.Join(dir, "i"), images)
	idx.WriteFile(filepath.Join(dir, "l"), labels)
	code, _, errOut := runCLI("verify", filepath.Join(dir, "i"), filepath.Join(dir, "l"))
	if code != 1 || !strings.Contains(errOut, "labels must be integers (ubyte, sbyte, int16 or int32), found dtype float32") {
		t.Fatalf("exit %d, %q", code, errOut)
	}
}

// convert re-encodes 10,000 labels as plain IDX and as gzip, the data unchanged.
func TestConvertRoundTripsGzipAndPlain(t *testing.T) {
	dir := t.TempDir()
	_, src := genPair(t, dir, 10000)
	plain, gz := filepath.Join(dir, "labels"), filepath.Join(dir, "labels.gz")
	if code, _, e := runCLI("convert", src, plain); code != 0 {
		t.Fatal(e)
	}
	if code, _, e := runCLI("convert", plain, gz); code != 0 {
		t.Fatal(e)
	}
	raw, _ := os.ReadFile(plain)
	if len(raw) != 10008 || idx.IsGzip(raw) {
		t.Fatalf("plain output: %d bytes", len(raw))
	}
	if isGz, _ := idx.IsGzipFile(gz); !isGz {
		t.Fatal(".gz output is not gzip")
	}
	a, _ := idx.ReadFile(src)
	b, err := idx.ReadFile(gz)
	if err != nil || !bytes.Equal(a.Data, b.Data) {
		t.Fatalf("convert changed the data: %v", err)
	}
}

func TestConvertFailureLeavesOutputUntouched(t *testing.T) {
	dir := t.TempDir()
	bad, out := filepath.Join(dir, "bad"), filepath.Join(dir, "out")
	os.WriteFile(bad, []byte{0, 0, 8, 1, 0, 0, 0, 5, 1, 2}, 0o644)
	os.WriteFile(out, []byte("precious"), 0o644)
	code, _, errOut := runCLI("convert", "--force", bad, out)
	if code != 1 || !strings.HasPrefix(errOut, "idxlabel: "+bad+": truncated IDX data") {
		t.Fatalf("exit %d, %q", code, errOut)
	}
	if b, _ := os.ReadFile(out); string(b) != "precious" {
		t.Fatal("a failed convert changed OUT")
	}
}

func TestErrorsAndUsage(t *testing.T) {
	cases := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"info"}, 2, "idxlabel: usage: idxlabel info FILE...\n"},
		{[]string{"verify", "a"}, 2, "idxlabel: usage: idxlabel verify IMAGES LABELS\n"},
		{[]string{"convert", "--bogus", "a", "b"}, 2, "idxlabel: convert: flag provided but not defined: -bogus\n"},
		{[]string{"info", "/nonexistent/x"}, 1, "idxlabel: /nonexistent/x: no such file or directory\n"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(c.args...)
		if code != c.code || errOut != c.stderr {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q", c.args, code, errOut, c.code, c.stderr)
		}
	}
	if code, out, _ := runCLI("help"); code != 0 || !strings.Contains(out, "verify") {
		t.Errorf("help: exit %d", code)
	}
}

// writePair writes images n×dims… ubyte and the given int32 labels (one column, or rows of k).
func writeTestPair(t *testing.T, dir string, imageDims []int, labels []int64, k int) (string, string) {
	t.Helper()
	images, err := idx.New(idx.UByte, imageDims...)
	if err != nil {
		t.Fatal(err)
	}
	dims := []int{len(labels) / k}
	if k > 1 {
		dims = append(dims, k)
	}
	la, err := idx.New(idx.Int32, dims...)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range labels {
		la.SetInt(i, v)
	}
	ip, lp := filepath.Join(dir, "images"), filepath.Join(dir, "labels")
	if err := idx.WriteFile(ip, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(lp, la); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// TestVerifyFollowsThePairRule: verify and the app (pairfile.CheckPair) agree: both open N×1×H×W,
// and both take the label −2147483648 as a sample without a label.
func TestVerifyFollowsThePairRule(t *testing.T) {
	dir := t.TempDir()
	ip, lp := writeTestPair(t, dir, []int{3, 1, 28, 28}, []int64{4, 2, 4}, 1)
	if code, out, e := runCLI("verify", ip, lp); code != 0 || out != "ok: 3 samples; images 0x00000804 ubyte 3×1×28×28; labels 0x00000c01 int32 3, 2 classes (2–4)\n" {
		t.Fatalf("N×1×28×28: exit %d, %q %q", code, out, e)
	}
	ip, lp = writeTestPair(t, dir, []int{3, 28, 28}, []int64{4, math.MinInt32, 4}, 1)
	// −2147483648 is a sample without a label (idxlabel saves labels typed on part of a file so).
	if code, out, e := runCLI("verify", ip, lp); code != 0 || out != "ok: 3 samples; images 0x00000803 ubyte 3×28×28; labels 0x00000c01 int32 3, 1 classes (4–4); 1 unlabelled (-2147483648)\n" {
		t.Fatalf("label -2147483648: exit %d, %q %q", code, out, e)
	}
	ip, lp = writeTestPair(t, dir, []int{3, 3, 28, 28}, []int64{4, 2, 4}, 1)
	if code, _, e := runCLI("verify", ip, lp); code != 1 || !strings.Contains(e, "images must be N×H×W") {
		t.Fatalf("N×3×28×28: exit %d, %q", code, e)
	}
	// QMNIST-style N×K labels: the class is column 0, whatever the other columns hold.
	ip, lp = writeTestPair(t, dir, []int{3, 28, 28}, []int64{7, math.MinInt32, -9, 1, 5, 5, 7, 0, 0}, 3)
	if code, out, e := runCLI("verify", ip, lp); code != 0 || !strings.HasSuffix(out, "labels 0x00000c02 int32 3×3, 2 classes (1–7)\n") {
		t.Fatalf("N×3 labels: exit %d, %q %q", code, out, e)
	}
}

// TestSameFileIsAUsageError: `import DIR X X` used to report success with only the labels in X.
func TestSameFileIsAUsageError(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "digits")
	writeDigitPNG(t, filepath.Join(tree, "7", "a.png"), 60, 60, 0)
	x := filepath.Join(dir, "x")
	ip, lp := writeTestPair(t, dir, []int{3, 28, 28}, []int64{1, 2, 3}, 1)
	link := filepath.Join(dir, "link")
	os.Symlink(ip, link)
	hard := filepath.Join(dir, "hard")
	os.Link(ip, hard)
	rel, _ := filepath.Rel(mustGetwd(t), ip)
	cases := [][]string{
		{"import", tree, x, x},
		{"import", tree, x, filepath.Join(dir, ".", "x")},
		{"import", tree, filepath.Join(tree, "7", "a.png"), x},
		{"import", tree, tree, x},
		{"convert", ip, ip},
		{"convert", ip, rel},
		{"convert", ip, link},
		{"convert", ip, hard},
		{"normalize", filepath.Join(tree, "7", "a.png"), filepath.Join(tree, "7", "a.png")},
	}
	before, _ := os.ReadFile(ip)
	for _, args := range cases {
		code, _, e := runCLI(args...)
		if code != 2 || !strings.Contains(e, "idxlabel: ") || !(strings.Contains(e, "same file") || strings.Contains(e, "is the input")) {
			t.Errorf("%v: exit %d, %q; want a usage error", args, code, e)
		}
	}
	if _, err := os.Stat(x); err == nil {
		t.Error("a refused import wrote its output")
	}
	if after, _ := os.ReadFile(ip); !bytes.Equal(before, after) {
		t.Error("an input was changed")
	}
	_ = lp
}

func mustGetwd(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

// TestGzipOutputNameNotLatin1: such a name used to fail with "gzip.Write: non-Latin-1 header
// string".
func TestGzipOutputNameNotLatin1(t *testing.T) {
	dir := t.TempDir()
	ip, _ := writeTestPair(t, dir, []int{2, 28, 28}, []int64{1, 2}, 1)
	out := filepath.Join(dir, "цифры-数字.gz")
	if code, _, e := runCLI("convert", ip, out); code != 0 {
		t.Fatalf("exit %d, %q", code, e)
	}
	if code, _, e := runCLI("info", out); code != 0 {
		t.Fatalf("info: %q", e)
	}
}

// TestConvertRemovesStaleTemps: a convert killed mid-write leaves ".<out>.idxlabel-tmp-N"; the
// next convert to the same target removes those older than an hour and leaves the rest.
func TestConvertRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	ip, _ := writeTestPair(t, dir, []int{2, 28, 28}, []int64{1, 2}, 1)
	out := filepath.Join(dir, "out.gz")
	stale, fresh, other := filepath.Join(dir, ".out.gz.idxlabel-tmp-1"), filepath.Join(dir, ".out.gz.idxlabel-tmp-2"), filepath.Join(dir, ".images.idxlabel-tmp-3")
	old := time.Now().Add(-3 * time.Hour)
	for _, p := range []string{stale, fresh, other} {
		os.WriteFile(p, []byte("partial"), 0o644)
		if p != fresh {
			os.Chtimes(p, old, old)
		}
	}
	if code, _, e := runCLI("convert", ip, out); code != 0 {
		t.Fatalf("exit %d, %q", code, e)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the stale temporary file is still there")
	}
	for _, p := range []string{fresh, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", p)
		}
	}
}

// TestConvertWritesThroughSymlink: the documented choice for a symbolic link as OUT.
func TestConvertWritesThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	ip, _ := writeTestPair(t, dir, []int{2, 28, 28}, []int64{1, 2}, 1)
	real := filepath.Join(dir, "real")
	os.WriteFile(real, []byte("old"), 0o644)
	link := filepath.Join(dir, "link")
	if err := os.Symlink("real", link); err != nil {
		t.Skip(err)
	}
	if code, _, e := runCLI("convert", ip, link); code != 1 || !strings.Contains(e, "link: exists (use --force") {
		t.Fatalf("without --force: exit %d, %q", code, e)
	}
	if code, _, e := runCLI("convert", "--force", ip, link); code != 0 {
		t.Fatalf("exit %d, %q", code, e)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	if a, err := idx.ReadFile(real); err != nil || a.Dims[0] != 2 {
		t.Fatalf("the link's target: %v", err)
	}
}

// TestInfoManyDistinctLabels: the class histogram keeps at most maxClasses values, so a label
// file of millions of distinct int32 values cannot make info hold a map of millions of entries.
func TestInfoManyDistinctLabels(t *testing.T) {
	n := maxClasses + 10
	la, _ := idx.New(idx.Int32, n)
	for i := range n {
		la.SetInt(i, int64(i*3-1000))
	}
	p := filepath.Join(t.TempDir(), "labels")
	idx.WriteFile(p, la)
	code, out, e := runCLI("info", p)
	want := "  classes more than 65536 (values -1000 to " + fmt.Sprint((n-1)*3-1000) + "; no histogram)\n"
	if code != 0 || !strings.HasSuffix(out, want) {
		t.Fatalf("exit %d, %q, %q; want the suffix %q", code, out, e, want)
	}
}

// An empty pair (0×28×28 images, 0 labels; a header and no data, valid IDX) is accepted by every
// command that reads a pair: info and verify describe it, convert copies it (plain and gzip),
// export writes 0 samples in each format, diff finds 0 of 0 labels differing. suspects reads it
// and says it has nothing to rank (a scan needs two samples).
func TestEmptyPairEveryCommand(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genPair(t, dir, 0)
	code, out, errOut := runCLI("info", ip, lp)
	if code != 0 || errOut != "" || !strings.Contains(out, "dims    0×28×28") || !strings.Contains(out, "count   0\n") || !strings.Contains(out, "classes 0") {
		t.Fatalf("info: exit %d, stderr %q\n%s", code, errOut, out)
	}
	code, out, errOut = runCLI("verify", ip, lp)
	if code != 0 || out != "ok: 0 samples; images 0x00000803 ubyte 0×28×28; labels 0x00000801 ubyte 0, 0 classes\n" {
		t.Fatalf("verify: exit %d, %q %q", code, out, errOut)
	}
	for _, name := range []string{"copy", "copy.gz"} {
		p := filepath.Join(dir, name)
		if code, _, errOut := runCLI("convert", lp, p); code != 0 {
			t.Fatalf("convert to %s: exit %d %s", name, code, errOut)
		}
		if h, err := idx.ReadHeaderFile(p); err != nil || h.String() != "0x00000801 ubyte 0" {
			t.Fatalf("convert to %s: %v %v", name, h, err)
		}
	}
	tree := filepath.Join(dir, "tree")
	if code, _, errOut := runCLI("export", ip, lp, tree); code != 0 {
		t.Fatalf("export png: exit %d %s", code, errOut)
	}
	if entries, err := os.ReadDir(tree); err != nil || len(entries) != 1 || entries[0].Name() != ".idxlabel-export" {
		t.Fatalf("the tree of 0 samples holds %v (%v), want its marker alone", entries, err)
	}
	csv := filepath.Join(dir, "out.csv")
	if code, _, errOut := runCLI("export", "--format", "csv", ip, lp, csv); code != 0 {
		t.Fatalf("export csv: exit %d %s", code, errOut)
	}
	if b, _ := os.ReadFile(csv); strings.Count(string(b), "\n") != 1 || !strings.HasPrefix(string(b), "label,pixel0,") {
		t.Fatalf("csv of 0 samples: %.80q", b)
	}
	npz := filepath.Join(dir, "out.npz")
	if code, _, errOut := runCLI("export", "--format", "npz", ip, lp, npz); code != 0 {
		t.Fatalf("export npz: exit %d %s", code, errOut)
	}
	if b, _ := os.ReadFile(npz); !bytes.Contains(b, []byte("'shape': (0, 28, 28)")) || !bytes.Contains(b, []byte("'shape': (0,)")) {
		t.Fatal("npz of 0 samples lacks x of shape (0, 28, 28) and y of shape (0,)")
	}
	if code, out, errOut := runCLI("diff", lp, lp); code != 0 || out != "index,a,b\n" || errOut != "0 of 0 labels differ\n" {
		t.Fatalf("diff: exit %d %q %q", code, out, errOut)
	}
	if code, _, errOut := runCLI("suspects", "--method", "knn", ip, lp); code != 1 || !strings.Contains(errOut, "the dataset has 0") {
		t.Fatalf("suspects: exit %d %q", code, errOut)
	}
}

// "--" ends the options for every operand after it, not only the first: files named "-a" and
// "-b" verify, and a file named "--" after the first "--" is an operand too.
func TestDoubleDashEndsOptions(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genPair(t, dir, 3)
	for _, name := range []string{"-a", "-b", "--"} {
		src := lp
		if name == "-a" {
			src = ip
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	if code, out, errOut := runCLI("verify", "--", "-a", "-b"); code != 0 || !strings.HasPrefix(out, "ok: 3 samples") {
		t.Fatalf("verify -- -a -b: exit %d, %q %q", code, out, errOut)
	}
	if code, out, errOut := runCLI("info", "--", "-b", "--"); code != 0 || strings.Count(out, "count   3") != 2 {
		t.Fatalf("info -- -b --: exit %d, %q %q", code, out, errOut)
	}
	if code, _, errOut := runCLI("verify", "-a", "--", "-b"); code != 2 || !strings.Contains(errOut, "flag provided but not defined: -a") {
		t.Fatalf("verify -a -- -b (an option before --): exit %d %q", code, errOut)
	}
}

// A command stopped by Ctrl+C (its context cancelled) exits 130, as shells report SIGINT, and
// says it was interrupted instead of printing "context canceled".
func TestInterruptExits130(t *testing.T) {
	var stderr strings.Builder
	c := &cli{stderr: &stderr}
	if got := c.exit(fmt.Errorf("t10k-images-idx3-ubyte.gz: %w", context.Canceled)); got != 130 {
		t.Fatalf("exit status %d, want 130", got)
	}
	if !strings.Contains(stderr.String(), "interrupted") || strings.Contains(stderr.String(), "context canceled") {
		t.Fatalf("said %q", stderr.String())
	}
}

// Every sub-command answers -h and --help with its synopsis and options on stdout and exit 0
// (check prints its own longer help), and lists each option its flag set defines.
func TestCommandHelp(t *testing.T) {
	for _, cmd := range commands {
		for _, h := range []string{"-h", "--help"} {
			code, out, errOut := runCLI(cmd.name, h)
			if code != 0 || errOut != "" {
				t.Errorf("%s %s: exit %d, stderr %q", cmd.name, h, code, errOut)
			}
			want := strings.TrimSpace("usage: idxlabel " + cmd.name + " " + cmd.args)
			if cmd.name == "check" {
				want = "usage: idxlabel check"
			}
			if !strings.HasPrefix(out, want) {
				t.Errorf("%s %s: stdout %q, want it to start with %q", cmd.name, h, out, want)
			}
		}
	}
	_, out, _ := runCLI("normalize", "--help")
	for _, opt := range []string{"--center", "--ink", "--threshold", "(default mass)"} {
		if !strings.Contains(out, opt) {
			t.Errorf("normalize --help: no %q in %q", opt, out)
		}
	}
	if _, out, _ := runCLI("suspects", "--help"); strings.Contains(out, "--duplicates") || !strings.Contains(out, "--seeds") {
		t.Errorf("suspects --help lists --duplicates or omits --seeds: %q", out)
	}
}
