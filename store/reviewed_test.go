package store

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// reviewedOf returns the samples marked reviewed, by State.
func reviewedOf(d *Dataset) []int {
	var out []int
	for i := range d.Len() {
		if d.State(i).Reviewed {
			out = append(out, i)
		}
	}
	return out
}

// noticeOf returns the dataset's notices that name path and say err's text.
func noticeOf(d *Dataset, path string, err error) []string {
	var out []string
	for _, n := range d.Notices() {
		if strings.Contains(n, path) && strings.Contains(n, err.Error()) {
			out = append(out, n)
		}
	}
	return out
}

// A review's decisions outlive a save, a close and a reopen (the reviewed-marks file beside the
// label file): a label kept, a label changed, a sample relabelled after its decision (still
// reviewed); a decision undone before the save is not kept. After the reopen, a new decision
// undone leaves the marks read from the file; a deletion saved renumbers them; a save with no
// sample reviewed removes the file.
func TestReviewedMarksSavedAndReopened(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 8) // sample k labelled k % 10
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { d.Close() }()
	for _, dec := range [][3]int{{int(HowManual), 2, 2}, {int(HowSuspectAccepted), 5, 3}, {int(HowManual), 6, 6}, {int(HowManual), 7, 7}} {
		if err := d.DecideAs(How(dec[0]), dec[1], dec[2]); err != nil {
			t.Fatal(err)
		}
	}
	d.Undo()                                       // the decision on 7
	if err := d.Relabel([]int{2}, 9); err != nil { // a relabel after the decision: still reviewed
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	marks := pairfile.ReviewedMarks.File(lp)
	if _, err := os.Lstat(marks); err != nil {
		t.Fatalf("the save kept no reviewed marks: %v", err)
	}
	d.Close()
	if d, err = Open(ip, lp, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := reviewedOf(d); !slices.Equal(got, []int{2, 5, 6}) || len(d.Notices()) != 0 {
		t.Fatalf("reopened: reviewed %v, want [2 5 6]; notices %q", got, d.Notices())
	}
	if err := d.DecideAs(HowManual, 2, 9); err != nil { // decided again, then undone: still reviewed
		t.Fatal(err)
	}
	if err := d.DecideAs(HowManual, 3, 3); err != nil {
		t.Fatal(err)
	}
	d.Undo()
	d.Undo()
	if got := reviewedOf(d); !slices.Equal(got, []int{2, 5, 6}) {
		t.Fatalf("after undoing decisions made since the reopen: reviewed %v, want [2 5 6]", got)
	}
	if err := d.Delete([]int{0}); err != nil { // saved: the samples after it move down
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if d, err = Open(ip, lp, Options{}); err != nil {
		t.Fatal(err)
	}
	if got := reviewedOf(d); !slices.Equal(got, []int{1, 4, 5}) || len(d.Notices()) != 0 {
		t.Fatalf("after a deletion saved: reviewed %v, want [1 4 5]; notices %q", got, d.Notices())
	}

	// Written for other contents (the label file changed by another program): refused, said.
	d.Close()
	labels, err := idx.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	labels.SetInt(0, 8)
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	if d, err = Open(ip, lp, Options{}); err != nil {
		t.Fatal(err)
	}
	if got, said := reviewedOf(d), noticeOf(d, marks, pairfile.ErrStaleAccepted); got != nil || len(said) != 1 || !strings.Contains(said[0], "not reviewed") {
		t.Fatalf("stale marks: reviewed %v, notices %q; want none reviewed and the file refused as stale", got, d.Notices())
	}
	// Its next save, with nothing reviewed, removes it.
	if err := d.Relabel([]int{0}, 1); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(marks); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a save with no sample reviewed left the reviewed marks: %v", err)
	}
}

// A damaged or oversized reviewed-marks file, or an accepted-marks file put in its place, is
// refused with a notice naming it, and no sample is marked reviewed.
func TestReviewedMarksDamaged(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 8)
	images, _ := idx.ReadFile(ip)
	labels, _ := idx.ReadFile(lp)
	key := pairfile.KeyOf(labels, pairfile.ImagesCRC(images.Data))
	marks := pairfile.ReviewedMarks.File(lp)
	if err := pairfile.WriteAccepted(marks, key, []int{1, 2}); err != nil { // the other kind's format
		t.Fatal(err)
	}
	wrongKind, _ := os.ReadFile(marks)
	good := func() []byte {
		if err := pairfile.ReviewedMarks.Write(marks, key, []int{1, 2}); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(marks)
		return b
	}()
	for name, body := range map[string][]byte{
		"the accepted kind": wrongKind,
		"cut short":         good[:len(good)-3],
		"beyond the pair":   []byte(strings.Replace(string(good), "\n2\n", "\n8\n", 1)),
		"oversized":         append(slices.Clone(good), make([]byte, 1<<20)...),
	} {
		if err := os.WriteFile(marks, body, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		said := 0
		for _, n := range d.Notices() {
			if strings.Contains(n, "reviewed marks") && strings.Contains(n, marks) {
				said++
			}
		}
		if got := reviewedOf(d); got != nil || said != 1 {
			t.Errorf("%s: reviewed %v, notices %q; want none reviewed and one notice naming %s", name, got, d.Notices(), marks)
		}
		d.Close()
	}
	if err := os.WriteFile(marks, good, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := reviewedOf(d); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("the file as written: reviewed %v, want [1 2]", got)
	}
}
