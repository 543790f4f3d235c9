package store

import (
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
	"idxlabel/sample"
)

// checkLogExplains checks the change log's promise on d: its entries, applied in order to the
// labels of the files as opened, give every sample's deletion now and the label of every sample
// not deleted (each entry starts from the label its sample has at that point; samples a save
// removed are checked from their first entry on); a deleted sample has no entry after its
// deletion, and one added and deleted again has none; each entry's how fits it (or is unknown,
// from a version 1 journal, or undone: an edit the files held, undone).
func checkLogExplains(t *testing.T, d *Dataset) {
	t.Helper()
	d.mu.RLock()
	session := make([]int, len(d.labels))
	for i := range session {
		session[i] = d.log.sessionIndex(&d.model, i)
	}
	d.mu.RUnlock()
	label, deleted, exists := map[int]int{}, map[int]bool{}, map[int]bool{}
	for i, s := range session {
		if st := d.State(i); !st.Added {
			label[s], exists[s] = st.Original, true
		}
	}
	for k, e := range d.ChangeLog() {
		add := e.How == HowAddedDrawn || e.How == HowAddedImported || e.How == HowUnknown && e.Original == sample.NoLabel && !exists[e.Index]
		if _, ok := label[e.Index]; !ok && !add {
			label[e.Index], exists[e.Index] = e.Original, true // a sample a save removed
		}
		switch {
		case add:
			if exists[e.Index] || e.Original != sample.NoLabel || e.New == sample.NoLabel {
				t.Fatalf("entry %d %+v: an addition of a sample that exists", k, e)
			}
			label[e.Index], exists[e.Index], deleted[e.Index] = e.New, true, false
		case !exists[e.Index] || deleted[e.Index] || label[e.Index] != e.Original:
			t.Fatalf("entry %d %+v: the sample has label %d (exists %v, deleted %v)", k, e, label[e.Index], exists[e.Index], deleted[e.Index])
		case e.How == HowDeleted || e.How == HowUnknown && e.New == sample.NoLabel:
			if e.New != sample.NoLabel {
				t.Fatalf("entry %d %+v: a deletion with a label", k, e)
			}
			deleted[e.Index] = true
		default:
			if checkHow(recRelabel, e.How) != nil && e.How != HowUndone {
				t.Fatalf("entry %d %+v: a relabel, how %q", k, e, e.How)
			}
			label[e.Index] = e.New
		}
	}
	for i, s := range session {
		st := d.State(i)
		if st.Added && st.Deleted {
			if exists[s] && !deleted[s] {
				t.Fatalf("sample %d (%d in the session) was added and deleted, but the log has it: %v", i, s, logRows(d.ChangeLog()))
			}
			continue
		}
		if !exists[s] || deleted[s] != st.Deleted || !st.Deleted && label[s] != st.Label {
			t.Fatalf("sample %d (%d in the session) is %+v; the log says label %d, deleted %v (exists %v)", i, s, st, label[s], deleted[s], exists[s])
		}
	}
}

// logRows returns the entries as the CSV rows a reader gets, without the times.
func logRows(entries []ChangeLogEntry) []string {
	var out []string
	var b bytes.Buffer
	WriteChangeLog(&b, entries, false)
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if line != "" {
			line = line[:strings.LastIndexByte(line, ',')] // the source
			out = append(out, line[:strings.LastIndexByte(line, ',')])
		}
	}
	return out
}

