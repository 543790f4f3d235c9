package pairfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A marker names journals by base name only; each pair adds and removes its own; a marker beside
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
	if err != nil || string(b) != filepath.Base(jA)+"\n"+filepath.Base(jB)+"\n" || strings.Contains(string(b), other) {
		t.Fatalf("marker %q, %v", b, err)
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
