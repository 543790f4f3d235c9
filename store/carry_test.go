package store

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/sample"
)

// mustDo fails the test on an edit's error.
func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// mustStep undoes (or redoes) one step and checks its name.
func mustStep(t *testing.T, d *Dataset, undo bool, want string) {
	t.Helper()
	step := d.Redo
	if undo {
		step = d.Undo
	}
	name, ok, err := step()
	if err != nil || !ok || name != want {
		t.Fatalf("undo %v: %q %v %v, want %q", undo, name, ok, err, want)
	}
}

// labelsOf returns every sample's label.
func labelsOf(d *Dataset) []int {
	out := make([]int, d.Len())
	for i := range out {
		out[i] = d.Label(i)
	}
	return out
}

// reopen closes d (as a crash would leave it: the journal on disk, nothing saved), opens the
// pair again and replays the journal, checking that samples and both stacks are as d had them.
func reopen(t *testing.T, d *Dataset, ip, lp string) *Dataset {
	t.Helper()
	want := snap(d)
	d.Close()
	e, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Recovery() == nil {
		t.Fatal("no journal offered")
	}
	if _, err := e.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if got := snap(e); !equalSnap(got, want) {
		t.Fatalf("after replay:\nlabels %v\nwant   %v\nundo %q redo %q\nwant %q %q", got.labels, want.labels, got.undo, got.redo, want.undo, want.redo)
	}
	return e
}

// A relabel saved by Ctrl+S is undone, redone and undone again; the edited mark shows what
// changed since opening throughout; a crash then loses nothing.
func TestUndoRelabelAfterSave(t *testing.T) {
	ip, lp := writeTestPair(t, 20, 2, 2)
	d, _ := Open(ip, lp, Options{})
	mustDo(t, d.Relabel([]int{1, 2}, 7))
	mustDo(t, d.Save(nil))
	if d.Dirty() || d.UndoName() != "Relabel 2 samples as 7" || !d.State(1).Edited || d.State(1).Original != 1 {
		t.Fatalf("after save: dirty %v, undo %q, state %+v", d.Dirty(), d.UndoName(), d.State(1))
	}
	if got := d.Select(Filter{Subset: Edited}); !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("Edited after the save: %v", got)
	}
	mustStep(t, d, true, "Relabel 2 samples as 7")
	if d.Label(1) != 1 || d.Label(2) != 2 || d.State(1).Edited || !d.Dirty() || d.Counters().Relabelled != 2 {
		t.Fatalf("after undo: labels %d %d, state %+v, dirty %v, counters %+v", d.Label(1), d.Label(2), d.State(1), d.Dirty(), d.Counters())
	}
	mustStep(t, d, false, "Relabel 2 samples as 7")
	if d.Label(1) != 7 || d.Dirty() {
		t.Fatalf("after redo: label %d, dirty %v", d.Label(1), d.Dirty())
	}
	mustStep(t, d, true, "Relabel 2 samples as 7")
	e := reopen(t, d, ip, lp)
	defer e.Close()
	if e.Label(1) != 1 || !e.Dirty() || e.RedoName() != "Relabel 2 samples as 7" {
		t.Fatalf("replayed: label %d, dirty %v, redo %q", e.Label(1), e.Dirty(), e.RedoName())
	}
	mustStep(t, e, false, "Relabel 2 samples as 7")
	if e.Dirty() || e.Label(2) != 7 {
		t.Fatal("redo after the replay does not reach the saved state")
	}
}