func TestChangeLogListsTheEditsInEffect(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 12) // labels k mod 10
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	start := time.Now().Truncate(time.Millisecond)
	px := make([]byte, 16)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(d.Relabel([]int{0}, 5))
	must(d.Relabel([]int{1, 2}, 9))
	must(d.DecideAs(HowSuspectAccepted, 3, 7))
	must(decideManual(d, 4, 4)) // keeps the label: not a change
	must(d.SetLabelsAs(HowSuggestedAccepted, []int{5}, []int{1}))
	_, err = d.AppendAs(HowAddedDrawn, []Sample{{Pixels: px, Label: 2}})
	must(err)
	_, err = d.Append([]Sample{{Pixels: px, Label: 3}, {Pixels: px, Label: 4}})
	must(err)
	must(d.Delete([]int{6, 14})) // 14 was just added: it never reaches the files
	must(d.Relabel([]int{7}, 0))
	_, _, err = d.Undo() // undone: not a change
	must(err)
	must(d.Delete([]int{8}))
	must(d.Restore([]int{8})) // restored: the deletion is taken back
	must(d.Relabel([]int{0}, 6))
	want := []string{
		"0,0,5,manual",
		"1,1,9,batch",
		"2,2,9,batch",
		"3,3,7,suspect-accepted",
		"5,5,1,suggested-accepted",
		"12,,2,added-drawn",
		"13,,3,added-imported",
		"6,6,,deleted",
		"0,5,6,manual",
	}
	log := d.ChangeLog()
	if got := logRows(log); !reflect.DeepEqual(got, want) {
		t.Fatalf("log\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	end := time.Now()
	for k, e := range log {
		if e.When.Before(start) || e.When.After(end) || e.When.Location() != time.UTC {
			t.Fatalf("entry %d made at %v, not between %v and %v (UTC)", k, e.When, start, end)
		}
		if k > 0 && e.When.Before(log[k-1].When) {
			t.Fatalf("entry %d is older than the one before it", k)
		}
	}
	checkLogExplains(t, d)
	// Undo takes the last change out; redo puts it back with the time it was made.
	d.Undo()
	if got := logRows(d.ChangeLog()); !reflect.DeepEqual(got, want[:len(want)-1]) {
		t.Fatalf("after undo: %v", got)
	}
	d.Redo()
	if got := d.ChangeLog(); !reflect.DeepEqual(got, log) {
		t.Fatalf("after redo:\n%v\nwant\n%v", got, log)
	}
}

func TestEditsRefuseAHowOfAnotherKind(t *testing.T) {
	ip, lp := tinyPair(t, t.TempDir(), 12)
	d, _ := Open(ip, lp, Options{})
	defer d.Close()
	if err := d.SetLabelsAs(HowAddedDrawn, []int{0}, []int{1}); err == nil {
		t.Fatal("SetLabelsAs took added-drawn")
	}
	if err := d.SetLabelsAs(HowUnknown, []int{0}, []int{1}); err == nil {
		t.Fatal("SetLabelsAs took an unknown how")
	}
	if err := d.DecideAs(HowDeleted, 0, 1); err == nil {
		t.Fatal("DecideAs took deleted")
	}
	if _, err := d.AppendAs(HowManual, []Sample{{Pixels: make([]byte, 16), Label: 1}}); err == nil {
		t.Fatal("AppendAs took manual")
	}
	if d.Dirty() || len(d.ChangeLog()) != 0 {
		t.Fatal("a refused edit was made")
	}
}

// A journal replayed after a crash gives the same change log, times included; and the edits
// made after the replay are journaled with theirs.
func TestChangeLogSurvivesACrash(t *testing.T) {
	ip, lp := copyPair(t, 1000, false)
	d, _ := Open(ip, lp, Options{})
	someEdits(t, d)
	if err := d.DecideAs(HowSuspectAccepted, 30, (d.Label(30)+1)%10); err != nil {
		t.Fatal(err)
	}
	if _, err := d.AppendAs(HowAddedDrawn, []Sample{{Pixels: make([]byte, 784), Label: 3}}); err != nil {
		t.Fatal(err)
	}
	want := d.ChangeLog()
	checkLogExplains(t, d)
	d.Close() // no save: as if the app had crashed

	e, _ := Open(ip, lp, Options{})
	if _, err := e.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if got := e.ChangeLog(); !reflect.DeepEqual(got, want) {
		t.Fatalf("replayed log\n%v\nwant\n%v", logRows(got), logRows(want))
	}
	if err := e.SetLabelsAs(HowSuggestedAccepted, []int{40, 41}, []int{1, 2}); err != nil {
		t.Fatal(err)
	}
	want = e.ChangeLog()
	e.Close()
	f, _ := Open(ip, lp, Options{})
	defer f.Close()
	if _, err := f.ReplayJournal(); err != nil || !reflect.DeepEqual(f.ChangeLog(), want) {
		t.Fatalf("second replay: %v\n%v\nwant\n%v", err, logRows(f.ChangeLog()), logRows(want))
	}
}

// readLog reads a change log file as CSV records (header first).
func readLog(t *testing.T, path string) [][]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = 6
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
	return recs
}

// rowsOf returns records without their when field.
func rowsOf(recs [][]string) []string {
	var out []string
	for _, r := range recs {
		out = append(out, strings.Join(r[:4], ","))
	}
	return out
}

