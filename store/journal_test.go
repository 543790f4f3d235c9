package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
)

// snapshot is everything observable about a dataset's samples.
type snapshot struct {
	labels  []int
	deleted []bool
	pixels  []byte
	undo    []string
	redo    []string
}

func snap(d *Dataset) snapshot {
	var s snapshot
	for i := range d.Len() {
		st := d.State(i)
		s.labels = append(s.labels, st.Label)
		s.deleted = append(s.deleted, st.Deleted)
		s.pixels = append(s.pixels, d.Pixels(i)...)
	}
	for _, a := range d.undo {
		s.undo = append(s.undo, a.String())
	}
	for _, a := range d.redo {
		s.redo = append(s.redo, a.String())
	}
	return s
}

func equalSnap(a, b snapshot) bool {
	return slices.Equal(a.labels, b.labels) && slices.Equal(a.deleted, b.deleted) &&
		slices.Equal(a.pixels, b.pixels) && slices.Equal(a.undo, b.undo) && slices.Equal(a.redo, b.redo)
}

// someEdits makes a mixed sequence of edits, undos and redos on d.
func someEdits(t *testing.T, d *Dataset) {
	t.Helper()
	px := make([]byte, 784)
	for i := range px {
		px[i] = byte(i)
	}
	steps := []func() error{
		func() error { return d.Relabel([]int{0, 1, 2}, 9) },
		func() error { return d.Delete([]int{3, 4}) },
		func() error { _, err := d.Append([]Sample{{Pixels: px, Label: 1}, {Pixels: px, Label: 2}}); return err },
		func() error { _, _, err := d.Undo(); return err },
		func() error { _, _, err := d.Undo(); return err },
		func() error { _, _, err := d.Redo(); return err },
		func() error { return d.SetLabels([]int{10, 11}, []int{4, 5}) },
		func() error { return d.Restore([]int{3}) },
		func() error { _, err := d.Append([]Sample{{Pixels: px, Label: 7}}); return err },
		func() error { _, _, err := d.Undo(); return err },
	}
	for k, f := range steps {
		if err := f(); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
	}
}

func TestJournalReplayRestoresExactState(t *testing.T) {
	ip, lp := copyPair(t, 10000, true)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	someEdits(t, d)
	want := snap(d)
	d.Close() // no save: as if the app had crashed

	e, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := e.Recovery()
	if rec == nil || !rec.Matches || rec.Edits != 10 || rec.Damaged != 0 {
		t.Fatalf("recovery %+v", rec)
	}
	if err := e.Relabel([]int{0}, 1); err != ErrRecoveryPending {
		t.Fatalf("edit with a pending journal: %v", err)
	}
	n, err := e.ReplayJournal()
	if err != nil || n != 10 {
		t.Fatalf("replayed %d: %v", n, err)
	}
	if got := snap(e); !equalSnap(got, want) {
		t.Fatalf("replayed state differs:\nundo %v\nwant %v", got.undo, want.undo)
	}
	// Journaling continues after the replayed records: one more edit, reopen, replay again.
	if err := e.Relabel([]int{20}, 0); err != nil {
		t.Fatal(err)
	}
	want = snap(e)
	e.Close()
	f, _ := Open(ip, lp, Options{})
	if n, err := f.ReplayJournal(); err != nil || n != 11 || !equalSnap(snap(f), want) {
		t.Fatalf("second replay: %d, %v", n, err)
	}
	f.Close()
}