// Two saves: the history of both is kept and the state of the last save is the clean one.
func TestUndoAcrossTwoSaves(t *testing.T) {
	ip, lp := writeTestPair(t, 20, 2, 2)
	d, _ := Open(ip, lp, Options{})
	defer func() { d.Close() }()
	mustDo(t, d.Relabel([]int{3}, 9))
	mustDo(t, d.Save(nil))
	mustDo(t, decideManual(d, 4, 0))
	mustDo(t, d.Save(nil))
	if d.UndoName() != "Relabel sample 4 as 0 (review)" || d.Dirty() {
		t.Fatalf("undo %q", d.UndoName())
	}
	mustStep(t, d, true, "Relabel sample 4 as 0 (review)")
	mustStep(t, d, true, "Relabel sample 3 as 9")
	if d.Label(3) != 3 || d.Label(4) != 4 || d.State(4).Reviewed || !d.Dirty() || d.UndoName() != "" {
		t.Fatalf("after two undos: %v, reviewed %v, undo %q", labelsOf(d), d.State(4).Reviewed, d.UndoName())
	}
	mustDo(t, d.Save(nil)) // the undone steps are saved: redo goes back to the second save
	mustStep(t, d, false, "Relabel sample 3 as 9")
	mustStep(t, d, false, "Relabel sample 4 as 0 (review)")
	if d.Label(3) != 9 || d.Label(4) != 0 || !d.State(4).Reviewed || !d.Dirty() {
		t.Fatal("redo after the third save")
	}
	d = reopen(t, d, ip, lp)
	for range 2 {
		d.Undo()
	}
	if d.Dirty() {
		t.Fatal("after the replay, undoing back to the saved state is not clean")
	}
}

// Deletions a save made permanent leave the history; the steps below them stay, on the samples
// that were kept, under their new numbers. A deletion later restored stays undoable.
func TestUndoAfterSaveWithDeletes(t *testing.T) {
	ip, lp := writeTestPair(t, 20, 2, 2)
	d, _ := Open(ip, lp, Options{})
	mustDo(t, d.Relabel([]int{1, 2, 3}, 7))
	mustDo(t, d.Delete([]int{2}))
	mustDo(t, d.Delete([]int{5, 6}))
	mustDo(t, d.Restore([]int{5}))
	mustDo(t, d.Relabel([]int{6, 8}, 0)) // 6 is deleted: the save drops it from this step
	mustDo(t, d.Save(nil))
	// Now: 0 1 3→2 4→3 5→4 7→5 8→6 …
	if d.Len() != 18 || d.Label(2) != 7 || d.OriginalLabel(2) != 3 {
		t.Fatalf("after save: %v", labelsOf(d))
	}
	mustStep(t, d, true, "Relabel sample 6 as 0")
	mustStep(t, d, true, "Restore sample 4")
	if !d.State(4).Deleted || d.OriginalLabel(4) != 5 {
		t.Fatalf("undoing the restore: %+v", d.State(4))
	}
	mustStep(t, d, true, "Delete sample 4") // the part of the deletion that was not saved
	if d.State(4).Deleted {
		t.Fatal("undoing the deletion left sample 4 deleted")
	}
	mustStep(t, d, true, "Relabel 2 samples as 7") // the deletion of 2 is permanent: skipped
	if d.Label(1) != 1 || d.Label(2) != 3 || d.UndoName() != "" {
		t.Fatalf("after undoing everything: %v, undo %q", labelsOf(d), d.UndoName())
	}
	for i := range d.Len() {
		if st := d.State(i); st.Edited || st.Deleted || st.Added {
			t.Fatalf("sample %d after undoing everything: %+v", i, st)
		}
	}
	reopen(t, d, ip, lp).Close()
}