// Saves append their changes to <labels>.changes.csv; the session's log keeps one numbering
// (the files as opened) across a save that drops deleted samples; a crash after a save loses
// nothing from the file.
func TestChangesFileAcrossSavesAndACrash(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 12) // labels k mod 10
	cp := lp + ChangesSuffix
	d, _ := Open(ip, lp, Options{})
	px := make([]byte, 16)
	d.Relabel([]int{3}, 8)
	d.Delete([]int{1, 2})
	d.AppendAs(HowAddedDrawn, []Sample{{Pixels: px, Label: 6}})
	d.Relabel([]int{9}, 0)
	d.Undo() // not in effect: not in the file
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	if err := d.ChangesFileError(); err != nil {
		t.Fatal(err)
	}
	first := []string{"index,original,new,how", "3,3,8,manual", "1,1,,deleted", "2,2,,deleted", "12,,6,added-drawn"}
	recs := readLog(t, cp)
	if got := rowsOf(recs); !reflect.DeepEqual(got, first) {
		t.Fatalf("after the first save:\n%v", got)
	}
	// Each row's time is its edit's (TestChangeLogListsTheEditsInEffect checks those), to the second.
	log := d.ChangeLog()
	if len(log) != len(recs)-1 {
		t.Fatalf("session log of %d entries, file of %d rows", len(log), len(recs)-1)
	}
	for k, e := range log {
		if want := e.When.UTC().Format(time.RFC3339); e.When.IsZero() || recs[k+1][4] != want {
			t.Fatalf("row %d: when %q, want %q, the edit's", k+1, recs[k+1][4], want)
		}
	}
	// The files now hold 11 samples: old 3 is sample 1, the drawn one is sample 10. The log
	// still numbers them 3 and 12; a sample drawn now is the 13th of the session.
	if d.Len() != 11 || d.Label(1) != 8 || d.Label(10) != 6 {
		t.Fatalf("after the save: %d samples, labels %d %d", d.Len(), d.Label(1), d.Label(10))
	}
	d.Relabel([]int{1}, 2)  // session 3
	d.Relabel([]int{10}, 7) // session 12
	d.AppendAs(HowAddedDrawn, []Sample{{Pixels: px, Label: 1}})
	d.Delete([]int{2}) // session 4
	second := []string{"3,8,2,manual", "12,6,7,manual", "13,,1,added-drawn", "4,4,,deleted"}
	if got := logRows(d.ChangeLog()); !reflect.DeepEqual(got, append(first[1:], second...)) {
		t.Fatalf("session log:\n%v", got)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	if got := rowsOf(readLog(t, cp)); !reflect.DeepEqual(got, append(first, second...)) {
		t.Fatalf("after the second save:\n%v", got)
	}
	// Two saves later, the numbering is still the session's: the files' sample 2 was its 5th,
	// and a sample drawn now is its 14th (12 and 13 were drawn before).
	d.Relabel([]int{2}, 0)
	d.AppendAs(HowAddedDrawn, []Sample{{Pixels: px, Label: 1}})
	d.Relabel([]int{0}, 3)
	third := []string{"5,5,0,manual", "14,,1,added-drawn", "0,0,3,manual"}
	if got := logRows(d.ChangeLog()); !reflect.DeepEqual(got, slices.Concat(first[1:], second, third)) {
		t.Fatalf("session log after two saves:\n%v", got)
	}
	// A crash with unsaved edits: the reopened files are a new session, numbered as they are.
	d.Close()
	e, _ := Open(ip, lp, Options{})
	defer e.Close()
	if _, err := e.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	replayed := []string{"2,5,0,manual", "11,,1,added-drawn", "0,0,3,manual"}
	if got := logRows(e.ChangeLog()); !reflect.DeepEqual(got, replayed) {
		t.Fatalf("after the crash: %v", got)
	}
	if err := e.Save(nil); err != nil || e.ChangesFileError() != nil {
		t.Fatal(err, e.ChangesFileError())
	}
	if got := rowsOf(readLog(t, cp)); !reflect.DeepEqual(got, slices.Concat(first, second, replayed)) {
		t.Fatalf("after the crash and a save:\n%v", got)
	}
	// A save with no change appends nothing.
	before := mustRead(t, cp)
	e.Relabel([]int{5}, 1)
	e.Undo()
	if err := e.Save(nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mustRead(t, cp), before) {
		t.Fatal("a save of no change appended to the change log")
	}
}

