package journal

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Starting a journal where one with records already is never truncates it: it is moved aside
// whole.
func TestCreateKeepsAJournalWithRecords(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j")
	j, err := Create(p, nil, []byte{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append([]byte{6}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	before, _ := os.ReadFile(p)
	j2, err := Create(p, nil, []byte{1, 2})
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
	j, err := Create(p, nil, []byte{1})
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

// A journal names the files of its pair: relative to its folder when they are in it, absolute
// otherwise, read back absolute by Read and ReadPair (which reads the first record alone); a
// journal of version 2 names none and is read as before; a damaged pair record is refused.
func TestPairRecord(t *testing.T) {
	dir := t.TempDir()
	other := t.TempDir()
	p := filepath.Join(dir, "g-lab.idxlabel-journal")
	pair := []string{filepath.Join(other, "g-img"), filepath.Join(dir, "g-lab")}
	j, err := Create(p, pair, []byte{1, 7})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Append([]byte{2, 9}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	b, _ := os.ReadFile(p)
	if !bytes.Contains(b, []byte("\x05\x00g-lab")) || !bytes.Contains(b, []byte(filepath.ToSlash(pair[0]))) {
		t.Fatalf("the pair record does not hold g-lab relative and g-img absolute: %q", b)
	}
	c, err := Read(p, 0)
	if err != nil || c.Version != Version || len(c.Pair) != 2 || c.Pair[0] != pair[0] || c.Pair[1] != pair[1] || !bytes.Equal(c.Base, []byte{1, 7}) || len(c.Records) != 1 {
		t.Fatalf("read: %+v, %v", c, err)
	}
	if c.BaseEnd() != int64(len(Magic)+len(Frame(b[16:16+binary.LittleEndian.Uint32(b[8:])]))+len(Frame([]byte{1, 7}))) {
		t.Fatalf("BaseEnd %d", c.BaseEnd())
	}
	if got, err := ReadPair(p); err != nil || len(got) != 2 || got[0] != pair[0] || got[1] != pair[1] {
		t.Fatalf("ReadPair: %v, %v", got, err)
	}

	v3 := filepath.Join(dir, "v3") // the same journal as version 3 wrote it: the same records
	os.WriteFile(v3, append([]byte(MagicV3), b[len(Magic):]...), 0o644)
	if c, err := Read(v3, 0); err != nil || c.Version != 3 || len(c.Pair) != 2 || c.Pair[0] != pair[0] || len(c.Records) != 1 {
		t.Fatalf("a version 3 journal: %+v, %v", c, err)
	}
	if got, err := ReadPair(v3); err != nil || len(got) != 2 || got[1] != pair[1] {
		t.Fatalf("ReadPair of version 3: %v, %v", got, err)
	}

	v2 := filepath.Join(dir, "v2")
	os.WriteFile(v2, append(append([]byte(MagicV2), Frame([]byte{1, 7})...), Frame([]byte{2, 9})...), 0o644)
	if c, err := Read(v2, 0); err != nil || c.Version != 2 || c.Pair != nil || len(c.Records) != 1 || c.BaseEnd() != int64(len(MagicV2)+len(Frame([]byte{1, 7}))) {
		t.Fatalf("a version 2 journal: %+v, %v", c, err)
	}
	if got, err := ReadPair(v2); err != nil || got != nil {
		t.Fatalf("ReadPair of version 2: %v, %v", got, err)
	}
	bad := filepath.Join(dir, "bad")
	os.WriteFile(bad, append(append([]byte(Magic), Frame([]byte{3, 1, 0, 'x'})...), Frame([]byte{1})...), 0o644)
	if _, err := Read(bad, 0); err == nil {
		t.Fatal("a pair record of three files was read")
	}
	if _, err := ReadPair(bad); err == nil {
		t.Fatal("ReadPair read a pair record of three files")
	}
}

// faulty is a journal's file whose writes stop half-way and whose truncations fail, each while
// its switch is set.
type faulty struct {
	File
	failWrite, failTruncate bool
	writes                  int
}

func (f *faulty) Write(p []byte) (int, error) {
	f.writes++
	if f.failWrite {
		n, _ := f.File.Write(p[:len(p)/2])
		return n, errors.New("I/O error")
	}
	return f.File.Write(p)
}

func (f *faulty) Truncate(size int64) error {
	if f.failTruncate {
		return errors.New("truncate failed")
	}
	return f.File.Truncate(size)
}

// A write that fails part way whose cut-back fails too leaves the journal damaged, and that is
// sticky: every later record is refused, unwritten, with an error saying so and what to do,
// until a cut-back succeeds; then records are written after the last intact one, and a read
// finds every record that was accepted. Before, the cut-back's error was ignored and later
// records landed after the torn bytes, where a replay stops: edits shown as done were lost.
func TestDamageIsSticky(t *testing.T) {
	p := filepath.Join(t.TempDir(), "j")
	j, err := Create(p, nil, []byte{1})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := j.Append([]byte{2, 1}); err != nil {
		t.Fatal(err)
	}
	f := &faulty{failWrite: true, failTruncate: true}
	j.WrapFile(func(in File) File { f.File = in; return f })
	err = j.Append([]byte{2, 2, 2, 2})
	if !errors.Is(err, ErrWrite) || !errors.Is(err, ErrDamaged) || j.Damaged() == nil {
		t.Fatalf("a torn write not cut back: %v", err)
	}
	f.failWrite = false
	writes := f.writes
	for range 3 {
		err = j.Append([]byte{2, 3})
		if !errors.Is(err, ErrWrite) || !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "save the dataset") || !strings.Contains(err.Error(), p) {
			t.Fatalf("a record while damaged: %v", err)
		}
	}
	if f.writes != writes {
		t.Fatal("a record was written while the journal was damaged")
	}
	f.failTruncate = false
	if err := j.Append([]byte{2, 4}); err != nil || j.Damaged() != nil {
		t.Fatalf("once the cut-back works: %v, damaged %v", err, j.Damaged())
	}
	c, err := Read(p, 0)
	if err != nil || len(c.Records) != 2 || c.Records[1][1] != 4 || c.Damaged != 0 {
		t.Fatalf("read back: %+v, %v", c, err)
	}
}