// An append that a save wrote is undone by marking its samples deleted (the next save removes
// them) and redone by restoring them; an append undone before the save is redone after it at
// the new end, with the steps that use its samples.
func TestUndoAppendAfterSave(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	d, _ := Open(ip, lp, Options{})
	px := []byte{1, 2, 3, 4}
	_, err := d.Append([]Sample{{Pixels: px, Label: 5}, {Pixels: px, Label: 6}})
	mustDo(t, err)
	mustDo(t, d.Save(nil))
	if d.Len() != 12 || !d.State(10).Added || d.UndoName() != "Add 2 samples" {
		t.Fatalf("after save: len %d, %+v, undo %q", d.Len(), d.State(10), d.UndoName())
	}
	mustStep(t, d, true, "Add 2 samples")
	if d.Len() != 12 || !d.State(10).Deleted || !d.State(11).Deleted || !d.Dirty() {
		t.Fatal("undoing a saved append does not mark its samples deleted")
	}
	mustStep(t, d, false, "Add 2 samples")
	if d.State(10).Deleted || d.Dirty() {
		t.Fatal("redoing a saved append does not restore its samples")
	}
	mustStep(t, d, true, "Add 2 samples")
	mustDo(t, d.Save(nil))
	if d.Len() != 10 || d.RedoName() != "" || d.UndoName() != "" || d.Dirty() {
		t.Fatalf("saved after undoing the append: len %d, redo %q", d.Len(), d.RedoName())
	}

	// An append undone before a save that deletes sample 0: redone after it at the new end,
	// with the relabel of its sample.
	mustDo(t, d.Delete([]int{0}))
	mustDo(t, d.Relabel([]int{5}, 0))
	_, err = d.Append([]Sample{{Pixels: px, Label: 8}})
	mustDo(t, err)
	mustDo(t, d.Relabel([]int{10}, 3))
	mustStep(t, d, true, "Relabel sample 10 as 3")
	mustStep(t, d, true, "Add a sample labelled 8")
	mustDo(t, d.Save(nil)) // sample 0 goes: the append will make sample 9
	if d.Len() != 9 || d.RedoName() != "Add a sample labelled 8" || d.UndoName() != "Relabel sample 4 as 0" {
		t.Fatalf("len %d, undo %q, redo %q", d.Len(), d.UndoName(), d.RedoName())
	}
	mustStep(t, d, true, "Relabel sample 4 as 0")
	d = reopen(t, d, ip, lp) // a crash: the history record brings back both stacks
	defer d.Close()
	mustStep(t, d, false, "Relabel sample 4 as 0")
	mustStep(t, d, false, "Add a sample labelled 8")
	mustStep(t, d, false, "Relabel sample 9 as 3")
	if d.Len() != 10 || d.Label(9) != 3 || !slices.Equal(d.Pixels(9), px) || !d.Dirty() {
		t.Fatalf("redone after the save: len %d, label %d", d.Len(), d.Label(9))
	}
}

// The question of issue 11: edits whose net change is nothing offer no recovery, after a save
// too; an undo after a save followed by another edit is not nothing (a count of steps would
// say it is: one back, one forward).
func TestNoRecoveryOfferForNothingAfterSave(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := writeTestPair(t, 10, 2, 2)
	d, _ := Open(ip, lp, Options{})
	mustDo(t, d.Relabel([]int{1}, 7))
	mustDo(t, d.Save(nil))
	mustStep(t, d, true, "Relabel sample 1 as 7")
	mustStep(t, d, false, "Relabel sample 1 as 7")
	d.Close()
	e, _ := Open(ip, lp, Options{})
	if rec := e.Recovery(); rec != nil {
		t.Fatalf("an undo and redo after a save offered %d edits", rec.Edits)
	}
	e.Close()
}

func TestRecoveryOfferAfterSaveUndoEdit(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := writeTestPair(t, 10, 2, 2)
	d, _ := Open(ip, lp, Options{})
	mustDo(t, d.Relabel([]int{1}, 7))
	mustDo(t, d.Save(nil))
	mustStep(t, d, true, "Relabel sample 1 as 7")
	mustDo(t, d.Relabel([]int{2}, 7))
	e := reopen(t, d, ip, lp) // offered, and replayed as it was
	defer e.Close()
	if e.Label(1) != 1 || e.Label(2) != 7 {
		t.Fatalf("replayed labels %v", labelsOf(e))
	}
}

// The model of TestHistoryThroughSavesProperty: samples by identity (the files' samples are
// 0…n-1, appended ones n, n+1, …), and stacks of whole states with the samples each step
// touched.
type msample struct {
	id, label                   int
	deleted, reviewed, accepted bool
}

type mstate []msample

type mstep struct {
	state   mstate // undo stack: the state before the step; redo stack: the state after it
	touched []int  // the samples the step changed
}

func (s mstate) clone() mstate { return slices.Clone(s) }

func (s mstate) find(id int) (msample, bool) {
	for _, m := range s {
		if m.id == id {
			return m, true
		}
	}
	return msample{}, false
}

