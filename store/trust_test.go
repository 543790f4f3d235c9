package store

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
)

// tinyPair writes a generated pair of n 4×4 ubyte samples (labels k mod 10) into dir/pair and
// returns the two paths. It needs no real data.
func tinyPair(t testing.TB, dir string, n int) (string, string) {
	t.Helper()
	folder := filepath.Join(dir, "pair")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	images, _ := idx.New(idx.UByte, n, 4, 4)
	labels, _ := idx.New(idx.UByte, n)
	for k := range n {
		images.Data[k*16+k%16] = 255
		labels.Data[k] = byte(k % 10)
	}
	ip, lp := filepath.Join(folder, "tiny-images-idx3-ubyte"), filepath.Join(folder, "tiny-labels-idx1-ubyte")
	if err := idx.WriteFile(ip, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// outsideFiles makes dir/outside/A.txt and B.txt, the files a planted record aims at.
func outsideFiles(t *testing.T, dir string) (string, string) {
	t.Helper()
	out := filepath.Join(dir, "outside")
	os.MkdirAll(out, 0o755)
	a, b := filepath.Join(out, "A.txt"), filepath.Join(out, "B.txt")
	os.WriteFile(a, []byte("A stays"), 0o644)
	os.WriteFile(b, []byte("B stays"), 0o644)
	return a, b
}

func assertContent(t *testing.T, path, want string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != want {
		t.Fatalf("%s: %q, %v; want %q", path, b, err, want)
	}
}

// A save record planted beside a pair (shared in a zip, a repo) must not make Open write,
// rename or delete anything outside the pair's files, whatever paths it holds.
func TestPlantedManifestStaysInFolder(t *testing.T) {
	cases := map[string]func(dir, ip, lp, a, b string) string{
		"version 1, relative": func(dir, ip, lp, a, b string) string {
			return `{"files":[{"temp":"` + filepath.Base(ip) + `","target":"../outside/A.txt","backup":""}],"journals":["../outside/B.txt"]}`
		},
		"version 1, absolute": func(dir, ip, lp, a, b string) string {
			j, _ := json.Marshal(map[string]any{"files": []map[string]string{{"temp": ip, "target": a}}, "journals": []string{b}})
			return string(j)
		},
		"version 2, target outside": func(dir, ip, lp, a, b string) string {
			return `{"version":2,"files":[{"target":"../outside/A.txt","temp":".A.txt.idxlabel-tmp-1","backup":true}]}`
		},
		"version 2, absolute target": func(dir, ip, lp, a, b string) string {
			j, _ := json.Marshal(map[string]any{"version": 2, "files": []map[string]any{{"target": a, "temp": ".A.txt.idxlabel-tmp-1"}}})
			return string(j)
		},
		"version 2, temp outside": func(dir, ip, lp, a, b string) string {
			return `{"version":2,"files":[{"target":"` + filepath.Base(lp) + `","temp":"../outside/B.txt"}]}`
		},
		"version 2, temp not ours": func(dir, ip, lp, a, b string) string {
			return `{"version":2,"files":[{"target":"` + filepath.Base(lp) + `","temp":"` + filepath.Base(ip) + `"}]}`
		},
		"version 2, symlinked temp": func(dir, ip, lp, a, b string) string {
			temp := filepath.Join(filepath.Dir(lp), "."+filepath.Base(lp)+".idxlabel-tmp-7")
			os.Symlink(a, temp)
			return `{"version":2,"files":[{"target":"` + filepath.Base(lp) + `","temp":"` + filepath.Base(temp) + `"}]}`
		},
		"version 2, journal of a file it does not save": func(dir, ip, lp, a, b string) string {
			return `{"version":2,"files":[{"target":"` + filepath.Base(lp) + `","temp":".` + filepath.Base(lp) + `.idxlabel-tmp-3"}],"journals":["../outside/B.txt"]}`
		},
		"empty":   func(dir, ip, lp, a, b string) string { return "" },
		"damaged": func(dir, ip, lp, a, b string) string { return `{"version":2,"files":[{"tar` },
	}
	for name, planted := range cases {
		t.Run(name, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", t.TempDir())
			dir := t.TempDir()
			ip, lp := tinyPair(t, dir, 12)
			a, b := outsideFiles(t, dir)
			before := mustRead(t, ip)
			mp := lp + pairfile.ManifestSuffix
			os.WriteFile(mp, []byte(planted(dir, ip, lp, a, b)), 0o644)
			d, err := Open(ip, lp, Options{})
			if err != nil {
				t.Fatalf("a planted record blocked opening: %v", err)
			}
			defer d.Close()
			assertContent(t, a, "A stays")
			assertContent(t, b, "B stays")
			if string(mustRead(t, ip)) != string(before) || d.Len() != 12 {
				t.Fatal("the pair's files changed")
			}
			if _, err := os.Stat(mp); !os.IsNotExist(err) {
				t.Fatal("the refused record was left in place")
			}
			matches(t, mp+".*.refused") // kept aside, exactly once
			notes := strings.Join(d.Notices(), " ")
			if !strings.Contains(notes, "was not used") {
				t.Fatalf("no notice of the refused record: %q", notes)
			}
		})
	}
}

// interruptedSave leaves the pair as a save cut off between its two renames: a 13-sample
// version written to temporary files, the record written, and only the images renamed. It
// returns the new images and labels as they should end up.
func interruptedSave(t *testing.T, ip, lp string) (*idx.Array, *idx.Array) {
	t.Helper()
	images, _ := idx.New(idx.UByte, 13, 4, 4)
	labels, _ := idx.New(idx.UByte, 13)
	for k := range 13 {
		images.Data[k*16] = byte(k + 1)
		labels.Data[k] = byte((k + 3) % 10)
	}
	writeCutBetweenRenames(t, ip, lp, images, labels)
	temps, _ := filepath.Glob(atomicfile.TempPrefix(pairfile.Abs(lp)) + "*")
	if len(temps) != 1 {
		t.Fatalf("the labels' temporary files: %v", temps)
	}
	// Old enough that a sweep by age would take them.
	old := time.Now().Add(-2 * time.Hour)
	os.Chtimes(temps[0], old, old)
	return images, labels
}

// A save cut off between its renames is finished when the pair is reopened from another
// working directory, by absolute or relative path: the record names files relative to its own
// folder, and the temporary file it names is not swept as stale.
func TestInterruptedSaveFinishedFromAnotherFolder(t *testing.T) {
	for _, how := range []string{"absolute", "relative"} {
		t.Run(how, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", t.TempDir())
			dir := t.TempDir()
			ip, lp := tinyPair(t, dir, 12)
			// The save is made from inside the pair's folder, with relative names.
			t.Chdir(filepath.Dir(ip))
			images, labels := interruptedSave(t, filepath.Base(ip), filepath.Base(lp))
			elsewhere := t.TempDir()
			t.Chdir(elsewhere)
			oi, ol := ip, lp
			if how == "relative" {
				oi, _ = filepath.Rel(elsewhere, ip)
				ol, _ = filepath.Rel(elsewhere, lp)
			}
			d, err := Open(oi, ol, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if d.Len() != 13 || d.Label(12) != int(labels.Data[12]) || d.Pixels(12)[0] != images.Data[12*16] {
				t.Fatalf("the save was not finished: %d samples", d.Len())
			}
			if !strings.Contains(strings.Join(d.Notices(), " "), "interrupted") {
				t.Fatal("no notice of the finished save")
			}
			left, _ := filepath.Glob(filepath.Join(filepath.Dir(lp), ".*"))
			if len(left) != 0 {
				t.Fatalf("leftovers: %v", left)
			}
		})
	}
}

// dirState lists every file under dir with its size and modification time.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			out[p] = fi.ModTime().String() + " " + fi.Mode().String() + " " + string(rune(fi.Size()))
		}
		return nil
	})
	return out
}

