package store

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
)

// pairSamples returns the live samples of the pair images, labels (opened read-only) as File →
// Append Dataset… takes them (ui/build's readAppended): upright pixels, labels, and the marks the
// pair kept.
func pairSamples(t *testing.T, images, labels string) []Sample {
	t.Helper()
	other, err := Open(images, labels, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	snap := other.Snapshot()
	out := make([]Sample, snap.N)
	for k := range out {
		st := other.State(snap.Number(k))
		out[k] = Sample{Pixels: snap.Shown(k, nil), Label: snap.Labels[k], Accepted: st.Accepted, Reviewed: st.Reviewed}
	}
	return out
}

// markedPair writes a pair of 5 samples whose save kept accepted marks on samples 1 and 3 (a
// model's suggestions accepted) and reviewed marks on 2 and 4 (a review's decisions).
func markedPair(t *testing.T) (string, string) {
	t.Helper()
	ip, lp := tinyPair(t, t.TempDir(), 5) // sample k labelled k % 10
	b, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.SetLabelsAs(HowSuggestedAccepted, []int{1, 3}, []int{7, 8}); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{2, 4} {
		if err := b.DecideAs(HowManual, i, i); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Save(nil); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// marksListed returns the samples a marks file lists (its lines after the five of its head:
// pairfile.MarksKind.Write); nil when there is no file.
func marksListed(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var out []int
	for _, l := range lines[min(5, len(lines)):] {
		i, err := strconv.Atoi(l)
		if err != nil {
			t.Fatalf("%s: line %q", path, l)
		}
		out = append(out, i)
	}
	return out
}

// markedSamples returns the samples of a markedPair, as Append Dataset takes them.
func markedSamples(t *testing.T) []Sample {
	t.Helper()
	ip, lp := markedPair(t)
	return pairSamples(t, ip, lp)
}

// wantMarks fails unless d's accepted and reviewed samples are these.
func wantMarks(t *testing.T, d *Dataset, when string, accepted, reviewed []int) {
	t.Helper()
	if a, r := acceptedOf(d), reviewedOf(d); !slices.Equal(a, accepted) || !slices.Equal(r, reviewed) {
		t.Fatalf("%s: accepted %v (want %v), reviewed %v (want %v)", when, a, accepted, r, reviewed)
	}
}

// Samples appended from a pair keep that pair's marks, at their new numbers: an accepted
// suggestion stays a pseudo-label (never a person's label) and a reviewed sample stays
// reviewed, in the session, after a crash (the journal's replay), through undo and redo (an
// undone append takes its marks away), and after a save (the marks files beside the labels list
// them); an append undone, saved past and redone after a crash gets its marks back from the
// history the save carried.
func TestAppendKeepsMarks(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	samples := markedSamples(t)
	ip, lp := tinyPair(t, t.TempDir(), 6)
	open := func() *Dataset {
		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d.Recovery() != nil {
			if _, err := d.ReplayJournal(); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	d := open()
	defer func() { d.Close() }()
	if first, err := d.Append(samples); err != nil || first != 6 {
		t.Fatalf("Append: first %d, %v", first, err)
	}
	acc, rev := []int{7, 9}, []int{8, 10}
	wantMarks(t, d, "appended", acc, rev)
	d.Close() // a crash: the journal stays
	d = open()
	wantMarks(t, d, "appended, then a crash and the journal replayed", acc, rev)
	d.Undo()
	wantMarks(t, d, "the append undone", nil, nil)
	d.Redo()
	wantMarks(t, d, "the append redone", acc, rev)
	d.Close()
	d = open()
	wantMarks(t, d, "the append undone and redone, then a crash", acc, rev)
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	for _, k := range []struct {
		kind pairfile.MarksKind
		want []int
	}{{pairfile.AcceptedMarks, acc}, {pairfile.ReviewedMarks, rev}} {
		if got := marksListed(t, k.kind.File(lp)); !slices.Equal(got, k.want) {
			t.Fatalf("the save's %s lists %v, want %v", filepath.Base(k.kind.File(lp)), got, k.want)
		}
	}
	d.Close()
	d = open()
	wantMarks(t, d, "saved and reopened", acc, rev)

	// Undone after the save: the samples are the file's, marked deleted; the marks stay on them
	// until the next save removes them. An append made, undone and saved past waits on the redo
	// stack in the history the save carries.
	if err := d.Relabel([]int{0}, 5); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Append(samples[1:2]); err != nil {
		t.Fatal(err)
	}
	wantMarks(t, d, "a second append", []int{7, 9, 11}, rev)
	d.Undo()
	if err := d.Save(nil); err != nil { // the relabel; the append waits on the redo stack
		t.Fatal(err)
	}
	d.Redo() // journaled after the history record the save carried
	wantMarks(t, d, "the second append redone after a save", []int{7, 9, 11}, rev)
	d.Close()
	d = open()
	wantMarks(t, d, "the second append redone, then a crash", []int{7, 9, 11}, rev)
	d.Undo()
	wantMarks(t, d, "the second append undone after the crash", acc, rev)
}

// A journal of version 3 (before appended samples carried marks) is still replayed, and
// rewritten as the current version so that an append with marks can follow it.
func TestJournalVersion3Replayed(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 6)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Relabel([]int{2}, 9); err != nil {
		t.Fatal(err)
	}
	jp := d.journal.Path()
	d.Close()
	b, err := os.ReadFile(jp)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte(journal.Magic)) {
		t.Fatalf("the journal starts %q, not %q", b[:8], journal.Magic)
	}
	copy(b, journal.MagicV3)
	if err := os.WriteFile(jp, b, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if n, err := d.ReplayJournal(); err != nil || n != 1 || d.State(2).Label != 9 {
		t.Fatalf("version 3 replayed: %d edits, %v, sample 2 labelled %d", n, err, d.State(2).Label)
	}
	if _, err := d.Append(markedSamples(t)); err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile(jp)
	if err != nil || !bytes.HasPrefix(b, []byte(journal.Magic)) {
		t.Fatalf("the replayed journal was not rewritten as %q: %q, %v", journal.Magic, b[:min(8, len(b))], err)
	}
}

// An append's marks round-trip through its journal record; a record whose marks block is cut
// short, holds another bit, or has bytes after it is refused.
func TestAppendMarksRecord(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 3)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	px := make([]byte, 16)
	samples := []Sample{{Pixels: px, Label: 4, Accepted: true}, {Pixels: px, Label: 5, Reviewed: true}, {Pixels: px, Label: 6}}
	a, err := newAppend(&d.model, HowAddedImported, samples)
	if err != nil {
		t.Fatal(err)
	}
	decode := func(rec []byte) (*appendSamples, error) {
		got, err := decodeEdit(&d.model, rec[0], &dec{b: rec[1+provenanceSize:]})
		if err != nil {
			return nil, err
		}
		return got.(*appendSamples), nil
	}
	rec := a.(*appendSamples).record()
	got, err := decode(rec)
	if err != nil || !bytes.Equal(got.marks, []byte{markAccepted, markReviewed, 0}) || got.sources != nil {
		t.Fatalf("decoded: %+v, %v", got, err)
	}
	for what, bad := range map[string][]byte{
		"a mark of 4":       append(slices.Clone(rec[:len(rec)-1]), 4),
		"marks cut short":   rec[:len(rec)-1],
		"a byte after them": append(slices.Clone(rec), 0),
	} {
		if _, err := decode(bad); err == nil {
			t.Errorf("%s: decoded", what)
		}
	}
	if _, err := d.Append(samples); err != nil {
		t.Fatal(err)
	}
	wantMarks(t, d, "appended", []int{3}, []int{4})
}