// Save As writes the session's whole log beside the new files; turning the change log off
// writes none, and the entries held back are written once it is on again.
func TestChangesFileSaveAsAndOff(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	ip, lp := tinyPair(t, dir, 12)
	d, _ := Open(ip, lp, Options{})
	defer d.Close()
	d.SetWriteChanges(false)
	d.Relabel([]int{0}, 9)
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(lp + ChangesSuffix); !os.IsNotExist(err) {
		t.Fatalf("the change log was written while off: %v", err)
	}
	d.SetWriteChanges(true)
	d.Relabel([]int{1}, 9)
	ip2, lp2 := filepath.Join(dir, "b-images-idx3-ubyte"), filepath.Join(dir, "b-labels-idx1-ubyte.gz")
	if err := saveAs(d, ip2, lp2, nil); err != nil {
		t.Fatal(err)
	}
	want := []string{"index,original,new,how", "0,0,9,manual", "1,1,9,manual"}
	if got := rowsOf(readLog(t, lp2+ChangesSuffix)); !reflect.DeepEqual(got, want) {
		t.Fatalf("beside the new files: %v", got)
	}
	if _, err := os.Lstat(lp + ChangesSuffix); !os.IsNotExist(err) {
		t.Fatal("the old files got a change log they were not saved with")
	}
}

// Saving back to files this session appended to before, after a Save As elsewhere, appends only
// the changes they have not had: each change once in each file (Save to A, Save As B, Save As A
// appended every change to A a second time).
func TestChangesFileSaveAsBackAppendsEachChangeOnce(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	ip, lp := tinyPair(t, dir, 12)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	mustDo(t, d.Relabel([]int{1}, 7))
	mustDo(t, d.Save(nil))
	ip2, lp2 := filepath.Join(dir, "b-images-idx3-ubyte"), filepath.Join(dir, "b-labels-idx1-ubyte")
	mustDo(t, saveAs(d, ip2, lp2, nil))
	mustDo(t, saveAs(d, ip, lp, nil))
	want := []string{"index,original,new,how", "1,1,7,manual"}
	if got := rowsOf(readLog(t, lp+ChangesSuffix)); !reflect.DeepEqual(got, want) {
		t.Fatalf("A after A, B, A: %v, want %v", got, want)
	}
	// A change made while on A reaches B when the session saves back to B, and A once.
	mustDo(t, d.Relabel([]int{2}, 8))
	mustDo(t, d.Save(nil))
	mustDo(t, saveAs(d, ip2, lp2, nil))
	want = append(want, "2,2,8,manual")
	for _, p := range []string{lp, lp2} {
		if got := rowsOf(readLog(t, p+ChangesSuffix)); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %v, want %v", p+ChangesSuffix, got, want)
		}
	}
}

