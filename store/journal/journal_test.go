package journal

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Starting a journal where one with records already is never truncates it: it is moved aside
// whole.
func TestCreateKeepsAJournalWithRecords(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j")
	j, err := Create(p, []byte{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append([]byte{6}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	before, _ := os.ReadFile(p)
	j2, err := Create(p, []byte{1, 2})
	if err != nil {
		t.Fatal(err)
	}
	j2.Close()
	kept, _ := filepath.Glob(p + ".*.kept")
	if len(kept) != 1 {
		t.Fatalf("kept copies: %v", kept)
	}
	if got, _ := os.ReadFile(kept[0]); !bytes.Equal(got, before) {
		t.Fatalf("the journal with records was not kept whole in %s", kept[0])
	}
	c, err := Read(p, 0)
	if err != nil || !bytes.Equal(c.Base, []byte{1, 2}) || len(c.Records) != 0 {
		t.Fatalf("the new journal: %+v, %v", c, err)
	}
}

// Read stops at the first damaged record, says how many bytes follow the good prefix, and
// Reopen cuts them off before the next Append.
func TestReadStopsAtDamageAndReopenCutsItOff(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j")
	j, err := Create(p, []byte{1})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range [][]byte{{2, 9}, {3, 9, 9}} {
		if err := j.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	b, _ := os.ReadFile(p)
	b[len(b)-1] ^= 0xff // the last record's payload no longer matches its CRC
	os.WriteFile(p, b, 0o644)
	c, err := Read(p, 0)
	if err != nil || c.Version != Version || len(c.Records) != 1 || c.Damaged != int64(len(Frame([]byte{3, 9, 9}))) || c.Good != c.Ends[0] {
		t.Fatalf("read: %+v, %v", c, err)
	}
	j, err = Reopen(p, c.Good)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append([]byte{4}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	c, err = Read(p, 0)
	if err != nil || len(c.Records) != 2 || c.Records[1][0] != 4 || c.Damaged != 0 {
		t.Fatalf("after reopening: %+v, %v", c, err)
	}
	if _, err := Read(p, 10); err == nil {
		t.Fatal("a journal over the limit was read")
	}
	os.WriteFile(p, []byte("not a journal"), 0o644)
	if _, err := Read(p, 0); !errors.Is(err, ErrNotJournal) {
		t.Fatalf("a file without the magic: %v", err)
	}
}
