package pairfile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"idxlabel/idx"
)

// A save through symbolic links writes its record beside the label file the link names
// (RecordPath), not beside the link. A record an earlier version left beside the link (its
// targets named from the link's folder) is still seen through the link (the file's own name
// cannot know of it): SavePending, SaveProgress and ReadView of the links, and
// FinishInterrupted through the links finishes the save.
func TestSaveRecordBesideTheFileALinkNames(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	li, ll := linkPair(t, ip, lp, false)
	links := filepath.Dir(ll)
	if got := RecordPath(li, ll); got != Abs(lp)+ManifestSuffix {
		t.Fatalf("RecordPath through the links: %s, want beside %s", got, lp)
	}
	images, labels := reversed(t, ip, lp)
	writeCut(t, li, ll, images, labels, 0)
	if _, err := os.Lstat(ll + ManifestSuffix); err == nil {
		t.Fatal("the record was written beside the link")
	}
	// Move the record beside the link, as an earlier version wrote it.
	b, err := os.ReadFile(lp + ManifestSuffix)
	if err != nil {
		t.Fatalf("no record beside the file the link names: %v", err)
	}
	var dm diskManifest
	if err := json.Unmarshal(b, &dm); err != nil {
		t.Fatal(err)
	}
	for k, f := range dm.Files {
		rel, err := filepath.Rel(links, filepath.Join(filepath.Dir(lp), f.Target))
		if err != nil {
			t.Fatal(err)
		}
		dm.Files[k].Target = filepath.ToSlash(rel)
	}
	b, _ = json.Marshal(dm)
	if err := os.WriteFile(ll+ManifestSuffix, b, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(lp + ManifestSuffix)
	if !SavePending(ll) {
		t.Error("an earlier version's record beside the link: the link's save is not pending")
	}
	if files, placed := SaveProgress(li, ll); files != 2 || placed != 1 {
		t.Errorf("SaveProgress: %d files, %d placed; want 2, 1", files, placed)
	}
	if _, rl, note := ReadView(li, ll); rl == ll || note == "" {
		t.Errorf("ReadView reads %s (%q)", rl, note)
	}
	if notice, err := FinishInterrupted(li, ll); err != nil || notice == "" {
		t.Fatalf("FinishInterrupted: %q, %v", notice, err)
	}
	if got, _ := idx.ReadFile(lp); got == nil || !bytes.Equal(got.Data, labels.Data) {
		t.Fatal("the save was not finished")
	}
	if _, err := os.Lstat(ll + ManifestSuffix); err == nil {
		t.Fatal("the record is still there")
	}
}
