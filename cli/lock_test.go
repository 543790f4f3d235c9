package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/pairfile"
	"idxlabel/sample"
	"idxlabel/store"
)

// TestWritersHonourThePairLock: while a pair is open for editing (a window's store.Open), no
// command-line writer replaces either of its files: convert, normalize and export --force exit 1
// with the lock's message and leave the file as it was; once the pair is closed they write.
func TestWritersHonourThePairLock(t *testing.T) {
	dir := t.TempDir()
	ip, lp := writeTestPair(t, dir, []int{3, 28, 28}, []int64{4, 2, 4}, 1)
	pi, pl := filepath.Join(dir, "t-images-idx3-ubyte"), filepath.Join(dir, "t-labels-idx1-ubyte")
	os.Rename(ip, pi)
	os.Rename(lp, pl)
	other := filepath.Join(t.TempDir(), "other-labels-idx1-ubyte")
	if code, _, e := runCLI("convert", pl, other); code != 0 {
		t.Fatalf("convert: exit %d %q", code, e)
	}
	png := filepath.Join(t.TempDir(), "digit.png")
	writeDigitPNG(t, png, 60, 80, 0.1)

	d, err := store.Open(pi, pl, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	imagesBefore, _ := os.ReadFile(pi)
	labelsBefore, _ := os.ReadFile(pl)
	for _, args := range [][]string{
		{"convert", other, pl},                               // the label file, where the lock lives
		{"convert", pi + ".copy", pi},                        // the image file: its label file's lock
		{"export", "--format", "csv", "--force", pi, pl, pl}, // caught as an input first, still untouched
		{"export", "--format", "csv", "--force", pi, other, pi},
		{"normalize", png, pl},
	} {
		if args[0] == "convert" && args[1] == pi+".copy" {
			os.WriteFile(pi+".copy", imagesBefore, 0o644)
		}
		code, _, e := runCLI(args...)
		if code == 0 {
			t.Errorf("%v: exit 0 on a pair open for editing", args)
		}
		if code == 1 && !strings.Contains(e, "open for editing") {
			t.Errorf("%v: exit 1 without the lock's message: %q", args, e)
		}
	}
	if got, _ := os.ReadFile(pi); !bytes.Equal(got, imagesBefore) {
		t.Fatal("the image file of the open pair was replaced")
	}
	if got, _ := os.ReadFile(pl); !bytes.Equal(got, labelsBefore) {
		t.Fatal("the label file of the open pair was replaced")
	}
	d.Close()
	if code, _, e := runCLI("convert", "--force", other, pl); code != 0 {
		t.Fatalf("convert once the pair is closed: exit %d %q", code, e)
	}
	if _, err := os.Stat(pl + pairfile.LockSuffix); err == nil {
		t.Fatal("convert left its lock file behind")
	}
}

// info counts the samples a partial label file leaves without a label apart from the classes.
func TestInfoCountsUnlabelledApart(t *testing.T) {
	dir := t.TempDir()
	_, lp := writeTestPair(t, dir, []int{4, 28, 28}, []int64{3, sample.NoLabel, 3, sample.NoLabel}, 1)
	code, out, e := runCLI("info", lp)
	if code != 0 || !strings.Contains(out, "  classes 1\n  unlabelled 2 (value -2147483648)\n") || strings.Contains(out, "-2147483648        2") {
		t.Fatalf("exit %d, %q %q", code, out, e)
	}
}

// Two check --report to one folder at once: the second is told that a report is being written
// there (by which process), not that a pair is open for editing. The first's lock is taken by
// a claim of the folder (pairfile.ClaimOutputs), as check takes it, and its line made another
// process's.
func TestCheckReportBeingWritten(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genPair(t, dir, 20)
	report := filepath.Join(dir, "report")
	claim, err := pairfile.ClaimOutputs(nil, []string{report}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer claim.Release()
	lock := report + pairfile.LockSuffix
	f, err := os.OpenFile(lock, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(lock); !strings.Contains(string(b), " job=write\n") {
		t.Fatalf("a writer's lock line: %q", b)
	}
	f.WriteAt([]byte("idxlabel-lock pid=4242 host=elsewhere job=write\n"), 1)
	f.Close()
	code, _, stderr := runCLI("check", "--kinds", "duplicate", "--report", report+"/", ip, lp)
	if code != 1 || !strings.Contains(stderr, "another idxlabel (process 4242 on elsewhere) is writing a report there: wait for it to finish") {
		t.Fatalf("exit %d, %q", code, stderr)
	}
	code, _, stderr = runCLI("convert", lp, report)
	if code != 1 || !strings.Contains(stderr, report+" is being written by another idxlabel (process 4242 on elsewhere): wait for it to finish") {
		t.Fatalf("convert: exit %d, %q", code, stderr)
	}
}
