package pairfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A marker names journals by base name and digest, never by path; each pair adds and removes its own; a marker beside
// an image file refuses every writer of it, even with force, naming the marker; a marker is
// not written when the journal is beside the image file.
func TestUnsavedMarker(t *testing.T) {
	ip, _ := writeTestPair(t, 4, 2, 2)
	other := t.TempDir()
	jA := filepath.Join(other, "a-labels-idx1-ubyte"+JournalSuffix)
	jB := filepath.Join(other, "b-labels-idx1-ubyte"+JournalSuffix)
	if err := MarkUnsaved(ip, filepath.Join(filepath.Dir(ip), "x"+JournalSuffix)); err != nil {
		t.Fatal(err)
	}
	if m := UnsavedMarker(ip); m != "" {
		t.Fatalf("a journal beside the images left a marker %s", m)
	}
	for _, j := range []string{jA, jB, jA} {
		if err := MarkUnsaved(ip, j); err != nil {
			t.Fatal(err)
		}
	}
	m := ip + UnsavedSuffix
	b, err := os.ReadFile(m)
	want := filepath.Base(jA) + " " + JournalDigest(jA) + "\n" + filepath.Base(jB) + " " + JournalDigest(jB) + "\n"
	if err != nil || string(b) != want || strings.Contains(string(b), other) {
		t.Fatalf("marker %q, %v, want %q", b, err, want)
	}
	for _, force := range []bool{false, true} {
		_, err := ClaimOutputs(nil, []string{ip}, force, nil)
		var ue *UnsavedEditsError
		if !errors.As(err, &ue) || !errors.Is(err, ErrUnsavedEdits) || ue.Marker != m || !strings.Contains(err.Error(), m) || !strings.Contains(err.Error(), filepath.Base(jA)) {
			t.Fatalf("force %v: %v, want an *UnsavedEditsError naming the marker", force, err)
		}
	}
	// Through a symbolic link to the image file too.
	link := filepath.Join(t.TempDir(), "link-images")
	if os.Symlink(ip, link) == nil {
		if _, err := ClaimOutputs(nil, []string{link}, true, nil); !errors.Is(err, ErrUnsavedEdits) {
			t.Fatalf("through a link: %v", err)
		}
	}
	if err := UnmarkUnsaved(ip, jA); err != nil {
		t.Fatal(err)
	}
	if UnsavedMarker(ip) == "" {
		t.Fatal("one pair's unmark removed another pair's mark")
	}
	if err := UnmarkUnsaved(ip, jB); err != nil {
		t.Fatal(err)
	}
	if m := UnsavedMarker(ip); m != "" {
		t.Fatalf("marker %s left after both unmarked", m)
	}
	c, err := ClaimOutputs(nil, []string{ip}, true, nil)
	if err != nil {
		t.Fatalf("no marker: %v", err)
	}
	c.Release()
	// A damaged marker still refuses (it is heeded, never obeyed), and an unmark removes it.
	os.WriteFile(m, []byte("../../etc/passwd\n"), 0o644)
	if _, err := ClaimOutputs(nil, []string{ip}, true, nil); !errors.Is(err, ErrUnsavedEdits) || strings.Contains(err.Error(), "passwd") {
		t.Fatalf("damaged marker: %v", err)
	}
	UnmarkUnsaved(ip, jA)
	if UnsavedMarker(ip) != "" {
		t.Fatal("a damaged marker was not removed")
	}
}

// Two pairs whose journals have the same base name, in two folders, share one image file (two
// annotators' label files): each pair's line is its own, so unmarking one (opening it with
// nothing to recover, closing it, saving it) leaves the other's, and a writer of the image file
// is still refused. No path is written into the marker.
func TestUnsavedMarkerSameNameTwoFolders(t *testing.T) {
	ip, _ := writeTestPair(t, 4, 2, 2)
	name := "train-labels-idx1-ubyte" + JournalSuffix
	dirA, dirB := t.TempDir(), t.TempDir()
	jA, jB := filepath.Join(dirA, name), filepath.Join(dirB, name)
	if JournalDigest(jA) == JournalDigest(jB) {
		t.Fatal("two folders' journals of one name have one digest")
	}
	if err := MarkUnsaved(ip, jA); err != nil {
		t.Fatal(err)
	}
	for range 2 { // B opened and closed twice, never marked
		if err := UnmarkUnsaved(ip, jB); err != nil {
			t.Fatal(err)
		}
		if UnsavedMarker(ip) == "" {
			t.Fatal("unmarking pair B removed pair A's mark")
		}
	}
	if err := MarkUnsaved(ip, jB); err != nil {
		t.Fatal(err)
	}
	if err := UnmarkUnsaved(ip, jB); err != nil {
		t.Fatal(err)
	}
	m := ip + UnsavedSuffix
	b, _ := os.ReadFile(m)
	if string(b) != name+" "+JournalDigest(jA)+"\n" || strings.Contains(string(b), dirA) {
		t.Fatalf("after B's mark and unmark the marker holds %q, want A's line alone", b)
	}
	if _, err := ClaimOutputs(nil, []string{ip}, true, nil); !errors.Is(err, ErrUnsavedEdits) {
		t.Fatalf("a --force writer of the shared image file while A has unsaved edits: %v", err)
	}
	// Through a symbolic link to A's folder the digest is A's: the line is removed.
	link := filepath.Join(t.TempDir(), "a-link")
	if os.Symlink(dirA, link) == nil {
		if err := UnmarkUnsaved(ip, filepath.Join(link, name)); err != nil {
			t.Fatal(err)
		}
		if m := UnsavedMarker(ip); m != "" {
			t.Fatalf("unmarked through a link to its folder, A's line stayed in %s", m)
		}
	}
}

