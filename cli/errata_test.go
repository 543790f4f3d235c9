package cli

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	fixturedigits "idxlabel/fixture/digits"
	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
)

// corrected50 returns labels with 50 of them changed (a fixed spread of samples, 197 apart on
// t10k and closer on a set too small for that, each to another class) and the samples changed,
// increasing. labels holds at least 64.
func corrected50(labels []int64) ([]int64, []int) {
	fixed := slices.Clone(labels)
	var changed []int
	step := min(197, (len(labels)-14)/50)
	for k := range 50 {
		i := 13 + step*k
		fixed[i] = (fixed[i] + 1 + int64(k%9)) % 10
		changed = append(changed, i)
	}
	return fixed, changed
}

// deleteSample returns a copy of an N×… array without sample d.
func deleteSample(t *testing.T, a *idx.Array, d int) *idx.Array {
	t.Helper()
	dims := slices.Clone(a.Dims)
	dims[0]--
	out, err := idx.New(a.Type, dims...)
	if err != nil {
		t.Fatal(err)
	}
	row := len(a.Data) / a.Dims[0]
	copy(out.Data, a.Data[:d*row])
	copy(out.Data[d*row:], a.Data[(d+1)*row:])
	return out
}

// The errata round trip on the real t10k files: 50 labels corrected in a copy, `errata` of the
// official images, labels and the copy, then `apply-errata` on the official (gzip) files gives
// the corrected copy byte for byte. On a copy of the pair with one sample deleted it applies
// every row, those after the deletion by their pixels' hash (and the result is the corrected
// copy less that sample); a row whose hash or old label was tampered with is refused and listed
// with its reason (exit 1), the others applied.
func TestErrataRoundTripT10k(t *testing.T) {
	imagesGz, labelsGz := mnisttest.Path(t, mnisttest.TestImages), mnisttest.Path(t, mnisttest.TestLabels)
	images, labels := mnisttest.Load(t)
	// The SHA-256 of the decompressed t10k image file, as its README gives it.
	errataRoundTrip(t, imagesGz, labelsGz, images, labels, "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7")
}