// Opening read-only (the command line's info, verify, suspects) changes nothing on disk: an
// interrupted save is shown as saved but not finished, stale temporary files and journals stay,
// and edits and saves are refused.
func TestReadOnlyOpenWritesNothing(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	ip, lp := tinyPair(t, dir, 12)
	_, labels := interruptedSave(t, ip, lp)
	stale := filepath.Join(filepath.Dir(ip), "."+filepath.Base(ip)+".idxlabel-tmp-99")
	os.WriteFile(stale, []byte("old"), 0o644)
	old := time.Now().Add(-3 * time.Hour)
	os.Chtimes(stale, old, old)
	os.WriteFile(lp+pairfile.JournalSuffix, nil, 0o644) // an empty journal, which an editing Open removes
	before := dirState(t, dir)

	d, err := Open(ip, lp, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 13 || d.Label(12) != int(labels.Data[12]) {
		t.Fatalf("the interrupted save is not shown as saved: %d samples", d.Len())
	}
	if err := d.Relabel([]int{0}, 1); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("edit on a read-only dataset: %v", err)
	}
	if err := d.Save(nil); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("save of a read-only dataset: %v", err)
	}
	d.Close()
	after := dirState(t, dir)
	if len(before) != len(after) {
		t.Fatalf("files changed: %d before, %d after", len(before), len(after))
	}
	for p, s := range before {
		if after[p] != s {
			t.Fatalf("%s changed", p)
		}
	}
}