func TestJournalDamagedTailReplaysGoodPrefix(t *testing.T) {
	ip, lp := copyPair(t, 10000, false)
	d, _ := Open(ip, lp, Options{})
	if err := d.Relabel([]int{0}, 5); err != nil {
		t.Fatal(err)
	}
	if err := d.Relabel([]int{1}, 6); err != nil {
		t.Fatal(err)
	}
	want := snap(d)
	if err := d.Relabel([]int{2}, 7); err != nil {
		t.Fatal(err)
	}
	d.Close()
	jp := lp + pairfile.JournalSuffix
	b, _ := os.ReadFile(jp)
	// Damage the last record's payload (a torn write), then add garbage after it.
	b[len(b)-2] ^= 0xff
	b = append(b, 1, 2, 3)
	os.WriteFile(jp, b, 0o644)

	e, _ := Open(ip, lp, Options{})
	rec := e.Recovery()
	if rec == nil || rec.Edits != 2 || rec.Damaged != 8+13+provenanceSize+3 { // frame, relabel of one sample, provenance, garbage
		t.Fatalf("recovery %+v", rec)
	}
	if n, err := e.ReplayJournal(); err != nil || n != 2 || !equalSnap(snap(e), want) {
		t.Fatalf("replay of the good prefix: %d, %v", n, err)
	}
	// The damaged tail was cut off, so new records follow the good ones and replay too.
	e.Relabel([]int{3}, 8)
	want = snap(e)
	e.Close()
	f, _ := Open(ip, lp, Options{})
	if rec := f.Recovery(); rec.Edits != 3 || rec.Damaged != 0 {
		t.Fatalf("after the cut: %+v", rec)
	}
	if _, err := f.ReplayJournal(); err != nil || !equalSnap(snap(f), want) {
		t.Fatal("edits after a damaged tail were lost")
	}
	f.Close()
}

func TestJournalOfOtherFilesIsNotReplayed(t *testing.T) {
	ip, lp := copyPair(t, 10000, false)
	d, _ := Open(ip, lp, Options{})
	d.Relabel([]int{0}, 5)
	d.Close()
	// Another tool rewrites the labels: the journal no longer applies.
	other, _ := Open(ip, lp, Options{})
	other.DiscardJournal(true)
	other.Relabel([]int{7}, 1)
	other.Save(nil)
	other.Close()
	os.WriteFile(lp+pairfile.JournalSuffix, mustRead(t, matches(t, lp+pairfile.JournalSuffix+".*.discarded")), 0o644)

	e, _ := Open(ip, lp, Options{})
	rec := e.Recovery()
	if rec == nil || rec.Matches || rec.Reason == "" {
		t.Fatalf("recovery %+v", rec)
	}
	if _, err := e.ReplayJournal(); err == nil {
		t.Fatal("a journal of other files was replayed")
	}
	if err := e.DiscardJournal(false); err != nil || e.Recovery() != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lp + pairfile.JournalSuffix); !os.IsNotExist(err) {
		t.Fatal("discard left the journal")
	}
	if err := e.Relabel([]int{0}, 1); err != nil {
		t.Fatalf("editing after discard: %v", err)
	}
	e.Close()
}

func TestJournalFallsBackWhenFolderUnwritable(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	ip, lp := copyPair(t, 10000, false)
	// A folder where the journal file should go makes creating it fail, like a read-only folder.
	os.Mkdir(lp+pairfile.JournalSuffix, 0o755)
	d, _ := Open(ip, lp, Options{})
	if err := d.Relabel([]int{0}, 5); err != nil {
		t.Fatal(err)
	}
	jp := journalPath(d)
	if jp == lp+pairfile.JournalSuffix || filepath.Dir(filepath.Dir(jp)) != filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "idxlabel") {
		t.Fatalf("journal at %s", jp)
	}
	d.Close()
	e, _ := Open(ip, lp, Options{})
	if rec := e.Recovery(); rec == nil || rec.Path != jp || !rec.Matches {
		t.Fatalf("fallback journal not found: %+v", rec)
	}
	e.ReplayJournal()
	if e.Label(0) != 5 {
		t.Fatal("fallback journal did not replay")
	}
	e.Close()
}

