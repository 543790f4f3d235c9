package pairfile

import (
	"path/filepath"
	"slices"
	"testing"

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