// A journal that is a symbolic link (planted, pointing outside the folder) is never written
// through: the first edit does not create the file it points to.
func TestJournalSymlinkNotFollowed(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	ip, lp := tinyPair(t, dir, 12)
	target := filepath.Join(dir, "outside", "created-by-idxlabel")
	os.MkdirAll(filepath.Dir(target), 0o755)
	if err := os.Symlink(target, lp+pairfile.JournalSuffix); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Recovery() != nil {
		t.Fatal("a symbolic link was offered as a journal")
	}
	d.Relabel([]int{0}, 7)
	d.Close()
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatal("the edit wrote through the journal's symbolic link")
	}
	if fi, err := os.Lstat(lp + pairfile.JournalSuffix); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link itself was replaced or removed")
	}
	if _, err := journal.Reopen(lp+pairfile.JournalSuffix, 0); !errors.Is(err, journal.ErrNotRegular) {
		t.Fatalf("journal.Reopen on a link: %v", err)
	}
}

// fullDisk is a journal file whose writes stop half-way with ENOSPC while full is set, and whose
// truncations fail while stuck is set.
type fullDisk struct {
	journal.File
	full, stuck bool
}

func (f *fullDisk) Truncate(size int64) error {
	if f.stuck {
		return &os.PathError{Op: "truncate", Path: "journal", Err: syscall.EIO}
	}
	return f.File.Truncate(size)
}

func (f *fullDisk) Write(p []byte) (int, error) {
	if f.full {
		n, _ := f.File.Write(p[:len(p)/2])
		return n, &os.PathError{Op: "write", Path: "journal", Err: syscall.ENOSPC}
	}
	return f.File.Write(p)
}

// An edit whose journal record cannot be written is refused and not shown: the dataset keeps
// its state, the torn record is cut off, and edits work again when space returns; every edit
// reported done replays.
func TestFullDiskLosesNothing(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 12)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Relabel([]int{0}, 5); err != nil {
		t.Fatal(err)
	}
	fd := &fullDisk{full: true}
	d.journal.WrapFile(func(f journal.File) journal.File { fd.File = f; return fd })
	err = d.Relabel([]int{1}, 6)
	if !errors.Is(err, ErrJournalWrite) || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("edit on a full disk: %v", err)
	}
	if d.Label(1) != 1 || d.UndoName() != "Relabel sample 0 as 5" {
		t.Fatalf("the refused edit was applied: label %d, undo %q", d.Label(1), d.UndoName())
	}
	fd.full = false
	if err := d.Relabel([]int{2}, 8); err != nil {
		t.Fatalf("edit after space returned: %v", err)
	}
	d.Close()
	e, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rec := e.Recovery()
	if rec == nil || rec.Edits != 2 || rec.Damaged != 0 {
		t.Fatalf("recovery %+v", rec)
	}
	if _, err := e.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if e.Label(0) != 5 || e.Label(1) != 1 || e.Label(2) != 8 {
		t.Fatalf("replayed labels %d %d %d", e.Label(0), e.Label(1), e.Label(2))
	}
}