func mustRead(t *testing.T, p string) []byte {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func matches(t *testing.T, pattern string) string {
	m, _ := filepath.Glob(pattern)
	if len(m) != 1 {
		t.Fatalf("%s matches %v", pattern, m)
	}
	return m[0]
}

func TestAbandonRemovesTheJournal(t *testing.T) {
	ip, lp := writeTestPair(t, 20, 2, 2)
	d, _ := Open(ip, lp, Options{})
	d.Relabel([]int{0}, 9)
	if err := d.Abandon(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lp + pairfile.JournalSuffix); !os.IsNotExist(err) {
		t.Fatal("Abandon left the journal")
	}
	d.Close()
	e, _ := Open(ip, lp, Options{})
	if e.Recovery() != nil {
		t.Fatal("abandoned edits were offered again")
	}
	e.Close()
}

// After Abandon (the person chose Discard) nothing can be undone or redone, saved steps
// included: an undo after it was journaled after the base record alone, and the next Open
// refused that journal (an undo with nothing to undo). An edit after it is recovered on top of
// the files.
func TestAbandonDropsTheUndoHistory(t *testing.T) {
	ip, lp := writeTestPair(t, 20, 2, 2)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, d.Relabel([]int{0}, 9))
	mustDo(t, d.Save(nil)) // a saved step: its history is carried
	mustDo(t, d.Relabel([]int{1}, 8))
	mustDo(t, d.Abandon())
	if d.UndoName() != "" || d.RedoName() != "" || d.Dirty() {
		t.Fatalf("after Abandon: undo %q, redo %q, dirty %v", d.UndoName(), d.RedoName(), d.Dirty())
	}
	if name, ok, err := d.Undo(); ok || err != nil {
		t.Fatalf("undid %q after Abandon (err %v)", name, err)
	}
	mustDo(t, d.Relabel([]int{2}, 7))
	d.Close()
	e, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if rec := e.Recovery(); rec == nil || rec.Edits != 1 {
		t.Fatalf("the edit after Abandon: %+v", rec)
	}
	if _, err := e.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if got := labelsOf(e)[:3]; !slices.Equal(got, []int{9, 1, 7}) || e.UndoName() != "Relabel sample 2 as 7" {
		t.Fatalf("after replay: labels %v, undo %q", got, e.UndoName())
	}
}

func TestDecideIsOneJournaledStep(t *testing.T) {
	ip, lp := writeTestPair(t, 30, 2, 2)
	d, _ := Open(ip, lp, Options{})
	if err := decideManual(d, 4, 4); err != nil { // keep its label
		t.Fatal(err)
	}
	if err := decideManual(d, 5, 1); err != nil { // relabel it
		t.Fatal(err)
	}
	if !d.State(4).Reviewed || d.State(4).Edited || !d.State(5).Reviewed || d.Label(5) != 1 || !d.Dirty() {
		t.Fatalf("after decisions: %+v %+v", d.State(4), d.State(5))
	}
	if d.UndoName() != "Relabel sample 5 as 1 (review)" {
		t.Fatalf("undo %q", d.UndoName())
	}
	d.Undo()
	if d.State(5).Reviewed || d.Label(5) != 5 || d.UndoName() != "Keep label 4 of sample 4" {
		t.Fatalf("after undo: %+v, %q", d.State(5), d.UndoName())
	}
	d.Redo()
	d.Close()
	e, _ := Open(ip, lp, Options{})
	if _, err := e.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if !e.State(4).Reviewed || !e.State(5).Reviewed || e.Label(5) != 1 {
		t.Fatal("decisions were not replayed")
	}
	if err := e.Save(nil); err != nil {
		t.Fatal(err)
	}
	if !e.State(4).Reviewed || !e.State(5).Reviewed || e.State(6).Reviewed {
		t.Fatal("a save lost the review marks (a review goes on across saves)")
	}
	e.Close()
}