// historyModel is the reference for undo and redo through saves and crashes.
type historyModel struct {
	cur        mstate
	undo, redo []mstep
	clean      int
	files      mstate         // what the files hold (the last save, or the pair as generated)
	opened     map[int]int    // id → label when the files were (last) opened
	pixels     map[int][]byte // id → pixels
}

// edit records a step that changed touched (none: no step).
func (m *historyModel) edit(before mstate, touched []int) {
	if len(touched) == 0 {
		return
	}
	if m.clean > len(m.undo) {
		m.clean = -1
	}
	m.undo, m.redo = append(m.undo, mstep{before, touched}), nil
}

// save is what the rules of carry.go say a save does to the state and both stacks.
func (m *historyModel) save(t *testing.T) {
	gone := map[int]bool{}
	var kept mstate
	for _, s := range m.cur {
		if s.deleted {
			gone[s.id] = true
		} else {
			kept = append(kept, s)
		}
	}
	restrict := func(touched []int) []int {
		return slices.DeleteFunc(slices.Clone(touched), func(id int) bool { return gone[id] })
	}
	var undo []mstep
	for k, st := range m.undo {
		var s mstate
		for _, c := range kept {
			v, ok := st.state.find(c.id)
			if !ok { // appended later: as right after its append, marked deleted
				for _, later := range m.undo[k+1:] {
					if v, ok = later.state.find(c.id); ok {
						break
					}
				}
				if !ok {
					v = c
				}
				v.deleted = true
			}
			s = append(s, v)
		}
		for _, v := range st.state {
			if _, ok := m.cur.find(v.id); !ok {
				t.Fatalf("model: an undo state has sample %d that the current one lacks", v.id)
			}
		}
		if touched := restrict(st.touched); len(touched) > 0 {
			undo = append(undo, mstep{s, touched})
		}
	}
	var redo []mstep
	for _, st := range m.redo {
		s := slices.DeleteFunc(st.state.clone(), func(v msample) bool { return gone[v.id] })
		if touched := restrict(st.touched); len(touched) > 0 {
			redo = append(redo, mstep{s, touched})
		}
	}
	m.cur, m.undo, m.redo, m.clean = kept, undo, redo, len(undo)
	m.files = kept.clone()
}

// check compares d with the model: samples, marks, pixels, what changed since opening, Dirty
// and whether there is something to undo and redo.
func (m *historyModel) check(t *testing.T, d *Dataset, where string) {
	t.Helper()
	if d.Len() != len(m.cur) {
		t.Fatalf("%s: %d samples, the model %d", where, d.Len(), len(m.cur))
	}
	for i, s := range m.cur {
		st := d.State(i)
		orig, inFiles := m.opened[s.id]
		if st.Label != s.label || st.Deleted != s.deleted || st.Reviewed != s.reviewed || st.Accepted != s.accepted || !slices.Equal(d.Pixels(i), m.pixels[s.id]) {
			t.Fatalf("%s: sample %d is %+v, the model %+v", where, i, st, s)
		}
		if st.Added == inFiles || inFiles && (st.Original != orig || st.Edited != (s.label != orig)) {
			t.Fatalf("%s: sample %d is %+v, opened with %d (%v)", where, i, st, orig, inFiles)
		}
	}
	if d.Dirty() != (len(m.undo) != m.clean) || (d.UndoName() == "") != (len(m.undo) == 0) || (d.RedoName() == "") != (len(m.redo) == 0) {
		t.Fatalf("%s: dirty %v, undo %q, redo %q; the model has %d and %d steps, clean at %d", where, d.Dirty(), d.UndoName(), d.RedoName(), len(m.undo), len(m.redo), m.clean)
	}
	checkLogExplains(t, d) // the change log explains the state (changelog_test.go)
}