// With edits in the per-user fallback journal (the pair's folder was full or read-only) and an
// empty file left where the primary journal goes, reopening offers the fallback's edits; the
// empty primary is not taken for a journal and the fallback is never truncated.
func TestRecoveryFindsFallbackBehindEmptyPrimary(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 12)
	os.Mkdir(lp+pairfile.JournalSuffix, 0o755)
	d, _ := Open(ip, lp, Options{})
	d.Relabel([]int{0}, 5)
	d.Relabel([]int{1}, 4)
	fb := journalPath(d)
	d.Close()
	os.Remove(lp + pairfile.JournalSuffix)
	os.WriteFile(lp+pairfile.JournalSuffix, nil, 0o644) // what a full disk left behind

	e, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := e.Recovery()
	if rec == nil || rec.Path != fb || rec.Edits != 2 {
		t.Fatalf("recovery %+v, want the fallback %s", rec, fb)
	}
	if _, err := e.ReplayJournal(); err != nil || e.Label(1) != 4 {
		t.Fatalf("replay: %v, label %d", err, e.Label(1))
	}
	e.Close()
}

// A CRC-valid journal record with a label the label dtype cannot hold (300 in ubyte) is not
// replayed (it would have been saved as 300 mod 256 = 44); the journal is kept whole.
func TestReplayRefusesLabelOutsideDtype(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 12)
	d, _ := Open(ip, lp, Options{})
	d.Relabel([]int{0}, 5)
	d.journal.Append((&relabel{idx: []int32{1}, to: []int32{300}}).record())
	d.Close()
	e, _ := Open(ip, lp, Options{})
	defer e.Close()
	applied, err := e.ReplayJournal()
	if err == nil || !strings.Contains(err.Error(), lp+pairfile.JournalSuffix) || !strings.Contains(err.Error(), "300") {
		t.Fatalf("replay of label 300 in ubyte: %v", err)
	}
	if applied != 1 || e.Label(0) != 5 || e.Label(1) != 1 {
		t.Fatalf("applied %d, labels %d %d", applied, e.Label(0), e.Label(1))
	}
	matches(t, lp+pairfile.JournalSuffix+".*.unreplayed") // the whole journal, kept
}

// Edits that cancel out (an edit and its undo) leave nothing to recover: no offer.
func TestNoRecoveryOfferForEditsThatCancelOut(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 12)
	d, _ := Open(ip, lp, Options{})
	d.Relabel([]int{0}, 5)
	d.Undo()
	d.Close()
	e, _ := Open(ip, lp, Options{})
	if rec := e.Recovery(); rec != nil {
		t.Fatalf("offered %d edits that cancel out", rec.Edits)
	}
	e.Close() // one writer per pair: close before opening again
	d2, _ := Open(ip, lp, Options{})
	d2.Relabel([]int{0}, 5)
	d2.Undo()
	d2.Redo()
	d2.Close()
	e2, _ := Open(ip, lp, Options{})
	defer e2.Close()
	if rec := e2.Recovery(); rec == nil || rec.Edits != 3 {
		t.Fatalf("a redone edit was not offered: %+v", rec)
	}
}

// A planted save record that names this pair's own files and journal, but whose temporary
// files are not there (so there is nothing to finish), must not delete the journal of unsaved
// edits: those edits are in no file. (A real record's journal is removed only once the files
// it saved are in place, and then the journal no longer matches them.)
func TestPlantedManifestKeepsUnsavedJournal(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	ip, lp := tinyPair(t, dir, 12)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Relabel([]int{3}, 7); err != nil {
		t.Fatal(err)
	}
	journal := journalPath(d)
	d.Close()
	if _, err := os.Stat(journal); err != nil {
		t.Fatalf("no journal after an edit: %v", err)
	}
	lb := filepath.Base(lp)
	planted := `{"version":2,"files":[{"target":"` + lb + `","temp":".` + lb + `.idxlabel-tmp-1","backup":false}],"journals":["` + lb + `"]}`
	os.WriteFile(lp+pairfile.ManifestSuffix, []byte(planted), 0o644)
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	rec := d.Recovery()
	if rec == nil || !rec.Matches || rec.Edits != 1 {
		t.Fatalf("the unsaved edit's journal was not offered after a planted record: %+v (journal on disk: %v)", rec, fileExists(journal))
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestJournalStartOnAFullDiskSaysSo: when neither the pair's folder nor the per-user folder can
// take a new journal because the disk is full, the edit is refused with "cannot record edits:
// disk full" (ErrJournalWrite), as when an append fails, not with the raw write error.
func TestJournalStartOnAFullDiskSaysSo(t *testing.T) {
	err := journal.WriteError(&os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}, "cannot start the journal x")
	if !errors.Is(err, ErrJournalWrite) || !strings.HasPrefix(err.Error(), "cannot record edits: disk full") {
		t.Fatalf("error %q", err)
	}
}

// brokenAfterOneEdit opens a 12-sample pair, relabels sample 0 as 5, and makes its journal's file
// tear every write and fail every truncation (fullDisk, full and stuck) until told otherwise.
func brokenAfterOneEdit(t *testing.T) (ip, lp string, d *Dataset, bd *fullDisk) {
	t.Helper()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp = tinyPair(t, t.TempDir(), 12)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, d.Relabel([]int{0}, 5))
	bd = &fullDisk{full: true, stuck: true}
	d.journal.WrapFile(func(f journal.File) journal.File { bd.File = f; return bd })
	return ip, lp, d, bd
}