// A change log whose creation was cut short (power lost after part of its header reached the
// disk) is started over, not refused forever as "not a change log": a file that is a strict
// prefix of the header holds nothing of anyone's.
func TestChangesFileTornHeaderIsRewritten(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, torn := range []string{ChangeLogHeader[:1], ChangeLogHeader[:9], ChangeLogHeader[:len(ChangeLogHeader)-1]} {
		ip, lp := tinyPair(t, t.TempDir(), 12)
		if err := os.WriteFile(lp+ChangesSuffix, []byte(torn), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		mustDo(t, d.Relabel([]int{1}, 7))
		mustDo(t, d.Save(nil))
		if err := d.ChangesFileError(); err != nil {
			t.Fatalf("torn header %q: %v", torn, err)
		}
		d.Close()
		if got := rowsOf(readLog(t, lp+ChangesSuffix)); !reflect.DeepEqual(got, []string{"index,original,new,how", "1,1,7,manual"}) {
			t.Fatalf("torn header %q: %v", torn, got)
		}
	}
}

// What is at <labels>.changes.csv is untrusted: a symbolic link (to a file outside the folder),
// a folder, a file with another name elsewhere (hard link), or a file that is not a change log
// is never written; the save itself succeeds and says why; once the obstacle is gone, the next
// save appends what was held back.
func TestChangesFileRefusesWhatIsNotItsOwn(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	outside, _ := outsideFiles(t, dir)
	// A file elsewhere that looks like a change log: only the link checks keep it unwritten.
	os.WriteFile(outside, []byte(ChangeLogHeader+"\n"), 0o644)
	cases := map[string]func(cp string){
		"symlink":  func(cp string) { os.Symlink(outside, cp) },
		"dangling": func(cp string) { os.Symlink(filepath.Join(dir, "outside", "new.txt"), cp) },
		"folder":   func(cp string) { os.Mkdir(cp, 0o755) },
		"hardlink": func(cp string) { os.Link(outside, cp) },
		"other":    func(cp string) { os.WriteFile(cp, []byte("name,score\nann,3\n"), 0o644) },
	}
	if mkfifo(filepath.Join(t.TempDir(), "probe")) == nil { // named pipes exist on this system
		cases["fifo"] = func(cp string) { mkfifo(cp) }
	}
	for name, plant := range cases {
		t.Run(name, func(t *testing.T) {
			ip, lp := tinyPair(t, t.TempDir(), 12)
			cp := lp + ChangesSuffix
			plant(cp)
			before, _ := os.Lstat(cp)
			var content []byte
			if before != nil && before.Mode().IsRegular() {
				content = mustRead(t, cp)
			}
			d, _ := Open(ip, lp, Options{})
			defer d.Close()
			d.Relabel([]int{0}, 9)
			if err := d.Save(nil); err != nil {
				t.Fatalf("the save failed: %v", err)
			}
			if d.Label(0) != 9 || d.Dirty() {
				t.Fatal("the save was not made")
			}
			err := d.ChangesFileError()
			if err == nil || !strings.Contains(err.Error(), cp) {
				t.Fatalf("no error naming %s: %v", cp, err)
			}
			assertContent(t, outside, ChangeLogHeader+"\n")
			if _, err := os.Stat(filepath.Join(dir, "outside", "new.txt")); !os.IsNotExist(err) {
				t.Fatal("a file was created through a dangling link")
			}
			after, _ := os.Lstat(cp)
			if after.Mode() != before.Mode() || content != nil && !bytes.Equal(mustRead(t, cp), content) {
				t.Fatalf("%s changed: %v → %v", cp, before.Mode(), after.Mode())
			}
			// The obstacle goes; the next save appends the held-back entry and its own.
			os.Remove(cp)
			d.Relabel([]int{1}, 9)
			if err := d.Save(nil); err != nil || d.ChangesFileError() != nil {
				t.Fatal(err, d.ChangesFileError())
			}
			if got := rowsOf(readLog(t, cp)); !reflect.DeepEqual(got, []string{"index,original,new,how", "0,0,9,manual", "1,1,9,manual"}) {
				t.Fatalf("after the obstacle went: %v", got)
			}
		})
	}
}

func TestChangeLogCSVFormat(t *testing.T) {
	at := time.Date(2026, 3, 1, 14, 5, 9, 500e6, time.FixedZone("CET", 3600))
	entries := []ChangeLogEntry{
		{Index: 7, Original: 3, New: 5, How: HowSuspectAccepted, When: at},
		{Index: 10000, Original: sample.NoLabel, New: 11, How: HowAddedImported, When: at, Source: "3/a, b.png"},
		{Index: 2, Original: -4, New: sample.NoLabel, How: HowDeleted},
		{Index: 3, Original: 1, New: 2, How: HowUnknown},
	}
	var b bytes.Buffer
	if err := WriteChangeLog(&b, entries, true); err != nil {
		t.Fatal(err)
	}
	want := "index,original,new,how,when,source\n" +
		"7,3,5,suspect-accepted,2026-03-01T13:05:09Z,\n" +
		"10000,,11,added-imported,2026-03-01T13:05:09Z,\"3/a, b.png\"\n" +
		"2,-4,,deleted,,\n" +
		"3,1,2,,,\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	// Appending after a torn last line starts a line of its own; the header is not repeated. A
	// change log an idxlabel before sources wrote goes on without the source column.
	p := filepath.Join(t.TempDir(), "x.changes.csv")
	os.WriteFile(p, []byte("index,original,new,how,when\n1,2,3,manual,2026-03-01T13:05:09Z\n4,5"), 0o644)
	if err := appendChangeLog(p, entries[:1]); err != nil {
		t.Fatal(err)
	}
	assertContent(t, p, "index,original,new,how,when\n1,2,3,manual,2026-03-01T13:05:09Z\n4,5\n7,3,5,suspect-accepted,2026-03-01T13:05:09Z\n")
	for _, h := range []How{HowManual, HowBatch, HowSuspectAccepted, HowSuggestedAccepted, HowAddedDrawn, HowAddedImported, HowDeleted} {
		if h.String() == "" || strings.ContainsAny(h.String(), ", \"") {
			t.Fatalf("how %d is %q", h, h)
		}
	}
}

func TestExportChangeLog(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 12)
	d, _ := Open(ip, lp, Options{})
	defer d.Close()
	d.Relabel([]int{4, 5}, 0)
	for _, own := range []string{ip, lp, lp + ChangesSuffix, filepath.Join(filepath.Dir(lp), ".", filepath.Base(lp))} {
		if _, err := d.ExportChangeLog(own); err == nil {
			t.Fatalf("exported over %s", own)
		}
	}
	out := filepath.Join(t.TempDir(), "log.csv")
	os.WriteFile(out, []byte("older content\n"), 0o644)
	n, err := d.ExportChangeLog(out)
	if err != nil || n != 2 {
		t.Fatalf("exported %d: %v", n, err)
	}
	if got := rowsOf(readLog(t, out)); !reflect.DeepEqual(got, []string{"index,original,new,how", "4,4,0,batch", "5,5,0,batch"}) {
		t.Fatalf("exported %v", got)
	}
}