// TestHistoryThroughSavesProperty runs random edits (appends among them of samples that bring
// accepted and reviewed marks, as Append Dataset's do), undos, redos, saves and crashes (the
// process gone, the pair opened again and its journal replayed) against the model, checking
// the dataset (labels, deletions, both kinds of marks) after every step, and that a crash offers no recovery only when the samples are
// as the files hold them.
func TestHistoryThroughSavesProperty(t *testing.T) {
	skipShort(t)
	const n, h, w = 24, 2, 2
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for seed := range uint64(16) {
		rng := rand.New(rand.NewPCG(seed, 11))
		ip, lp := writeTestPair(t, n, h, w)
		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		changes := followChanges(t, d) // the change log file's rows follow the saves (changelog_test.go)
		m := &historyModel{opened: map[int]int{}, pixels: map[int][]byte{}}
		for i := range n {
			m.cur = append(m.cur, msample{id: i, label: d.Label(i)})
			m.opened[i] = d.Label(i)
			m.pixels[i] = slices.Clone(d.Pixels(i))
		}
		m.files = m.cur.clone()
		nextID := n
		pick := func() []int {
			var s []int
			for range 1 + rng.IntN(4) {
				s = append(s, rng.IntN(len(m.cur)))
			}
			return s
		}
		for step := range 100 {
			before := m.cur.clone()
			where := ""
			switch op := rng.IntN(20); {
			case op < 4:
				where = "relabel"
				idxs, l := pick(), rng.IntN(10)
				mustDo(t, d.Relabel(idxs, l))
				var touched []int
				for _, i := range idxs {
					if m.cur[i].label != l || m.cur[i].accepted { // a person's label on an accepted suggestion confirms it
						touched = append(touched, m.cur[i].id)
					}
					m.cur[i].label, m.cur[i].accepted = l, false
				}
				m.edit(before, touched)
			case op < 7:
				to := op < 6
				where = map[bool]string{true: "delete", false: "restore"}[to]
				idxs := pick()
				if to {
					mustDo(t, d.Delete(idxs))
				} else {
					mustDo(t, d.Restore(idxs))
				}
				var touched []int
				for _, i := range idxs {
					if m.cur[i].deleted != to && !slices.Contains(touched, m.cur[i].id) {
						touched = append(touched, m.cur[i].id)
					}
					m.cur[i].deleted = to
				}
				m.edit(before, touched)
			case op < 9:
				where = "append"
				var samples []Sample
				var touched []int
				for range 1 + rng.IntN(2) {
					px := []byte{byte(rng.IntN(256)), byte(nextID), 3, 4}
					// marks the pair it came from kept (Append Dataset): a third accepted, a third reviewed
					s := Sample{Pixels: px, Label: rng.IntN(10), Accepted: rng.IntN(3) == 0, Reviewed: rng.IntN(3) == 0}
					samples = append(samples, s)
					m.pixels[nextID] = px
					m.cur = append(m.cur, msample{id: nextID, label: s.Label, accepted: s.Accepted, reviewed: s.Reviewed})
					touched = append(touched, nextID)
					nextID++
				}
				_, err := d.Append(samples)
				mustDo(t, err)
				m.edit(before, touched)
			case op < 10:
				where = "decide"
				i, l := rng.IntN(len(m.cur)), rng.IntN(10)
				mustDo(t, decideManual(d, i, l))
				m.cur[i].label, m.cur[i].reviewed, m.cur[i].accepted = l, true, false
				m.edit(before, []int{m.cur[i].id})
			case op < 14:
				where = "undo"
				_, ok, err := d.Undo()
				if err != nil || ok != (len(m.undo) > 0) {
					t.Fatalf("seed %d step %d: undo ok=%v with %d steps: %v", seed, step, ok, len(m.undo), err)
				}
				if ok {
					top := m.undo[len(m.undo)-1]
					m.redo = append(m.redo, mstep{m.cur, top.touched})
					m.cur, m.undo = top.state.clone(), m.undo[:len(m.undo)-1]
				}
			case op < 17:
				where = "redo"
				_, ok, err := d.Redo()
				if err != nil || ok != (len(m.redo) > 0) {
					t.Fatalf("seed %d step %d: redo ok=%v with %d steps: %v", seed, step, ok, len(m.redo), err)
				}
				if ok {
					top := m.redo[len(m.redo)-1]
					m.undo = append(m.undo, mstep{m.cur, top.touched})
					m.cur, m.redo = top.state.clone(), m.redo[:len(m.redo)-1]
				}
			case op < 19:
				where = "save"
				live := slices.ContainsFunc(m.cur, func(s msample) bool { return !s.deleted })
				if err := d.Save(nil); (err == nil) != live {
					t.Fatalf("seed %d step %d: save: %v", seed, step, err)
				}
				if live {
					m.save(t)
					changes.saved(t, d, fmt.Sprintf("seed %d step %d", seed, step))
				}
			default:
				where = "crash"
				want := snap(d)
				d.Close()
				if d, err = Open(ip, lp, Options{}); err != nil {
					t.Fatal(err)
				}
				changes = followChanges(t, d)
				m.opened = map[int]int{}
				for _, s := range m.files {
					m.opened[s.id] = s.label
				}
				if d.Recovery() == nil {
					// Nothing offered: the samples must be as the files hold them, reviewed and
					// accepted as the last save left them (its marks files). The history ends
					// with the session.
					if !slices.EqualFunc(m.cur, m.files, func(a, b msample) bool {
						return a.id == b.id && a.label == b.label && a.deleted == b.deleted
					}) {
						t.Fatalf("seed %d step %d: no recovery offered, but the samples differ from the files", seed, step)
					}
					m.undo, m.redo, m.clean = nil, nil, 0
					for k := range m.cur {
						m.cur[k].reviewed, m.cur[k].accepted = m.files[k].reviewed, m.files[k].accepted
					}
					break
				}
				if _, err := d.ReplayJournal(); err != nil {
					t.Fatalf("seed %d step %d: %v", seed, step, err)
				}
				if got := snap(d); !equalSnap(got, want) {
					t.Fatalf("seed %d step %d: replayed\nundo %q redo %q\nwant %q %q", seed, step, got.undo, got.redo, want.undo, want.redo)
				}
			}
			m.check(t, d, fmt.Sprintf("seed %d step %d (%s)", seed, step, where))
		}
		d.Close()
	}
}