// An edit whose record is torn and cannot be cut back leaves the journal damaged: that edit and
// every later one are refused (ErrJournalDamaged, saying to save) and not shown, the disk
// recovered or not, until the journal is cut back; then edits go on, and every edit reported done
// replays after a crash. A save meanwhile keeps the edits made before the damage and starts the
// journal over.
func TestDamagedJournalRefusesEditsUntilWhole(t *testing.T) {
	ip, lp, d, bd := brokenAfterOneEdit(t)
	for k := range 3 {
		err := d.Relabel([]int{1}, 6)
		if !errors.Is(err, ErrJournalWrite) || !errors.Is(err, ErrJournalDamaged) || !strings.Contains(err.Error(), "save the dataset") {
			t.Fatalf("edit %d on a damaged journal: %v", k, err)
		}
	}
	if d.Label(1) != 1 || d.UndoName() != "Relabel sample 0 as 5" {
		t.Fatalf("a refused edit was applied: label %d, undo %q", d.Label(1), d.UndoName())
	}
	bd.full, bd.stuck = false, false
	mustDo(t, d.Relabel([]int{2}, 8))
	d.Close()
	e, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rec := e.Recovery(); rec == nil || rec.Edits != 2 || rec.Damaged != 0 {
		t.Fatalf("recovery %+v", rec)
	}
	if _, err := e.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if e.Label(0) != 5 || e.Label(1) != 1 || e.Label(2) != 8 {
		t.Fatalf("replayed labels %d %d %d", e.Label(0), e.Label(1), e.Label(2))
	}
	// Damaged again, the person saves: the edits made are in the files, and edits go on.
	bd = &fullDisk{full: true, stuck: true}
	e.journal.WrapFile(func(f journal.File) journal.File { bd.File = f; return bd })
	if err := e.Relabel([]int{3}, 9); !errors.Is(err, ErrJournalDamaged) {
		t.Fatalf("%v", err)
	}
	mustDo(t, e.Save(nil))
	mustDo(t, e.Relabel([]int{3}, 9))
	e.Close()
	saved, _ := idx.ReadFile(lp)
	if saved.Data[0] != 5 || saved.Data[2] != 8 || saved.Data[3] != 3 {
		t.Fatalf("saved labels %v", saved.Data[:4])
	}
}

// A save that fails while the journal is damaged (torn bytes at its end) reopens it after its
// last intact record, not after the torn bytes: the edits made after it replay. Before, the
// journal went on at its file's length, after the torn record, where a replay stops.
func TestFailedSaveReopensTheJournalAfterItsIntactRecords(t *testing.T) {
	ip, lp, d, _ := brokenAfterOneEdit(t)
	if err := d.Relabel([]int{1}, 6); !errors.Is(err, ErrJournalDamaged) {
		t.Fatalf("%v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := d.SaveContext(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled save: %v", err)
	}
	mustDo(t, d.Relabel([]int{2}, 8))
	d.Close()
	e, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if _, err := e.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if e.Label(0) != 5 || e.Label(1) != 1 || e.Label(2) != 8 {
		t.Fatalf("replayed labels %d %d %d", e.Label(0), e.Label(1), e.Label(2))
	}
}
