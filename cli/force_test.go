package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/pairfile"
	"idxlabel/store"
)

// crashedPair writes a pair of n samples into dir and leaves beside its label file the journal
// of a window that relabelled sample 0 and stopped without saving (store.Open, Relabel, Close:
// the journal stays, as after a crash). It returns the pair's paths and the journal's.
func crashedPair(t *testing.T, dir string, n int) (ip, lp, journal string) {
	t.Helper()
	ip, lp = genPair(t, dir, n)
	d, err := store.Open(ip, lp, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Relabel([]int{0}, 7); err != nil {
		t.Fatal(err)
	}
	journal = lp + pairfile.JournalSuffix
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(journal); err != nil || fi.Size() == 0 {
		t.Fatalf("no journal left: %v", err)
	}
	return ip, lp, journal
}

// unchanged fails the test when the file at path no longer holds want.
func unchanged(t *testing.T, what, path string, want []byte) {
	t.Helper()
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
		t.Errorf("%s: %s was changed (%v)", what, path, err)
	}
}

// Every command-line writer refuses an output that exists without --force (exit 1, "use
// --force", the file untouched) and replaces it with --force.
func TestWritersRefuseAnExistingOutputWithoutForce(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genPair(t, dir, 20)
	png := filepath.Join(dir, "digit.png")
	writeDigitPNG(t, png, 60, 80, 0.1)
	tree := filepath.Join(dir, "tree")
	writeDigitPNG(t, filepath.Join(tree, "3", "a.png"), 60, 80, 0.1)
	out := filepath.Join(dir, "out")
	out2 := filepath.Join(dir, "out2")
	for _, tc := range []struct {
		name    string
		args    []string // without --force
		outputs []string // made to exist first
	}{
		{"convert", []string{"convert", lp, out}, []string{out}},
		{"normalize", []string{"normalize", png, out}, []string{out}},
		{"import images", []string{"import", tree, out, out2}, []string{out}},
		{"import labels", []string{"import", tree, out, out2}, []string{out2}},
		{"export csv", []string{"export", "--format", "csv", ip, lp, out}, []string{out}},
		{"export npz", []string{"export", "--format", "npz", ip, lp, out}, []string{out}},
		{"check --map", []string{"check", "--map", out, ip, lp}, []string{out}},
		{"check --confusion", []string{"check", "--confusion", out, ip, lp}, []string{out}},
	} {
		os.Remove(out)
		os.Remove(out2)
		precious := []byte("precious " + tc.name)
		for _, o := range tc.outputs {
			os.WriteFile(o, precious, 0o644)
		}
		code, _, stderr := runCLI(tc.args...)
		if code != 1 || !strings.Contains(stderr, tc.outputs[0]+": exists (use --force to replace it)") {
			t.Errorf("%s without --force: exit %d, %q", tc.name, code, stderr)
		}
		for _, o := range tc.outputs {
			unchanged(t, tc.name, o, precious)
		}
		if strings.HasPrefix(tc.name, "check") {
			continue // the scan is checked with --force in TestCheckCSV
		}
		args := append([]string{tc.args[0], "--force"}, tc.args[1:]...)
		if code, _, stderr := runCLI(args...); code != 0 {
			t.Errorf("%s --force: exit %d, %q", tc.name, code, stderr)
		}
		if b, _ := os.ReadFile(tc.outputs[0]); bytes.Equal(b, precious) {
			t.Errorf("%s --force did not replace %s", tc.name, tc.outputs[0])
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*"+pairfile.LockSuffix)); len(left) > 0 {
		t.Errorf("refused writers left their locks: %v", left)
	}
	// An empty folder holds nothing to lose: a report is written into it without --force.
	report := filepath.Join(dir, "report")
	os.Mkdir(report, 0o755)
	if code, _, stderr := runCLI("check", "--kinds", "duplicate", "--report", report, ip, lp); code != 0 {
		t.Errorf("report into an empty folder: exit %d, %q", code, stderr)
	}
}

// Even with --force, no writer replaces a file of a pair whose journal holds a stopped window's
// unsaved edits: the label file itself, the image file (its pair's journal lies beside the label
// file), or either through a symbolic link. The message names the journal and says to open the
// pair; nothing is written.
func TestWritersKeepAPairWithUnsavedEdits(t *testing.T) {
	dir := t.TempDir()
	ip, lp, journal := crashedPair(t, dir, 200)
	imagesBefore, _ := os.ReadFile(ip)
	labelsBefore, _ := os.ReadFile(lp)
	src := t.TempDir()
	sip, slp := genPair(t, src, 3)
	png := filepath.Join(src, "digit.png")
	writeDigitPNG(t, png, 60, 80, 0.1)
	tree := filepath.Join(src, "tree")
	writeDigitPNG(t, filepath.Join(tree, "3", "a.png"), 60, 80, 0.1)
	link := filepath.Join(src, "link")
	if err := os.Symlink(lp, link); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"import", "--force", tree, ip, lp}, // the report's case: 200 samples and 3 edits became 3 samples
		{"import", "--force", tree, ip, filepath.Join(src, "new-labels")},
		{"convert", "--force", slp, lp},
		{"convert", "--force", sip, ip},
		{"convert", "--force", slp, link},
		{"normalize", "--force", png, lp},
		{"export", "--force", "--format", "csv", sip, slp, lp},
		{"check", "--force", "--map", lp, sip, slp},
		{"check", "--force", "--confusion", lp, sip, slp},
	} {
		code, _, stderr := runCLI(args...)
		if code != 1 || !strings.Contains(stderr, journal) || !strings.Contains(stderr, "unsaved edits") || !strings.Contains(stderr, "open that pair in idxlabel") {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
	unchanged(t, "the pair with unsaved edits", ip, imagesBefore)
	unchanged(t, "the pair with unsaved edits", lp, labelsBefore)
	// Once the window's edits are saved (or discarded), the pair may be replaced.
	d, err := store.Open(ip, lp, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Recovery() == nil {
		t.Fatal("the journal is not offered")
	}
	if _, err := d.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if code, _, stderr := runCLI("convert", "--force", slp, lp); code != 0 {
		t.Fatalf("convert --force once the edits are saved: exit %d, %q", code, stderr)
	}
}

// An attacker's outputs: a symbolic link to an existing file, the input itself, the pair a
// window holds open, and a FIFO. Each is refused before anything is written, with the exit
// status of its kind: 2 for output = input, 1 for the rest.
func TestWritersRefuseOddOutputs(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genPair(t, dir, 10)
	labelsBefore, _ := os.ReadFile(lp)
	other := filepath.Join(dir, "other")
	os.WriteFile(other, []byte("someone's file"), 0o644)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	if code, _, e := runCLI("convert", lp, link); code != 1 || !strings.Contains(e, "exists (use --force") {
		t.Errorf("a link to an existing file: exit %d, %q", code, e)
	}
	unchanged(t, "link", other, []byte("someone's file"))
	for _, args := range [][]string{
		{"convert", "--force", lp, lp},
		{"normalize", "--force", lp, lp},
		{"export", "--force", "--format", "csv", ip, lp, lp},
		{"check", "--force", "--map", lp, ip, lp},
	} {
		if code, _, e := runCLI(args...); code != 2 || !strings.Contains(e, "is the input") {
			t.Errorf("%v: exit %d, %q", args, code, e)
		}
	}
	d, err := store.Open(ip, lp, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"convert", other, lp}, // the lock is said first: --force would not help
		{"convert", "--force", other, lp},
		{"import", "--force", filepath.Join(dir, "nothing-yet"), ip, lp},
	} {
		if args[0] == "import" {
			writeDigitPNG(t, filepath.Join(args[2], "1", "a.png"), 40, 40, 0)
		}
		if code, _, e := runCLI(args...); code != 1 || !strings.Contains(e, "open for editing") {
			t.Errorf("%v on a pair open in a window: exit %d, %q", args, code, e)
		}
	}
	d.Close()
	unchanged(t, "the open pair", lp, labelsBefore)
}