// downgrade returns a journal of this version without a history record as version 1 (what
// idxlabel wrote before the change log): the old magic, no pair record, no provenance in the
// edit records, no time in the undo and redo records.
func downgrade(t testing.TB, b []byte) []byte {
	t.Helper()
	out := []byte(journal.MagicV1)
	b = b[len(journal.Magic):]
	b = b[8+binary.LittleEndian.Uint32(b):] // the pair record
	for first := true; len(b) >= 8; first = false {
		n := int(binary.LittleEndian.Uint32(b))
		p := b[8 : 8+n]
		b = b[8+n:]
		switch {
		case first:
		case p[0] == recUndo || p[0] == recRedo:
			p = p[:1]
		default:
			p = slices.Concat(p[:1], p[1+provenanceSize:])
		}
		out = append(out, journal.Frame(p)...)
	}
	return out
}

// A journal an older idxlabel wrote (version 1) still replays: its edits are logged without how
// (but a deletion is deleted) or time, and the journal is rewritten in this version so that later
// edits are journaled with theirs, and all of it replays again after another crash.
func TestVersion1JournalReplays(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 12)
	jp := lp + pairfile.JournalSuffix
	d, _ := Open(ip, lp, Options{})
	d.Relabel([]int{0, 1}, 9)
	d.AppendAs(HowAddedDrawn, []Sample{{Pixels: make([]byte, 16), Label: 4}})
	d.Delete([]int{2})
	d.DecideAs(HowSuspectAccepted, 3, 0)
	d.Undo()
	d.Redo()
	want := d.ChangeLog()
	wantState := snap(d)
	d.Close()
	os.WriteFile(jp, downgrade(t, mustRead(t, jp)), 0o644)

	e, _ := Open(ip, lp, Options{})
	if rec := e.Recovery(); rec == nil || !rec.Matches || rec.Edits != 6 {
		t.Fatalf("recovery of a version 1 journal: %+v", rec)
	}
	if n, err := e.ReplayJournal(); err != nil || n != 6 {
		t.Fatalf("replayed %d: %v", n, err)
	}
	if !equalSnap(snap(e), wantState) {
		t.Fatal("a version 1 journal replayed to another state")
	}
	got := e.ChangeLog()
	if !reflect.DeepEqual(logRows(got), []string{"0,0,9,", "1,1,9,", "12,,4,", "2,2,,deleted", "3,3,0,"}) || len(got) != len(want) {
		t.Fatalf("log of a version 1 journal: %v", logRows(got))
	}
	for _, g := range got {
		if !g.When.IsZero() || g.How != HowUnknown && g.How != HowDeleted { // a deletion is a deletion
			t.Fatalf("an entry of a version 1 journal has how %q, time %v", g.How, g.When)
		}
	}
	if b := mustRead(t, jp); string(b[:len(journal.Magic)]) != journal.Magic {
		t.Fatalf("the journal was not rewritten in this version: %q", b[:8])
	}
	e.Relabel([]int{5}, 0)
	want = e.ChangeLog()
	e.Close()
	f, _ := Open(ip, lp, Options{})
	defer f.Close()
	if _, err := f.ReplayJournal(); err != nil || !reflect.DeepEqual(f.ChangeLog(), want) {
		t.Fatalf("replay after the rewrite: %v\n%v", err, logRows(f.ChangeLog()))
	}
	if last := f.ChangeLog()[len(want)-1]; last.How != HowManual || last.When.IsZero() {
		t.Fatalf("the edit after the rewrite lost its provenance: %+v", last)
	}
}