// undoAfterSaveSteps is the number of steps undoAfterSave takes after its save.
const undoAfterSaveSteps = 60

// undoAfterSave edits a 400-sample pair (writeTestPair) in a fixed way, saves it, then takes
// undoAfterSaveSteps steps, each journaling exactly one record (undo, redo, or a relabel), and
// calls after(k) after step k; after(0) follows the save. The steps depend only on the
// dataset's state, so two runs on equal pairs take the same steps.
func undoAfterSave(d *Dataset, after func(step int)) {
	must := func(err error) {
		if err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
	}
	for i := 1; i <= 30; i++ {
		must(d.Relabel([]int{i}, (d.Label(i)+1)%10))
	}
	must(d.Delete([]int{40, 41, 42, 43, 44, 20}))
	px := make([]byte, 784)
	for k := range px {
		px[k] = byte(k)
	}
	_, err := d.Append([]Sample{{Pixels: px, Label: 1}, {Pixels: px, Label: 2}})
	must(err)
	must(d.Relabel(span(50, 100), 3))
	must(d.Save(nil))
	after(0)
	rng := rand.New(rand.NewPCG(5, 5))
	for k := 1; k <= undoAfterSaveSteps; k++ {
		r := rng.Float64()
		switch {
		case r < 0.6 && d.UndoName() != "":
			_, _, err = d.Undo()
		case r < 0.85 && d.RedoName() != "":
			_, _, err = d.Redo()
		default:
			i := rng.IntN(d.Len())
			err = d.Relabel([]int{i}, (d.Label(i)+1)%10)
		}
		must(err)
		after(k)
	}
}

