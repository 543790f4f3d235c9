package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// ClaimOutputs' rule, step by step: an empty folder is not an existing output; without force
// anything else that exists is refused (pairfile.ErrExists), even a symbolic link naming nothing; what
// the writer may not replace is refused with force too; a journal whose edits cancel out does
// not hold the pair, one with edits (or one that cannot be read) does, with force.
func TestClaimOutputsRule(t *testing.T) {
	dir := t.TempDir()
	ip, lp := copyPair(t, 30, false)
	claim := func(force bool, outs ...string) error {
		claim, err := pairfile.ClaimOutputs([]string{ip}, outs, force, nil)
		if err == nil {
			claim.Release()
		}
		return err
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	if err := claimFolder(empty); err != nil {
		t.Fatalf("an empty folder: %v", err)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "nothing"), dangling); err != nil {
		t.Fatal(err)
	}
	if err := claim(false, filepath.Join(dir, "new"), file); !errors.Is(err, pairfile.ErrExists) || !strings.HasPrefix(err.Error(), file+": ") {
		t.Errorf("an empty file without force: %v", err)
	}
	if err := claim(true, file); err != nil {
		t.Errorf("an empty file with force: %v", err)
	}
	if err := claim(true, dangling); err == nil || errors.Is(err, pairfile.ErrExists) {
		t.Errorf("a link naming nothing, with force: %v", err)
	}
	if err := claim(true, empty); err == nil {
		t.Error("a folder as a file output, with force: accepted")
	}
	if err := claim(false, ip); err == nil || !strings.Contains(err.Error(), "is the input") {
		t.Errorf("the input: %v", err)
	}

	// A journal whose edit was undone holds nothing; once it holds an edit it holds the pair.
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.Relabel([]int{0}, 3)
	d.Undo()
	journal := journalPath(d)
	killed(t, d) // Close would remove it: its edits cancel out
	if _, err := os.Stat(journal); err != nil {
		t.Fatalf("the journal: %v", err)
	}
	if err := claim(true, lp); err != nil {
		t.Errorf("a journal whose edits cancel out: %v", err)
	}
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.Relabel([]int{0}, 3)
	d.Close()
	for _, out := range []string{lp, ip} {
		_, err := pairfile.ClaimOutputs(nil, []string{out}, true, nil)
		var ue *pairfile.UnsavedEditsError
		if !errors.As(err, &ue) || !errors.Is(err, pairfile.ErrUnsavedEdits) || ue.Journal != journal || ue.Edits != 1 || !strings.Contains(err.Error(), journal) {
			t.Errorf("%s with a journal of 1 edit: %v", out, err)
		}
	}
	images, _ := idx.ReadFile(ip)
	if err := pairfile.WritePair(ip, lp, images, nil); !errors.Is(err, pairfile.ErrUnsavedEdits) {
		t.Errorf("WritePair over a pair with unsaved edits: %v", err)
	}
	os.WriteFile(journal, []byte("not a journal at all"), 0o644)
	var ue *pairfile.UnsavedEditsError
	if err := claim(true, lp); !errors.As(err, &ue) || ue.Edits != 0 || !strings.Contains(err.Error(), "cannot read") {
		t.Errorf("an unreadable journal: %v", err)
	}
}

// claimFolder claims the folder out alone, without force, from no inputs.
func claimFolder(out string) error {
	claim, err := pairfile.ClaimOutputs(nil, []string{out}, false, func(string) error { return nil })
	if err == nil {
		claim.Release()
	}
	return err
}

// A window killed with three edits journaled on a pair whose names say nothing of a pair (g-img,
// g-lab): no writer replaces the image file, not even with force and another label file, since
// its journal (beside g-lab) names g-img. Before, the rule looked only beside g-img and beside the
// label file MNIST's naming gives it, found nothing, and a --force subset or merge replaced
// g-img: the pair no longer opened and its edits could not be replayed.
func TestClaimRefusesAPairOfAnyNamesWithUnsavedEdits(t *testing.T) {
	dir := t.TempDir()
	gi, gl := writeTestPair(t, 40, 28, 28)
	ip, lp := filepath.Join(dir, "g-img"), filepath.Join(dir, "g-lab")
	if err := os.Rename(gi, ip); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(gl, lp); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(ip)
	cmd, sc := child(t, "three-edits", ip, lp)
	waitFor(t, sc, "edited")
	cmd.Process.Kill()
	cmd.Wait()

	other := filepath.Join(dir, "zz-lab")
	for _, outs := range [][]string{{ip, other}, {ip}, {lp}} {
		claim, err := pairfile.ClaimOutputs(nil, outs, true, nil)
		if err == nil {
			claim.Release()
		}
		var ue *pairfile.UnsavedEditsError
		if !errors.As(err, &ue) || ue.Journal != lp+pairfile.JournalSuffix || ue.Edits != 3 {
			t.Errorf("claim %v with force after a crash with 3 edits: %v", outs, err)
		}
	}
	images, _ := idx.ReadFile(ip)
	labels, _ := idx.New(idx.UByte, 40)
	if err := pairfile.WritePair(ip, other, images, labels); !errors.Is(err, pairfile.ErrUnsavedEdits) {
		t.Errorf("WritePair over g-img with another label file: %v", err)
	}
	if after, _ := os.ReadFile(ip); !bytes.Equal(after, before) {
		t.Fatal("g-img was replaced")
	}
	// The journal still replays the three edits.
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if n, err := d.ReplayJournal(); err != nil || n != 3 {
		t.Fatalf("replayed %d: %v", n, err)
	}
}

// A claim holds its outputs from the check until Release: no other writer claims them meanwhile,
// its pair write takes no lock of its own (so none is let go and taken again), and it writes only
// what it claimed, once.
func TestClaimHoldsUntilReleased(t *testing.T) {
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "a-images-idx3-ubyte"), filepath.Join(dir, "a-labels-idx1-ubyte")
	images, _ := idx.New(idx.UByte, 2, 3, 3)
	labels, _ := idx.New(idx.UByte, 2)
	c, err := pairfile.ClaimOutputs(nil, []string{ip, lp}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pairfile.ClaimOutputs(nil, []string{ip}, true, nil); !errors.Is(err, pairfile.ErrLocked) {
		t.Fatalf("a second claim while the first is held: %v", err)
	}
	if err := c.WritePair(ip, filepath.Join(dir, "other"), images, labels); !errors.Is(err, pairfile.ErrNotClaimed) {
		t.Fatalf("a write to a file not claimed: %v", err)
	}
	if err := c.WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	if _, err := pairfile.ClaimOutputs(nil, []string{lp}, true, nil); !errors.Is(err, pairfile.ErrLocked) {
		t.Fatalf("a claim after the write, before Release: %v", err)
	}
	if err := c.WritePair(ip, lp, images, labels); !errors.Is(err, pairfile.ErrNotClaimed) {
		t.Fatalf("a second write of the same outputs: %v", err)
	}
	c.Release()
	c.Release()
	if err := c.WritePair(ip, lp, images, labels); !errors.Is(err, pairfile.ErrNotClaimed) {
		t.Fatalf("a write after Release: %v", err)
	}
	c2, err := pairfile.ClaimOutputs(nil, []string{ip, lp}, true, nil)
	if err != nil {
		t.Fatalf("a claim after Release: %v", err)
	}
	c2.Release()
	if got, err := idx.ReadFile(lp); err != nil || got.Dims[0] != 2 {
		t.Fatalf("the labels written: %v, %v", got, err)
	}
}