// A CRC-valid record whose how does not fit its edit (a relabel "added-drawn", a how beyond
// the list) is not replayed.
func TestReplayRefusesAHowOfAnotherKind(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, how := range []How{HowAddedDrawn, HowDeleted, howRestore, howCount, 255} {
		ip, lp := tinyPair(t, t.TempDir(), 12)
		d, _ := Open(ip, lp, Options{})
		d.Relabel([]int{0}, 5)
		d.journal.Append((&relabel{provenance: provenance{how: how}, idx: []int32{1}, to: []int32{7}}).record())
		d.Close()
		e, _ := Open(ip, lp, Options{})
		applied, err := e.ReplayJournal()
		if err == nil || applied != 1 || e.Label(1) != 1 {
			t.Fatalf("a relabel with how %d: applied %d, label %d, %v", how, applied, e.Label(1), err)
		}
		e.Close()
	}
}

// BenchmarkChangeLog lists the change log of a session on 60,000 samples with every label
// changed in one batch, then 1,000 single relabels, and writes it as CSV.
func BenchmarkChangeLog(b *testing.B) {
	b.Setenv("XDG_CONFIG_HOME", b.TempDir())
	ip, lp := writeTestPair(b, 60000, 2, 2)
	d, _ := Open(ip, lp, Options{})
	defer d.Close()
	all := make([]int, 60000)
	for i := range all {
		all[i] = i
	}
	d.Relabel(all, 3)
	for i := range 1000 {
		d.Relabel([]int{i * 60}, 4)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := WriteChangeLog(io.Discard, d.ChangeLog(), true); err != nil {
			b.Fatal(err)
		}
	}
}

// The undo history outlives a save (carry.go). Undoing an edit the files hold is a change of
// the files: the next save logs it (a relabel undone, an addition deleted), while the session's
// log, which counts from the files as opened, just loses the edit. A redo puts the edit back
// with the time it was made. An edit made before a crash and reopened with its history is held
// by the files too.
func TestUndoAfterSaveIsLogged(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 12) // labels k mod 10
	cp := lp + ChangesSuffix
	d, _ := Open(ip, lp, Options{})
	d.Relabel([]int{3}, 8)
	d.AppendAs(HowAddedDrawn, []Sample{{Pixels: make([]byte, 16), Label: 6}})
	made := d.ChangeLog()
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	d.Undo() // the drawn sample: marked deleted
	d.Undo() // sample 3 back to 3
	if got := d.ChangeLog(); len(got) != 0 {
		t.Fatalf("the session's log after undoing everything: %v", logRows(got))
	}
	if err := d.Save(nil); err != nil || d.Len() != 12 {
		t.Fatal(err, d.Len())
	}
	recs := readLog(t, cp)
	want := []string{"index,original,new,how", "3,3,8,manual", "12,,6,added-drawn", "12,6,,deleted", "3,8,3,undone"}
	if got := rowsOf(recs); !reflect.DeepEqual(got, want) {
		t.Fatalf("after undoing saved edits:\n%v", got)
	}
	for _, r := range recs[3:] {
		if when, err := time.Parse(time.RFC3339, r[4]); err != nil || when.Before(made[1].When.Truncate(time.Second)) {
			t.Fatalf("an undo logged at %q (%v), before the edit it undid", r[4], err)
		}
	}
	// Redo: the relabel is back, with the time it was first made.
	if name, ok, _ := d.Redo(); !ok || name != "Relabel sample 3 as 8" {
		t.Fatalf("redo %q %v", name, ok)
	}
	if got := d.ChangeLog(); len(got) != 1 || got[0] != made[0] {
		t.Fatalf("after the redo: %v, want %v", got, made[0])
	}
	d.Relabel([]int{5}, 0)
	// A crash: the journal starts with the history the second save carried (the relabel of 3 on
	// its redo stack, with its provenance), then the redo and the relabel of 5.
	d.Close()
	e, _ := Open(ip, lp, Options{})
	if _, err := e.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if got := e.ChangeLog(); !reflect.DeepEqual(logRows(got), []string{"3,3,8,manual", "5,5,0,manual"}) || got[0] != made[0] {
		t.Fatalf("after the crash: %v", got)
	}
	if err := e.Save(nil); err != nil {
		t.Fatal(err)
	}
	e.Relabel([]int{7}, 1)
	// Another crash: now both relabels are in the files, on the carried undo stack.
	e.Close()
	f, _ := Open(ip, lp, Options{})
	defer f.Close()
	if _, err := f.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if got := logRows(f.ChangeLog()); !reflect.DeepEqual(got, []string{"7,7,1,manual"}) {
		t.Fatalf("after the second crash: %v", got)
	}
	for range 3 {
		if _, ok, err := f.Undo(); !ok || err != nil {
			t.Fatal("undo", err)
		}
	}
	if got := logRows(f.ChangeLog()); !reflect.DeepEqual(got, []string{"5,0,5,undone", "3,8,3,undone"}) {
		t.Fatalf("after undoing what the reopened files hold: %v", got)
	}
	checkLogExplains(t, f)
	if err := f.Save(nil); err != nil {
		t.Fatal(err)
	}
	want = append(want, "3,3,8,manual", "5,5,0,manual", "5,0,5,undone", "3,8,3,undone")
	if got := rowsOf(readLog(t, cp)); !reflect.DeepEqual(got, want) {
		t.Fatalf("the change log after two crashes:\n%v", got)
	}
}