// A marker line of an earlier version (the base name alone) is heeded; it is removed only by a
// pair of that base name known to have held a journal (its own line was there, or its journal
// still is), never by one that merely opens with nothing to recover. Lines of neither form are
// dropped; a digest line whose name is a path is dropped too.
func TestUnsavedMarkerOldLines(t *testing.T) {
	ip, _ := writeTestPair(t, 4, 2, 2)
	name := "train-labels-idx1-ubyte" + JournalSuffix
	jA, jB := filepath.Join(t.TempDir(), name), filepath.Join(t.TempDir(), name)
	m := ip + UnsavedSuffix
	if err := os.WriteFile(m, []byte(name+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ClaimOutputs(nil, []string{ip}, true, nil); !errors.Is(err, ErrUnsavedEdits) || !strings.Contains(err.Error(), name) {
		t.Fatalf("an old marker line: %v, want refused naming %s", err, name)
	}
	UnmarkUnsaved(ip, jB) // B: no journal, no line of its own
	if b, _ := os.ReadFile(m); string(b) != name+"\n" {
		t.Fatalf("a pair with no journal removed an old line: %q", b)
	}
	if err := MarkUnsaved(ip, jA); err != nil { // A reopened, its journal offered
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(m); string(b) != name+"\n"+name+" "+JournalDigest(jA)+"\n" {
		t.Fatalf("marked beside an old line: %q", b)
	}
	UnmarkUnsaved(ip, jA) // A saved: its line and the old one go
	if got := UnsavedMarker(ip); got != "" {
		t.Fatalf("old line left after its pair's journal was saved: %s", got)
	}
	// A journal still there (its edits cancel out, about to be removed) vouches for the old line.
	if err := os.WriteFile(jA, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(m, []byte(name+"\n"), 0o644)
	UnmarkUnsaved(ip, jA)
	if got := UnsavedMarker(ip); got != "" {
		t.Fatalf("old line left by the pair whose journal is there: %s", got)
	}
	// Junk lines are dropped, the valid ones kept.
	junk := "../x " + JournalDigest(jA) + "\n" + name + " 0123456789ABCDEF\n\n..\n" + name + " " + JournalDigest(jB) + "\n"
	os.WriteFile(m, []byte(junk), 0o644)
	got := readUnsaved(m)
	if len(got) != 2 || got[0] != (unsavedLine{name: name + " 0123456789ABCDEF"}) || got[1] != (unsavedLine{name, JournalDigest(jB)}) {
		t.Fatalf("read %q as %q", junk, got)
	}
}

// A marker whose lines end in CRLF (a folder kept in git with autocrlf, or edited in Notepad,
// which may also put a byte order mark first) is read as the same lines: the pair removes its
// own line when it opens with nothing to recover, as the refusal's advice says, and the refusal
// names the journal, not the journal with a carriage return or the whole line.
func TestUnsavedMarkerCRLF(t *testing.T) {
	ip, _ := writeTestPair(t, 4, 2, 2)
	name := "train-labels-idx1-ubyte" + JournalSuffix
	jA := filepath.Join(t.TempDir(), name)
	m := ip + UnsavedSuffix
	for _, text := range []string{
		name + " " + JournalDigest(jA) + "\r\n",
		"\ufeff" + name + " " + JournalDigest(jA) + "\r\n",
		"\ufeff" + name + "\r\n",
	} {
		if err := os.WriteFile(m, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := unsavedNames(m); len(got) != 1 || got[0] != name {
			t.Errorf("marker %q names %q, want [%s]", text, got, name)
		}
		if err := MarkUnsaved(ip, jA); err != nil { // A reopened, its journal offered
			t.Fatal(err)
		}
		for _, l := range readUnsaved(m) {
			if l.name != name {
				t.Errorf("marker %q marked again holds the line %q", text, l)
			}
		}
		UnmarkUnsaved(ip, jA) // A saved
		if got := UnsavedMarker(ip); got != "" {
			b, _ := os.ReadFile(got)
			t.Errorf("marker %q: its pair saved, %s stays holding %q", text, got, b)
		}
	}
}

// A pair whose image file is a symbolic link in the label file's folder to a shared image file
// elsewhere marks that file: a writer of the shared file by its own name sees no journal in
// its folder, and must find the marker there (beside the file the link names, as every side
// file is: SideBase). Its pair removes the mark; a mark an earlier version left beside the link
// goes too.
func TestUnsavedMarkerThroughImageLink(t *testing.T) {
	ip, _ := writeTestPair(t, 4, 2, 2)
	dir := t.TempDir()
	link := filepath.Join(dir, "images-link")
	if err := os.Symlink(ip, link); err != nil {
		t.Skip("no symbolic links here:", err) // a safety of links, which this system lacks
	}
	j := filepath.Join(dir, "mine-labels-idx1-ubyte"+JournalSuffix)
	if err := MarkUnsaved(link, j); err != nil {
		t.Fatal(err)
	}
	if _, err := ClaimOutputs(nil, []string{ip}, true, nil); !errors.Is(err, ErrUnsavedEdits) {
		t.Fatalf("a --force writer of the image file a pair's link names, while that pair has unsaved edits: %v", err)
	}
	if err := UnmarkUnsaved(link, j); err != nil {
		t.Fatal(err)
	}
	if m := UnsavedMarker(ip); m != "" {
		t.Fatalf("its pair saved, the mark stays: %s", m)
	}
	old := link + UnsavedSuffix // an earlier version's mark beside the link
	if err := os.WriteFile(old, []byte(filepath.Base(j)+" "+JournalDigest(j)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := UnmarkUnsaved(link, j); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(old); err == nil {
		t.Fatalf("its pair saved, the mark beside the link stays: %s", old)
	}
}
