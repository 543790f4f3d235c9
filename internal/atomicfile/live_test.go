package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// A sweep of abandoned temporary files (RemoveAbandoned) that runs in this process in the
// instant after a writer closed its temporary file, which lets its flock go, and before the
// rename, leaves that file alone: the write puts its content in place.
func TestSweepSparesAClosedTempBeforeItsRename(t *testing.T) {
	target := filepath.Join(t.TempDir(), "x.side")
	var swept []string
	closedHook = func(string) { swept = append(swept, RemoveAbandoned(target)...) }
	defer func() { closedHook = nil }()
	err := WriteFileNoFollow(target, write("new"))
	b, _ := os.ReadFile(target)
	if err != nil || string(b) != "new" || len(swept) != 0 {
		t.Fatalf("a sweep between the close and the rename removed %q; the write: %v, the target holds %q", swept, err, b)
	}
}

// A temporary file Create wrote and no one has committed or aborted yet (a paired save between
// its writes and its renames) is live: a sweep in this process leaves it, and so does
// RemoveStale at any age; once committed or aborted it is no longer kept from a sweep.
func TestSweepSparesAPendingTemp(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "labels")
	p, err := Create(target, write("new"))
	if err != nil {
		t.Fatal(err)
	}
	if swept := append(RemoveAbandoned(target), RemoveStale(target, -1)...); len(swept) != 0 {
		t.Fatalf("a sweep removed the temporary file of a write not yet committed: %q", swept)
	}
	if err := p.Commit(); err != nil {
		t.Fatalf("commit after the sweep: %v", err)
	}
	q, err := Create(target, write("newer"))
	if err != nil {
		t.Fatal(err)
	}
	q.Abort()
	left := TempPrefix(target) + "7"
	os.WriteFile(left, nil, 0o644)
	if swept := RemoveAbandoned(target); len(swept) != 1 || swept[0] != left {
		t.Fatalf("swept %q, want only the abandoned %s", swept, left)
	}
}