// changesFile follows the change log file beside a pair through one session: the rows the
// session's saves append, applied in order to the labels of the files as the session opened
// them, give the labels of the files each save wrote.
type changesFile struct {
	path   string
	skip   int         // rows written before the session (header included)
	labels map[int]int // by session number: the labels the rows give so far
}

// followChanges starts following the change log of d's files; d has just been opened.
func followChanges(t *testing.T, d *Dataset) *changesFile {
	t.Helper()
	_, lp := d.Paths()
	c := &changesFile{path: lp + ChangesSuffix, labels: map[int]int{}}
	if _, err := os.Stat(c.path); err == nil {
		c.skip = len(readLog(t, c.path))
	}
	for i := range d.Len() {
		c.labels[i] = d.Label(i)
	}
	return c
}

// saved checks the rows appended since the last check against the files d has just saved.
func (c *changesFile) saved(t *testing.T, d *Dataset, where string) {
	t.Helper()
	var rows [][]string
	if _, err := os.Stat(c.path); err == nil {
		rows = readLog(t, c.path)
	}
	if c.skip == 0 && len(rows) > 0 {
		c.skip = 1 // the header
	}
	for _, r := range rows[min(c.skip, len(rows)):] {
		i, _ := strconv.Atoi(r[0])
		from, to := sample.NoLabel, sample.NoLabel
		if r[1] != "" {
			from, _ = strconv.Atoi(r[1])
		}
		if r[2] != "" {
			to, _ = strconv.Atoi(r[2])
		}
		l, ok := c.labels[i]
		switch {
		case from == sample.NoLabel && !ok, from != sample.NoLabel && ok && l == from:
		default:
			t.Fatalf("%s: row %v, but sample %d is %d (%v)", where, r, i, l, ok)
		}
		if to == sample.NoLabel {
			delete(c.labels, i)
		} else {
			c.labels[i] = to
		}
	}
	c.skip = len(rows)
	if d.Dirty() {
		t.Fatalf("%s: dirty after a save", where)
	}
	d.mu.RLock()
	defer d.mu.RUnlock()
	if len(c.labels) != len(d.labels) {
		t.Fatalf("%s: the rows give %d samples, the files hold %d", where, len(c.labels), len(d.labels))
	}
	for i, l := range d.labels {
		if s := d.log.sessionIndex(&d.model, i); c.labels[s] != int(l) {
			t.Fatalf("%s: the rows give sample %d (session %d) label %d, the files %d", where, i, s, c.labels[s], l)
		}
	}
}