// TestCrashAfterUndoAfterSave kills a child at random moments while it undoes and redoes
// edits it made before a save (and makes new ones), 8 times, and checks that the journal
// replays to exactly the samples and the undo and redo stacks of the last step the child had
// journaled: at least the one it reported done. (When the steps journaled cancel out, nothing
// is offered and the samples are as saved.)
func TestCrashAfterUndoAfterSave(t *testing.T) {
	// The reference: the same steps in this process, a snapshot after each.
	ip, lp := writeTestPair(t, 400, 28, 28)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want []snapshot
	undone := 0
	undoAfterSave(d, func(step int) {
		want = append(want, snap(d))
		if step > 0 && len(want[step].redo) > len(want[step-1].redo) {
			undone++
		}
	})
	d.Close()
	if undone < 10 {
		t.Fatalf("the steps undo only %d times", undone)
	}
	rng := rand.New(rand.NewPCG(8, 8))
	for round := range 8 {
		ip, lp := writeTestPair(t, 400, 28, 28)
		n := 1 + rng.IntN(undoAfterSaveSteps)
		cmd, sc := child(t, "undo-after-save", ip, lp)
		waitFor(t, sc, "step "+strconv.Itoa(n))
		cmd.Process.Kill()
		io.Copy(io.Discard, cmd.Stdout.(io.Reader))
		cmd.Wait()

		e, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rec := e.Recovery()
		if rec == nil {
			// Nothing offered: the steps journaled cancel out (an undo and a redo, say), so the
			// samples must be as saved, and as after some step from the n-th on.
			got, saved := snap(e), want[0]
			same := func(a, b snapshot) bool {
				return slices.Equal(a.labels, b.labels) && slices.Equal(a.deleted, b.deleted) && slices.Equal(a.pixels, b.pixels)
			}
			if !same(got, saved) || !slices.ContainsFunc(want[n:], func(s snapshot) bool { return same(s, saved) }) {
				t.Fatalf("round %d: no journal offered after %d steps, but the samples are not as saved", round, n)
			}
			e.Close()
			continue
		}
		if !rec.Matches || rec.Edits < n || rec.Edits > undoAfterSaveSteps {
			t.Fatalf("round %d: %d steps reported done, journal %+v", round, n, rec)
		}
		if _, err := e.ReplayJournal(); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if got := snap(e); !equalSnap(got, want[rec.Edits]) {
			t.Fatalf("round %d: after %d steps the replay differs:\nundo %q\nwant %q\nredo %q\nwant %q", round, rec.Edits, got.undo, want[rec.Edits].undo, got.redo, want[rec.Edits].redo)
		}
		e.Close()
	}
}

// Images opened alone, labelled and saved with a new label file: undoing the labelling leaves
// the samples without labels, which the next save stores as sample.NoLabel in an int32 file (the label
// file is idxlabel's own), and a crash then replays to the same.
func TestUndoLabellingOfUnlabelledImages(t *testing.T) {
	ip, _ := writeTestPair(t, 6, 2, 2)
	d, err := Open(ip, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, d.Relabel(span(0, 6), 4))
	lp := ip + "-labels"
	mustDo(t, saveAs(d, ip, lp, nil))
	mustStep(t, d, true, "Relabel 6 samples as 4")
	if d.Label(0) != sample.NoLabel || d.State(0).Edited {
		t.Fatalf("after undo: %+v", d.State(0))
	}
	mustDo(t, d.Save(nil))
	if got, err := idx.ReadFile(lp); err != nil || got.Header.Type != idx.Int32 || slices.ContainsFunc(got.Ints(), func(v int64) bool { return v != sample.NoLabel }) {
		t.Fatalf("unlabelled samples saved as %v, err %v; want int32 sample.NoLabel ×6", got, err)
	}
	mustDo(t, d.Relabel(span(0, 6), 2))
	e := reopen(t, d, ip, lp)
	defer e.Close()
	if e.Label(0) != 2 || e.OriginalLabel(0) != sample.NoLabel {
		t.Fatalf("reopened: label %d, original %d", e.Label(0), e.OriginalLabel(0))
	}
	mustDo(t, e.Save(nil))
	if got, err := idx.ReadFile(lp); err != nil || got.Header.Type != idx.UByte {
		t.Fatalf("every sample labelled again, saved as %v, err %v; want ubyte", got, err)
	}
}

// wideLabelThenNarrow opens images alone, labels samples 0–2 300 and then 5, and saves them
// with a new label file: every label on screen fits a byte, but the undo stack holds 300.
func wideLabelThenNarrow(t *testing.T) (d *Dataset, ip, lp string) {
	t.Helper()
	ip, _ = writeTestPair(t, 3, 2, 2)
	d, err := Open(ip, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, d.Relabel([]int{0, 1, 2}, 300))
	mustDo(t, d.Relabel([]int{0, 1, 2}, 5))
	lp = ip + "-labels"
	mustDo(t, saveAs(d, ip, lp, nil))
	return d, ip, lp
}

