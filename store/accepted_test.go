package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// unlabelledPair writes n 4×4 samples with an int32 label file of sample.NoLabel (as a save of
// labels typed on images alone writes it) and returns the paths.
func unlabelledPair(t *testing.T, n int) (string, string) {
	t.Helper()
	ip, lp := tinyPair(t, t.TempDir(), n)
	labels, _ := idx.New(idx.Int32, n)
	for i := range n {
		labels.SetInt(i, sample.NoLabel)
	}
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// accepted returns the samples marked accepted, by State.
func acceptedOf(d *Dataset) []int {
	var out []int
	for i := range d.Len() {
		if d.State(i).Accepted {
			out = append(out, i)
		}
	}
	return out
}

// Accepted suggestions stay pseudo-labels through a save, a close and a reopen; a person's label
// on one takes its mark away, even the label it has (a confirmation, no change in the log); undoing the accept takes its marks away, and undoing that person's
// label gives the mark back; a deletion saved renumbers the marks with their samples.
func TestAcceptedMarksSavedAndReopened(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := unlabelledPair(t, 8)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { d.Close() }()
	if err := d.SetLabels([]int{0}, []int{5}); err != nil { // typed
		t.Fatal(err)
	}
	if err := d.SetLabelsAs(HowSuggestedAccepted, []int{1, 2, 3, 6}, []int{1, 2, 3, 6}); err != nil {
		t.Fatal(err)
	}
	if got := acceptedOf(d); !slices.Equal(got, []int{1, 2, 3, 6}) {
		t.Fatalf("accepted %v", got)
	}
	if err := d.Relabel([]int{2}, 7); err != nil { // a person's label on an accepted sample
		t.Fatal(err)
	}
	if err := d.DecideAs(HowManual, 3, 3); err != nil { // a person's review keeping the label
		t.Fatal(err)
	}
	if got := acceptedOf(d); !slices.Equal(got, []int{1, 6}) {
		t.Fatalf("after a person's labels: accepted %v, want [1 6]", got)
	}
	events := len(d.ChangeLog())
	if err := d.Relabel([]int{6}, 6); err != nil { // a person's label, the same: confirmed
		t.Fatal(err)
	}
	if got := acceptedOf(d); !slices.Equal(got, []int{1}) || len(d.ChangeLog()) != events {
		t.Fatalf("after a label confirmed: accepted %v (want [1]), change log %d events, was %d", got, len(d.ChangeLog()), events)
	}
	d.Undo() // the confirmation
	d.Undo() // the decision
	d.Undo() // the relabel
	if got := acceptedOf(d); !slices.Equal(got, []int{1, 2, 3, 6}) {
		t.Fatalf("after undoing them: accepted %v", got)
	}
	d.Undo() // the accept
	if got := acceptedOf(d); got != nil {
		t.Fatalf("after undoing the accept: accepted %v", got)
	}
	d.Redo()
	if err := d.Delete([]int{4}); err != nil { // saved: the samples after it move down
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	if got := acceptedOf(d); !slices.Equal(got, []int{1, 2, 3, 5}) {
		t.Fatalf("after the save: accepted %v, want [1 2 3 5]", got)
	}
	if _, err := os.Lstat(pairfile.AcceptedFile(lp)); err != nil {
		t.Fatalf("the save kept no marks: %v", err)
	}
	// An undo past the save, of the accept, after a crash: the history carries the marks.
	d.Close()
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := acceptedOf(d); !slices.Equal(got, []int{1, 2, 3, 5}) || len(d.Notices()) != 0 {
		t.Fatalf("reopened: accepted %v, notices %q", got, d.Notices())
	}
	if err := d.Relabel([]int{1}, 4); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	if err := d.Relabel([]int{3}, 0); err != nil { // then a crash: the journal stays
		t.Fatal(err)
	}
	d.Close()
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if got := acceptedOf(d); !slices.Equal(got, []int{2, 5}) {
		t.Fatalf("replayed: accepted %v, want [2 5]", got)
	}
	d.Undo() // the relabel of 3, after the save
	d.Undo() // the relabel of 1, before it: from the history record
	if got := acceptedOf(d); !slices.Equal(got, []int{1, 2, 3, 5}) {
		t.Fatalf("undone past the save: accepted %v, want [1 2 3 5]", got)
	}
}

// Marks kept for other contents are ignored with a notice naming the file: the label file
// rewritten by another program, or the marks file damaged; a symbolic link is not followed.
func TestAcceptedMarksStaleIgnored(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := unlabelledPair(t, 6)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetLabelsAs(HowSuggestedAccepted, []int{0, 1}, []int{1, 1}); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	d.Close()
	marks := pairfile.AcceptedFile(lp)
	kept, _ := os.ReadFile(marks)

	// Another program reorders the labels (the same count, other bytes).
	labels, _ := idx.ReadFile(lp)
	labels.SetInt(0, 3)
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := acceptedOf(d); got != nil || len(d.Notices()) != 1 || !strings.Contains(d.Notices()[0], marks) {
		t.Fatalf("stale: accepted %v, notices %q", got, d.Notices())
	}
	d.Close()

	// Damaged.
	labels.SetInt(0, 1)
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(marks, kept[:len(kept)-2], 0o644); err != nil {
		t.Fatal(err)
	}
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := acceptedOf(d); got != nil || len(d.Notices()) != 1 || !strings.Contains(d.Notices()[0], marks) {
		t.Fatalf("damaged: accepted %v, notices %q", got, d.Notices())
	}
	d.Close()

	// A link to the good file.
	good := marks + "-good"
	os.WriteFile(good, kept, 0o644)
	os.Remove(marks)
	if err := os.Symlink(good, marks); err == nil {
		d, err = Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := acceptedOf(d); got != nil || len(d.Notices()) != 1 {
			t.Fatalf("symlink: accepted %v, notices %q", got, d.Notices())
		}
		d.Close()
		os.Remove(marks)
	}
	// The good file back: the marks are.
	os.Rename(good, marks)
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := acceptedOf(d); !slices.Equal(got, []int{0, 1}) || len(d.Notices()) != 0 {
		t.Fatalf("good again: accepted %v, notices %q", got, d.Notices())
	}
}

// A writer cut off between its renames (another process's merge or relabel of the pair, killed)
// leaves the marks of the contents before: the next Open finishes the write and refuses them as
// stale with a notice naming the file, marking no sample accepted; its next save does not bring
// them back (no sample accepted: the file is removed).
func TestAcceptedMarksLeftByACutOffWriterRefused(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := unlabelledPair(t, 6)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetLabelsAs(HowSuggestedAccepted, []int{0, 1, 2, 3, 4, 5}, []int{1, 1, 2, 2, 3, 3}); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	d.Close()
	marks := pairfile.AcceptedFile(lp)
	if _, err := os.Lstat(marks); err != nil {
		t.Fatalf("the save kept no marks: %v", err)
	}

	// The writer: the same images, other labels; killed once the image file is in place.
	images, _ := idx.ReadFile(ip)
	labels, _ := idx.ReadFile(lp)
	labels.SetInt(0, 7)
	writeCutBetweenRenames(t, ip, lp, images, labels)
	if _, err := os.Lstat(marks); err != nil {
		t.Fatalf("the cut-off writer removed the marks before its label file was in place: %v", err)
	}

	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { d.Close() }()
	if d.State(0).Label != 7 {
		t.Fatalf("the interrupted write was not finished: sample 0 is %d", d.State(0).Label)
	}
	var stale []string
	for _, n := range d.Notices() {
		if strings.Contains(n, marks) && strings.Contains(n, pairfile.ErrStaleAccepted.Error()) {
			stale = append(stale, n)
		}
	}
	if got := acceptedOf(d); got != nil || len(stale) != 1 {
		t.Fatalf("after the cut-off writer: accepted %v, notices %q; want none accepted and the marks refused as stale", got, d.Notices())
	}
	if err := d.Relabel([]int{5}, 4); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(marks); !os.IsNotExist(err) {
		t.Fatalf("the save after it kept the stale marks: %v", err)
	}
	d.Close()
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := acceptedOf(d); got != nil || len(d.Notices()) != 0 {
		t.Fatalf("reopened after the save: accepted %v, notices %q", got, d.Notices())
	}
}

// A save of the window that is cancelled before its files are in place leaves the accepted
// marks beside the pair byte for byte, and so does a Save Shown As (WriteSamples) cancelled
// over another pair: nothing in a save removes them before the new label file is in place.
func TestAcceptedMarksKeptWhenASaveIsCancelled(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := unlabelledPair(t, 6)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { d.Close() }()
	if err := d.SetLabelsAs(HowSuggestedAccepted, []int{1, 2}, []int{1, 2}); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	marks := pairfile.AcceptedFile(lp)
	kept, err := os.ReadFile(marks)
	if err != nil {
		t.Fatalf("the save kept no marks: %v", err)
	}
	if err := d.Relabel([]int{1}, 4); err != nil { // the mark of sample 1 goes, in the dataset
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if err := d.SaveContext(cancelled, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled save: %v", err)
	}
	if got, err := os.ReadFile(marks); err != nil || !bytes.Equal(got, kept) {
		t.Fatalf("a cancelled save changed the marks beside the pair (%v)", err)
	}

	// Save Shown As over another pair with marks of its own, cancelled.
	oi, ol := unlabelledPair(t, 4)
	other, _ := idx.ReadFile(ol)
	oimages, _ := idx.ReadFile(oi)
	if err := pairfile.WriteAccepted(pairfile.AcceptedFile(ol), pairfile.KeyOf(other, pairfile.ImagesCRC(oimages.Data)), []int{0, 3}); err != nil {
		t.Fatal(err)
	}
	okept, _ := os.ReadFile(pairfile.AcceptedFile(ol))
	c, err := pairfile.ClaimOutputs([]string{ip, lp}, []string{oi, ol}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = d.WriteSamples(cancelled, c, []int{0, 1, 2}, oi, ol, nil)
	c.Release()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled Save Shown As: %v", err)
	}
	if got, err := os.ReadFile(pairfile.AcceptedFile(ol)); err != nil || !bytes.Equal(got, okept) {
		t.Fatalf("a cancelled Save Shown As changed the marks beside the pair it did not replace (%v)", err)
	}
}

// A pair opened through a symbolic link to its label file and saved keeps its accepted marks
// beside the file the link names (the save writes through the link), so the pair opened by the
// file's own name still counts its pseudo-labels as accepted.
func TestSaveThroughALinkKeepsMarks(t *testing.T) {
	ip, lp := tinyPair(t, t.TempDir(), 20)
	link := filepath.Join(t.TempDir(), "link-labels")
	if err := os.Symlink(lp, link); err != nil {
		t.Fatal(err)
	}
	d, err := Open(ip, link, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetLabelsAs(HowSuggestedAccepted, []int{7}, []int{1}); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	d.Close()
	for _, name := range []string{lp, link} {
		d, err := Open(ip, name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Accepted(); !slices.Equal(got, []int{7}) {
			t.Errorf("opened as %s: accepted %v, want [7] (notices %q)", name, got, d.Notices())
		}
		d.Close()
	}
}

// Save As to a label file whose accepted-marks file is the label file the dataset was read from
// (named "<new labels>.idxlabel-accepted") is refused: the save would write the marks over it.
// The file stays byte for byte.
func TestSaveAsNeverWritesMarksOverItsPair(t *testing.T) {
	ip, lp := tinyPair(t, t.TempDir(), 20)
	q := filepath.Join(filepath.Dir(lp), "q-labels")
	own := pairfile.AcceptedFile(q)
	if err := os.Rename(lp, own); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(own)
	d, err := Open(ip, own, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.SetLabelsAs(HowSuggestedAccepted, []int{7}, []int{1}); err != nil {
		t.Fatal(err)
	}
	err = d.SaveAsContext(context.Background(), filepath.Join(filepath.Dir(lp), "q-images"), q, nil)
	after, rerr := os.ReadFile(own)
	if err == nil || rerr != nil || !bytes.Equal(before, after) {
		t.Fatalf("Save As to %s: %v; the pair's label file %s unchanged: %v (%v)", q, err, own, bytes.Equal(before, after), rerr)
	}
	if !d.Dirty() {
		t.Fatal("the refused save left the dataset clean")
	}
}
