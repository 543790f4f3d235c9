package pairfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"idxlabel/internal/atomicfile"
)

// The record of a save that wrote only the label file names the image file's journal too (the
// edits it saved were typed on the image file opened alone), so finishing the save removes it;
// a reader of another pair does not take that name.
func TestRecordNamesTheJournalOfAFileNotWritten(t *testing.T) {
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "s-images-idx3-ubyte"), filepath.Join(dir, "s-labels-idx1-ubyte")
	m := &manifest{Files: []manifestFile{{Temp: atomicfile.TempPrefix(lp) + "1", Target: lp}}, Journals: []string{ip + JournalSuffix}}
	if err := writeManifest(lp+ManifestSuffix, m); err != nil {
		t.Fatal(err)
	}
	got, err := readManifest(lp+ManifestSuffix, []string{ip, lp})
	if err != nil || !slices.Contains(got.Journals, ip+JournalSuffix) {
		t.Fatalf("read back: %+v, %v", got, err)
	}
	other, err := readManifest(lp+ManifestSuffix, []string{filepath.Join(dir, "x-images"), lp})
	if err != nil || slices.Contains(other.Journals, ip+JournalSuffix) {
		t.Fatalf("another pair took the journal: %+v, %v", other, err)
	}
}

// A file set aside where one was set aside in the same second keeps the earlier one: the
// refused rows of two openings within a second are both kept. The names of the next ten
// minutes are taken beforehand, so that the second the call falls in is among them. Before,
// the later rename replaced the earlier file, whose rows were lost.
func TestSetAsideNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".x-labels-idx1-ubyte"+rowsSuffix)
	now := time.Now()
	for s := -2; s < 600; s++ {
		os.WriteFile(path+"."+now.Add(time.Duration(s)*time.Second).Format("20060102-150405")+".refused", []byte("earlier"), 0o644)
	}
	os.WriteFile(path, []byte("later"), 0o644)
	to := setAside(path)
	if b, err := os.ReadFile(to); err != nil || string(b) != "later" {
		t.Fatalf("set aside to %q: %q, %v", to, b, err)
	}
	taken, _ := filepath.Glob(path + ".*.refused")
	for _, p := range taken {
		if b, _ := os.ReadFile(p); p != to && string(b) != "earlier" {
			t.Fatalf("%s, set aside earlier, now holds %q", filepath.Base(p), b)
		}
	}
}

// An undo record reads back with what it says (the files put in place, their size and time),
// and only as version 3: a record of version 2 that says undo, or of version 3 that does not,
// is refused, so no version finishes forward a save another was undoing.
func TestUndoRecordIsItsOwnVersion(t *testing.T) {
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "s-images-idx3-ubyte"), filepath.Join(dir, "s-labels-idx1-ubyte")
	record := lp + ManifestSuffix
	m := &manifest{Undo: true, Files: []manifestFile{{Temp: atomicfile.TempPrefix(lp) + "1", Target: lp, Backup: backupPath(lp), Placed: true, Size: 70, ModTime: 123456789}}}
	if err := writeManifest(record, m); err != nil {
		t.Fatal(err)
	}
	got, err := readManifest(record, []string{ip, lp})
	if err != nil || !got.Undo || !got.Files[0].Placed || got.Files[0].Size != 70 || got.Files[0].ModTime != 123456789 {
		t.Fatalf("read back: %+v, %v", got, err)
	}
	b, _ := os.ReadFile(record)
	for _, bad := range []string{strings.Replace(string(b), `"version":3`, `"version":2`, 1), strings.Replace(string(b), `"undo":true`, `"undo":false`, 1)} {
		os.WriteFile(record, []byte(bad), 0o644)
		if got, err := readManifest(record, []string{ip, lp}); !errors.Is(err, errManifest) {
			t.Fatalf("%s: read as %+v, %v", bad, got, err)
		}
	}
}