// The errata round trip of TestErrataRoundTripT10k on 1,100 generated digits (fixture/digits,
// written as a gzip pair): it runs where the real files are not, for what it guards (a tampered
// row is refused, a row finds its sample by its pixels) is a safety promise.
func TestErrataRoundTripGenerated(t *testing.T) {
	images, labels := fixturedigits.Load(t, 1100) // the set build_test.go's digits use: made once
	dir := t.TempDir()
	imagesGz, labelsGz := filepath.Join(dir, "digits-images-idx3-ubyte.gz"), filepath.Join(dir, "digits-labels-idx1-ubyte.gz")
	if err := idx.WriteFile(imagesGz, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(labelsGz, labels); err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	if err := idx.Encode(&raw, images); err != nil {
		t.Fatal(err)
	}
	errataRoundTrip(t, imagesGz, labelsGz, images, labels, fmt.Sprintf("%x", sha256.Sum256(raw.Bytes())))
}

// errataRoundTrip runs the errata round trip on the gzip pair at imagesGz, labelsGz (decoded:
// images, labels, at least 64 samples), whose image file decompressed has the SHA-256 imagesSHA.
func errataRoundTrip(t *testing.T, imagesGz, labelsGz string, images, labels *idx.Array, imagesSHA string) {
	t.Helper()
	n := images.Dims[0]
	dir := t.TempDir()
	fixed, changed := corrected50(labels.Ints())
	fixedPath := writeLabels(t, dir, "fixed-labels", idx.UByte, 1, fixed)
	code, errata, errOut := runCLI("errata", "--note", "checked twice, by hand", imagesGz, labelsGz, fixedPath)
	if code != 0 || !strings.Contains(errOut, fmt.Sprintf("errata: 50 corrections of %d samples; images sha256 %s", n, imagesSHA)) {
		t.Fatalf("errata: exit %d %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(errata, "\n"), "\n")
	if len(lines) != 52 || lines[0] != fmt.Sprintf("# idxlabel errata: images sha256 %s, %d samples, %q", imagesSHA, n, filepath.Base(imagesGz)) || lines[1] != "index,sha256,old,new,votes,note" {
		t.Fatalf("errata:\n%s", errata)
	}
	if want := fmt.Sprintf("13,%x,%d,%d,,\"checked twice, by hand\"", sampleSHA(images, 13), labels.Int(13), fixed[13]); lines[2] != want {
		t.Fatalf("first row %q, want %q", lines[2], want)
	}
	errataPath := filepath.Join(dir, "errata.csv")
	os.WriteFile(errataPath, []byte(errata), 0o644)

	out := filepath.Join(dir, "out-labels")
	code, _, errOut = runCLI("apply-errata", errataPath, imagesGz, labelsGz, out)
	if code != 0 || !strings.Contains(errOut, "was made for these very images") || !strings.Contains(errOut, "applied 50 of 50 rows → "+out) {
		t.Fatalf("apply-errata: exit %d %s", code, errOut)
	}
	want, _ := os.ReadFile(fixedPath)
	unchanged(t, "the errata applied to the official files", out, want)

	// One sample deleted (between corrected samples 2 and 3): every row still applies.
	del := changed[2] + 50
	di, dl := filepath.Join(dir, "del-images"), filepath.Join(dir, "del-labels")
	idx.WriteFile(di, deleteSample(t, images, del))
	idx.WriteFile(dl, deleteSample(t, labels, del))
	delOut := filepath.Join(dir, "del-out")
	code, _, errOut = runCLI("apply-errata", errataPath, di, dl, delOut)
	after := 0 // the corrected samples after the deleted one: found at another index
	for _, i := range changed {
		if i > del {
			after++
		}
	}
	if code != 0 || !strings.Contains(errOut, "was made for other images") || !strings.Contains(errOut, fmt.Sprintf("applied 50 of 50 rows (%d found by their pixels at another index)", after)) {
		t.Fatalf("apply-errata on the copy less sample %d: exit %d %s", del, code, errOut)
	}
	fixedArr, _ := idx.ReadFile(fixedPath)
	wantDel := filepath.Join(dir, "want-del")
	idx.WriteFile(wantDel, deleteSample(t, fixedArr, del))
	want, _ = os.ReadFile(wantDel)
	unchanged(t, "the errata applied to the copy less one sample", delOut, want)

	// Tampered rows: a hash changed (line 5), an old label changed (line 9).
	tampered := strings.Split(errata, "\n")
	f := strings.Split(tampered[4], ",")
	f[1] = strings.Repeat("0", 64)
	tampered[4] = strings.Join(f, ",")
	f = strings.Split(tampered[8], ",")
	f[2] = fmt.Sprint((fixed[changed[6]] + 5) % 10)
	tampered[8] = strings.Join(f, ",")
	tamperedPath := filepath.Join(dir, "tampered.csv")
	os.WriteFile(tamperedPath, []byte(strings.Join(tampered, "\n")), 0o644)
	tOut := filepath.Join(dir, "tampered-out")
	code, _, errOut = runCLI("apply-errata", tamperedPath, imagesGz, labelsGz, tOut)
	if code != 1 || !strings.Contains(errOut, "applied 48 of 50 rows") || !strings.Contains(errOut, "2 rows left out (1 pixels not found, 1 label changed since)") ||
		!strings.Contains(errOut, fmt.Sprintf("tampered.csv:5: sample %d: no sample of these images has its pixels", changed[2])) ||
		!strings.Contains(errOut, fmt.Sprintf("tampered.csv:9: sample %d: its label is %d, not the row's old label", changed[6], labels.Int(changed[6]))) {
		t.Fatalf("tampered: exit %d %s", code, errOut)
	}
	got, _ := idx.ReadFile(tOut)
	for i, v := range got.Ints() {
		w := fixed[i]
		if i == changed[2] || i == changed[6] {
			w = labels.Int(i)
		}
		if v != w {
			t.Fatalf("tampered: sample %d labelled %d, want %d", i, v, w)
		}
	}
	// Applied again to its own result, every row is already done: exit 1, each listed.
	if code, _, errOut := runCLI("apply-errata", errataPath, imagesGz, out, filepath.Join(dir, "again")); code != 1 || !strings.Contains(errOut, "50 rows left out (50 already corrected)") {
		t.Fatalf("applied twice: exit %d %s", code, errOut)
	}
}

// sampleSHA is the SHA-256 of sample i's stored bytes, computed here apart from the package.
func sampleSHA(a *idx.Array, i int) [32]byte {
	row := len(a.Data) / a.Dims[0]
	return sha256.Sum256(a.Data[i*row : (i+1)*row])
}

// uniqueImages writes n 4×4 images, each different, and returns the path.
func uniqueImages(t *testing.T, dir string, n int) string {
	t.Helper()
	a, _ := idx.New(idx.UByte, n, 4, 4)
	for i := range n {
		a.Data[i*16], a.Data[i*16+1] = byte(i), byte(i>>8)
	}
	p := filepath.Join(dir, "images")
	if err := idx.WriteFile(p, a); err != nil {
		t.Fatal(err)
	}
	return p
}

// errata --votes takes each row's votes from agree --votes where the vote is the new label;
// apply-errata keeps a QMNIST-like file's other columns and its dtype, and refuses a new label
// the dtype cannot hold (ubyte: 300).
func TestErrataVotesColumnsAndDtype(t *testing.T) {
	dir := t.TempDir()
	ip := uniqueImages(t, dir, 6)
	old := writeLabels(t, dir, "old", idx.UByte, 1, []int64{0, 1, 2, 3, 4, 5})
	a2 := writeLabels(t, dir, "a2", idx.UByte, 1, []int64{0, 7, 2, 3, 4, 9})
	a3 := writeLabels(t, dir, "a3", idx.UByte, 1, []int64{0, 7, 2, 3, 4, 8})
	votes := filepath.Join(dir, "votes.csv")
	cons := filepath.Join(dir, "cons")
	if code, _, errOut := runCLI("agree", "--votes", votes, "--consensus", cons, old, a2, a3); code != 1 {
		t.Fatalf("agree: exit %d %s", code, errOut)
	}
	code, errata, errOut := runCLI("errata", "--votes", votes, ip, old, a2)
	if code != 0 || !strings.Contains(errata, ",1,7,2/3,\n") || !strings.Contains(errata, ",5,9,,\n") || !strings.Contains(errOut, "1 row: the new label is not") {
		t.Fatalf("errata --votes: exit %d\n%s%s", code, errata, errOut)
	}
	errataPath := filepath.Join(dir, "errata.csv")
	os.WriteFile(errataPath, []byte(errata), 0o644)
	wide := writeLabels(t, dir, "wide", idx.Int16, 3, []int64{0, 10, 20, 1, 11, 21, 2, 12, 22, 3, 13, 23, 4, 14, 24, 5, 15, 25})
	out := filepath.Join(dir, "out")
	if code, _, errOut := runCLI("apply-errata", errataPath, ip, wide, out); code != 0 {
		t.Fatalf("apply-errata: exit %d %s", code, errOut)
	}
	got, _ := idx.ReadFile(out)
	if got.Header.String() != "0x00000b02 int16 6×3" || !slices.Equal(got.Ints(), []int64{0, 10, 20, 7, 11, 21, 2, 12, 22, 3, 13, 23, 4, 14, 24, 9, 15, 25}) {
		t.Fatalf("applied to N×3 int16: %s %v", got.Header, got.Ints())
	}
	big := writeLabels(t, dir, "big", idx.Int32, 1, []int64{0, 300, 2, 3, 4, 5})
	code, errata, _ = runCLI("errata", ip, old, big)
	os.WriteFile(errataPath, []byte(errata), 0o644)
	if code != 0 {
		t.Fatal("errata to 300")
	}
	code, _, errOut = runCLI("apply-errata", "--force", errataPath, ip, old, out)
	if code != 1 || !strings.Contains(errOut, "sample 1: the new label 300 does not fit the label file's dtype") {
		t.Fatalf("300 into ubyte: exit %d %s", code, errOut)
	}
	if got, _ := idx.ReadFile(out); !slices.Equal(got.Ints(), []int64{0, 1, 2, 3, 4, 5}) || got.Type != idx.UByte {
		t.Fatalf("300 into ubyte: wrote %s %v", got.Header, got.Ints())
	}
}

// A forged errata file (an over-long line, bad hex, a negative index, a path in a field, binary
// data) stops apply-errata with exit 2 and a message naming the file and the line; no output is
// written. Bad input to errata (counts that differ, labels given as images) exits 2 too.
func TestErrataForgedAndBadInput(t *testing.T) {
	dir := t.TempDir()
	ip := uniqueImages(t, dir, 4)
	lp := writeLabels(t, dir, "labels", idx.UByte, 1, []int64{1, 2, 3, 4})
	d := strings.Repeat("ab", 32)
	const h = "index,sha256,old,new,votes,note\n"
	errataPath := filepath.Join(dir, "forged.csv")
	out := filepath.Join(dir, "out")
	for _, tc := range []struct{ text, want string }{
		{h + "0," + d + ",1,2,," + strings.Repeat("n", 100000) + "\n", errataPath + ":2: longer than 4096 bytes"},
		{h + "0,notahash,1,2,,\n", errataPath + ":2: sha256 \"notahash\""},
		{h + "-3," + d + ",1,2,,\n", errataPath + ":2: index \"-3\" is not a sample number"},
		{h + "../../../etc/passwd," + d + ",1,2,,\n", errataPath + ":2: index \"../../../etc/passwd\" is not a sample number"},
		{h + "0," + d + ",/etc/passwd,2,,\n", errataPath + ":2: old label \"/etc/passwd\" is not a 32-bit class"},
		{"\x00\x00\x08\x01\x00\x00\x00\x04\x01\x02\x03\x04", errataPath + ":1: binary data (a NUL byte): not a CSV file"},
	} {
		os.WriteFile(errataPath, []byte(tc.text), 0o644)
		code, stdout, errOut := runCLI("apply-errata", errataPath, ip, lp, out)
		if code != 2 || stdout != "" || !strings.HasPrefix(errOut, "idxlabel: "+tc.want) {
			t.Errorf("%.50q: exit %d, %q; want exit 2 and %q", tc.text, code, errOut, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%.50q: an output was written", tc.text)
		}
	}
	short := writeLabels(t, dir, "short", idx.UByte, 1, []int64{1, 2, 3})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{ip, lp, short}, short + " has 3 labels, but " + ip + " has 4 images"},
		{[]string{lp, lp, lp}, lp + ": images must be N×H×W"},
		{[]string{ip, lp, ip}, ip + ": labels must be N (or N×K"},
		{[]string{"--note", "two\nlines", ip, lp, lp}, "errata: --note: a note is one line of text"},
	} {
		code, stdout, errOut := runCLI(append([]string{"errata"}, tc.args...)...)
		if code != 2 || stdout != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("errata %q: exit %d, %q %q; want exit 2 and %q", tc.args, code, stdout, errOut, tc.want)
		}
	}
	// The output rule: an existing output without --force, an output that is an input.
	os.WriteFile(out, []byte("mine"), 0o644)
	os.WriteFile(errataPath, []byte(h), 0o644)
	for _, args := range [][]string{{errataPath, ip, lp, out}, {errataPath, ip, lp, lp}, {errataPath, ip, lp, errataPath}} {
		if code, _, errOut := runCLI(append([]string{"apply-errata"}, args...)...); code != 2 || !strings.Contains(errOut, args[3]) {
			t.Errorf("apply-errata %v: exit %d %q", args, code, errOut)
		}
	}
	unchanged(t, "an existing output", out, []byte("mine"))
	if code, _, errOut := runCLI("apply-errata", "--force", errataPath, ip, lp, out); code != 0 || !strings.Contains(errOut, "does not name the images it was made for") {
		t.Fatalf("an empty errata file with --force: exit %d %q", code, errOut)
	}
	want, _ := os.ReadFile(lp)
	unchanged(t, "no rows applied", out, want)
	if b, _ := os.ReadFile(out); bytes.Equal(b, []byte("mine")) {
		t.Fatal("--force did not replace the output")
	}
}

// The class names beside the labels travel with the result, as the builder's outputs keep them:
// apply-errata and agree --consensus write them beside OUT_LABELS (OUT_LABELS.classes.txt), a
// class-name file already there is an output like the labels (refused without --force, removed
// when the inputs have no names), and an output that is an input's class-name file is refused.
func TestAnnotatorOutputsKeepClassNames(t *testing.T) {
	dir := t.TempDir()
	ip := uniqueImages(t, dir, 3)
	lp := writeLabels(t, dir, "labels", idx.UByte, 1, []int64{0, 1, 2})
	os.WriteFile(lp+".classes.txt", []byte("zero\none\ntwo\n"), 0o644)
	other := writeLabels(t, dir, "other", idx.UByte, 1, []int64{0, 2, 2})
	code, errata, _ := runCLI("errata", ip, lp, other)
	errataPath := filepath.Join(dir, "errata.csv")
	os.WriteFile(errataPath, []byte(errata), 0o644)
	outDir := t.TempDir()
	out := filepath.Join(outDir, "fixed")
	if code != 0 {
		t.Fatal("errata")
	}
	os.WriteFile(out+".classes.txt", []byte("old\n"), 0o644)
	if code, _, errOut := runCLI("apply-errata", errataPath, ip, lp, out); code != 2 || !strings.Contains(errOut, out+".classes.txt: exists (use --force") {
		t.Fatalf("a class-name file in the way: exit %d %q", code, errOut)
	}
	if code, _, errOut := runCLI("apply-errata", "--force", errataPath, ip, lp, out); code != 0 {
		t.Fatalf("apply-errata: exit %d %q", code, errOut)
	}
	if b, _ := os.ReadFile(out + ".classes.txt"); string(b) != "zero\none\ntwo\n" {
		t.Fatalf("the class names beside the output: %q", b)
	}
	cons := filepath.Join(outDir, "cons")
	if code, _, errOut := runCLI("agree", "--consensus", cons, lp, other, other); code != 1 {
		t.Fatalf("agree: exit %d %q", code, errOut)
	}
	if b, _ := os.ReadFile(cons + ".classes.txt"); string(b) != "zero\none\ntwo\n" {
		t.Fatalf("the class names beside the consensus: %q", b)
	}
	// Inputs without names: the class-name file left beside the output goes.
	if code, _, errOut := runCLI("agree", "--force", "--consensus", cons, other, other); code != 0 {
		t.Fatalf("agree --force: exit %d %q", code, errOut)
	}
	if _, err := os.Stat(cons + ".classes.txt"); err == nil {
		t.Fatal("a class-name file of other classes was left beside the consensus")
	}
	// An output that is the input's class-name file.
	shared := filepath.Join(dir, "classes.txt")
	os.Remove(lp + ".classes.txt")
	os.WriteFile(shared, []byte("a\nb\nc\n"), 0o644)
	if code, _, errOut := runCLI("apply-errata", "--force", errataPath, ip, lp, shared); code != 2 || !strings.Contains(errOut, "output is the input "+shared) {
		t.Fatalf("onto the input's class-name file: exit %d %q", code, errOut)
	}
	unchanged(t, "the input's class-name file", shared, []byte("a\nb\nc\n"))
}