// craftJournal writes, beside the pair at ip, lp, a journal holding the pair's base record and
// then records (payloads, framed as journal.go says): what a damaged or hostile file may hold.
func craftJournal(t *testing.T, ip, lp string, records ...[]byte) {
	t.Helper()
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := append([]byte(journal.MagicV2), journal.Frame(d.baseRecord())...)
	d.Close()
	for _, r := range records {
		b = append(b, journal.Frame(r)...)
	}
	if err := os.WriteFile(lp+pairfile.JournalSuffix, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// replayCrafted opens the pair at ip, lp with a journal of records (craftJournal) and replays
// it, returning the dataset (closed by the test's cleanup) and the replay's error.
func replayCrafted(t *testing.T, ip, lp string, records ...[]byte) (*Dataset, error) {
	t.Helper()
	craftJournal(t, ip, lp, records...)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if rec := d.Recovery(); rec == nil || !rec.Matches {
		t.Fatalf("the crafted journal is not offered: %+v", rec)
	}
	_, err = d.ReplayJournal()
	return d, err
}

// A record claiming 2³²-1 elements is refused, whatever holds the count: the count is checked
// in 64 bits before it becomes an int. (On a 32-bit system it used to become -1, pass the
// length check, and make panicked with the dataset's lock held, so Close hung; run with
// GOARCH=386 CGO_ENABLED=0 to test that case.)
func TestReplayRefusesCountsBeyondTheRecord(t *testing.T) {
	const huge = 0xFFFFFFFF
	for name, rec := range map[string][]byte{ // a history record is followed by an undo: alone it holds no edit
		"relabel":         enc{recRelabel}.prov(provenance{how: HowManual}).u32(huge).u32(1).i32(3),
		"delete":          enc{recDelete}.prov(provenance{how: HowDeleted}).u32(huge).u32(1),
		"restore":         enc{recRestore}.prov(provenance{how: howRestore}).u32(huge).u32(1),
		"append":          enc{recAppend}.prov(provenance{how: HowAddedDrawn}).u32(huge).u32(16).i32(1),
		"history undo":    enc{recHistory}.u32(huge).u32(0).u8(hRelabel),
		"history redo":    enc{recHistory}.u32(0).u32(huge).u8(hRelabel),
		"history relabel": enc{recHistory}.u32(1).u32(0).u8(hRelabel).prov(provenance{how: HowManual}).u32(huge).u32(1).i32(3).i32(0),
		"history append":  enc{recHistory}.u32(0).u32(1).u8(hAppend).prov(provenance{how: HowAddedDrawn}).u32(huge).u32(16).i32(1),
	} {
		t.Run(name, func(t *testing.T) {
			ip, lp := tinyPair(t, t.TempDir(), 12)
			recs := [][]byte{rec}
			if rec[0] == recHistory {
				recs = append(recs, stepRecord(recUndo, 1))
			}
			d, err := replayCrafted(t, ip, lp, recs...)
			if err == nil || !strings.Contains(err.Error(), "record count exceeds its length") {
				t.Fatalf("replayed a record claiming 2^32-1 elements: %v", err)
			}
			if d.Len() != 12 {
				t.Fatalf("%d samples after the refused record", d.Len())
			}
		})
	}
}

// takeElems checks n×size against the bytes left in 64 bits: 2²⁰ elements of 2¹² bytes are
// 2³² bytes, which an int multiplication on a 32-bit system wraps to 0 (an append of 2²⁰ samples
// of 64×64 pixels with no pixels at all).
func TestDecodeElementsCheckedIn64Bits(t *testing.T) {
	r := &dec{b: make([]byte, 8)}
	if b := r.takeElems(1<<20, 1<<12); b != nil || r.err == nil {
		t.Fatalf("took %d bytes for 2^32, err %v", len(b), r.err)
	}
	r = &dec{b: make([]byte, 8)}
	if b := r.takeElems(2, 4); len(b) != 8 || r.err != nil || len(r.b) != 0 {
		t.Fatalf("took %d bytes of 8, err %v", len(b), r.err)
	}
}

// The first decoding error is the one reported: reading on past it does not replace "label 300
// does not fit" by "record too short".
func TestDecodeKeepsTheFirstError(t *testing.T) {
	first := errors.New("the first")
	r := &dec{b: []byte{1, 2}, err: first}
	r.u32()
	r.take(8)
	if r.err != first {
		t.Fatalf("err %v, want the first", r.err)
	}
}

// A step on no sample is refused by replay, as an edit record and as a step of a history
// record: no edit makes one, and accepted it broke the menus (UndoName panicked naming a
// relabel of no sample).
func TestReplayRefusesStepsOnNoSample(t *testing.T) {
	undo := stepRecord(recUndo, 1)
	for name, recs := range map[string][][]byte{
		"relabel":              {enc{recRelabel}.prov(provenance{how: HowManual}).u32(0)},
		"delete":               {enc{recDelete}.prov(provenance{how: HowDeleted}).u32(0)},
		"restore":              {enc{recRestore}.prov(provenance{how: howRestore}).u32(0)},
		"append":               {enc{recAppend}.prov(provenance{how: HowAddedDrawn}).u32(0).u32(16)},
		"history relabel":      {enc{recHistory}.u32(1).u32(0).u8(hRelabel).prov(provenance{how: HowManual}).u32(0), undo},
		"history delete":       {enc{recHistory}.u32(1).u32(0).u8(hSetDeleted).prov(provenance{how: HowDeleted}).u8(1).u32(0), undo},
		"history saved append": {enc{recHistory}.u32(1).u32(0).u8(hSavedAppend).prov(provenance{how: HowAddedDrawn}).u32(0), undo},
		"history append":       {enc{recHistory}.u32(0).u32(1).u8(hAppend).prov(provenance{how: HowAddedDrawn}).u32(0).u32(16), undo},
	} {
		t.Run(name, func(t *testing.T) {
			ip, lp := tinyPair(t, t.TempDir(), 12)
			d, err := replayCrafted(t, ip, lp, recs...)
			if err == nil || !strings.Contains(err.Error(), "a step on no sample") {
				t.Errorf("replayed a step on no sample: %v", err)
			}
			if u, r := d.UndoName(), d.RedoName(); u != "" || r != "" {
				t.Errorf("undo %q, redo %q after the refused record", u, r)
			}
		})
	}
	if got := (&relabel{}).String(); got != "Relabel no samples" {
		t.Errorf("an empty relabel is named %q", got)
	}
}

// A step naming a sample twice is refused by replay (edit and history records alike): no edit
// makes one, and a relabel naming sample 1 twice (to 7, then 8) was undone to 7, not to the
// label 1 it had.
func TestReplayRefusesASampleNamedTwice(t *testing.T) {
	undo := stepRecord(recUndo, 1)
	for name, recs := range map[string][][]byte{
		"relabel":              {enc{recRelabel}.prov(provenance{how: HowBatch}).u32(2).u32(1).i32(7).u32(1).i32(8)},
		"delete":               {enc{recDelete}.prov(provenance{how: HowDeleted}).u32(2).u32(3).u32(3)},
		"history relabel":      {enc{recHistory}.u32(1).u32(0).u8(hRelabel).prov(provenance{how: HowBatch}).u32(2).u32(1).i32(7).i32(1).u32(1).i32(8).i32(7), undo},
		"history delete":       {enc{recHistory}.u32(1).u32(0).u8(hSetDeleted).prov(provenance{how: HowDeleted}).u8(1).u32(2).u32(3).u32(3), undo},
		"history saved append": {enc{recHistory}.u32(1).u32(0).u8(hSavedAppend).prov(provenance{how: HowAddedDrawn}).u32(2).u32(4).i32(4).u32(4).i32(4), undo},
	} {
		t.Run(name, func(t *testing.T) {
			ip, lp := tinyPair(t, t.TempDir(), 12)
			d, err := replayCrafted(t, ip, lp, recs...)
			if err == nil || !strings.Contains(err.Error(), "twice") {
				t.Errorf("replayed a step naming a sample twice: %v", err)
			}
			d.Undo() // nothing to undo once the record is refused
			if l := d.Label(1); l != 1 {
				t.Errorf("sample 1 is labelled %d after an undo, want its label in the files, 1", l)
			}
		})
	}
}

// A history record holding a label its dtype cannot hold (300 in a ubyte pair) is refused with
// an error that names the label and the dtype, and the whole journal is kept, unreplayed, for
// the person (the edits after it are in that copy).
func TestReplayRefusesAHistoryLabelOutsideTheDtype(t *testing.T) {
	ip, lp := tinyPair(t, t.TempDir(), 12)
	history := enc{recHistory}.u32(1).u32(0).u8(hRelabel).prov(provenance{how: HowManual}).u32(1).u32(0).i32(300).i32(0)
	edit := enc{recRelabel}.prov(provenance{how: HowManual}).u32(1).u32(1).i32(7)
	d, err := replayCrafted(t, ip, lp, history, edit)
	if err == nil || !strings.Contains(err.Error(), "record 1 of 2 was not replayed: history: label 300 does not fit the labels' dtype ubyte (0–255)") {
		t.Fatalf("replay of a history holding 300 in a ubyte pair: %v", err)
	}
	kept := matches(t, lp+pairfile.JournalSuffix+".*.unreplayed")
	want := append([]byte(journal.MagicV2), journal.Frame(d.baseRecord())...)
	want = append(append(want, journal.Frame(history)...), journal.Frame(edit)...)
	if !bytes.Equal(mustRead(t, kept), want) {
		t.Fatal("the copy kept is not the journal")
	}
	if d.Label(0) != 0 || d.Label(1) != 1 || d.UndoName() != "" {
		t.Fatalf("after the refused history: labels %d %d, undo %q", d.Label(0), d.Label(1), d.UndoName())
	}
}