// The first label file of images opened alone gets a dtype that holds the labels the undo
// history can bring back, not only those on screen: undoing after the save brings 300 back, and
// the next save writes 300 (a ubyte file stored it as 300 mod 256 = 44, silently).
func TestNewLabelFileHoldsTheLabelsOfTheHistory(t *testing.T) {
	d, _, lp := wideLabelThenNarrow(t)
	defer d.Close()
	if got, err := idx.ReadFile(lp); err != nil || got.Header.Type != idx.Int32 || !slices.Equal(got.Ints(), []int64{5, 5, 5}) {
		t.Fatalf("the first save wrote %v, err %v; want int32 5 5 5", got, err)
	}
	mustStep(t, d, true, "Relabel 3 samples as 5")
	if d.Label(0) != 300 {
		t.Fatalf("after undo: label %d", d.Label(0))
	}
	mustDo(t, d.Save(nil))
	if got, err := idx.ReadFile(lp); err != nil || !slices.Equal(got.Ints(), []int64{300, 300, 300}) {
		t.Fatalf("saved labels %v, err %v; want 300 300 300, the labels on screen", got, err)
	}
	// Without a label above 255 anywhere in the history, the first label file is ubyte (MNIST's).
	ip, _ := writeTestPair(t, 3, 2, 2)
	e, err := Open(ip, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	mustDo(t, e.Relabel([]int{0, 1, 2}, 255))
	mustDo(t, e.Relabel([]int{0, 1, 2}, 5))
	mustDo(t, saveAs(e, ip, ip+"-labels", nil))
	if got, err := idx.ReadFile(ip + "-labels"); err != nil || got.Header.Type != idx.UByte {
		t.Fatalf("labels up to 255 saved as %v, err %v; want ubyte", got, err)
	}
}

// The same history survives a crash: the history record holding 300 is replayed against the
// label file the save wrote (it was refused against a ubyte file, and every edit after it lost).
func TestCrashAfterSavingANarrowedWideLabel(t *testing.T) {
	d, ip, lp := wideLabelThenNarrow(t)
	mustDo(t, d.Relabel([]int{1}, 7)) // the journal: the history record, then this edit
	e := reopen(t, d, ip, lp)
	defer e.Close()
	mustStep(t, e, true, "Relabel sample 1 as 7")
	mustStep(t, e, true, "Relabel 3 samples as 5")
	if !slices.Equal(labelsOf(e), []int{300, 300, 300}) {
		t.Fatalf("after two undos: %v", labelsOf(e))
	}
}

// A save never writes a label its dtype cannot hold: it refuses, naming the sample, and leaves
// the files as they were (SetInt would store 300 in a ubyte file as 44).
func TestSaveRefusesALabelOutsideItsDtype(t *testing.T) {
	ip, lp := writeTestPair(t, 3, 2, 2)
	before, err := os.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	mustDo(t, d.Relabel([]int{2}, 4))
	d.mu.Lock()
	d.labels[1] = 300 // no edit can do this (checkLabel); the save must not rely on that alone
	d.mu.Unlock()
	err = d.Save(nil)
	if err == nil || !strings.Contains(err.Error(), "sample 1 has label 300, which the labels' dtype ubyte cannot hold (0–255)") {
		t.Fatalf("save of label 300 into ubyte: %v", err)
	}
	if after, _ := os.ReadFile(lp); !bytes.Equal(after, before) {
		t.Fatal("the refused save changed the label file")
	}
	if !d.Dirty() {
		t.Fatal("the refused save left the dataset clean")
	}
	// The refusal came as the arrays were built, the dataset already marked saving: edits and
	// saves work again.
	mustDo(t, d.Relabel([]int{1}, 3))
	mustDo(t, d.Save(nil))
	d.Close()
	e, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if got := labelsOf(e); !slices.Equal(got, []int{0, 3, 4}) || e.Recovery() != nil {
		t.Fatalf("saved labels %v (recovery %v), want [0 3 4] and nothing to recover", got, e.Recovery())
	}
}
