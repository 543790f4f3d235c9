package pairfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Rows appended once more, or after an append of them cut off part way, are in the log once;
// a log that changed otherwise since the rows were made is refused and left as it was.
func TestAppendRowsWritesThemOnce(t *testing.T) {
	log := filepath.Join(t.TempDir(), "x-labels-idx1-ubyte"+ChangesSuffix)
	const head, rows = "index,original,new,how,when,source\n1,2,3,manual,,\n", "4,5,6,manual,,\n7,8,9,manual,,\n"
	r := &ChangeRows{Log: log, Offset: int64(len(head)), Rows: []byte(rows)}
	for _, before := range []string{head, head + rows[:5], head + rows} {
		os.WriteFile(log, []byte(before), 0o644)
		if err := AppendRows(r); err != nil {
			t.Fatalf("after %q: %v", before, err)
		}
		if b, _ := os.ReadFile(log); string(b) != head+rows {
			t.Fatalf("after %q the log is %q", before, b)
		}
	}
	for _, before := range []string{head[:10], head + "4,5,7", head + rows + "x"} {
		os.WriteFile(log, []byte(before), 0o644)
		if err := AppendRows(r); !errors.Is(err, errLogChanged) {
			t.Fatalf("after %q: %v, want errLogChanged", before, err)
		}
		if b, _ := os.ReadFile(log); string(b) != before {
			t.Fatalf("a refused append changed the log to %q", b)
		}
	}
	os.Remove(log)
	if err := AppendRows(r); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("rows after byte %d of a log that is gone: %v", r.Offset, err)
	}
	if err := AppendRows(&ChangeRows{Log: log, Rows: []byte(head)}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(log); string(b) != head {
		t.Fatalf("a new log is %q", b)
	}
}

// Rows kept beside a save record that are damaged, cut short, or for another log are not
// appended: they are moved aside (never deleted) and the notice names where; whole ones are
// appended and removed.
func TestFinishRowsChecksTheRowsFile(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "x-labels-idx1-ubyte"+ChangesSuffix)
	record := filepath.Join(dir, "x-labels-idx1-ubyte"+ManifestSuffix)
	good := &ChangeRows{Log: log, Rows: []byte("index,original,new,how,when,source\n4,5,6,manual,,\n")}
	if err := writeRows(rowsPath(record), good); err != nil {
		t.Fatal(err)
	}
	whole, _ := os.ReadFile(rowsPath(record))
	for name, bad := range map[string][]byte{
		"cut short":   whole[:len(whole)-3],
		"damaged":     []byte(strings.Replace(string(whole), "4,5,6", "4,5,7", 1)),
		"no header":   []byte("4,5,6,manual,,\n"),
		"another log": []byte(strings.Replace(string(whole), filepath.Base(log), "y"+ChangesSuffix, 1)),
	} {
		os.WriteFile(rowsPath(record), bad, 0o644)
		note := finishRows(rowsPath(record), log, "the interrupted save")
		if !strings.Contains(note, "kept in "+rowsPath(record)+".") || fileExists(log) || fileExists(rowsPath(record)) {
			t.Fatalf("%s rows: notice %q, log there %v, rows file there %v", name, note, fileExists(log), fileExists(rowsPath(record)))
		}
	}
	os.WriteFile(rowsPath(record), whole, 0o644)
	if note := finishRows(rowsPath(record), log, "the interrupted save"); note != "" || fileExists(rowsPath(record)) {
		t.Fatalf("whole rows: notice %q, rows file there %v", note, fileExists(rowsPath(record)))
	}
	if b, _ := os.ReadFile(log); string(b) != string(good.Rows) {
		t.Fatalf("the log is %q", b)
	}
}

func fileExists(p string) bool { _, err := os.Lstat(p); return err == nil }

// A rows file's first line names the log it is for; a name read from it that is not this
// pair's log is quoted in the notice at most clip.Max characters long, whatever its length
// within the line's 4 KiB. Before, a name of 300 escape sequences made a notice of 2,774
// bytes, quoted whole.
func TestFinishRowsQuotesTheLogNameShort(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "x-labels-idx1-ubyte"+ChangesSuffix)
	rows := filepath.Join(dir, ".x-labels-idx1-ubyte"+rowsSuffix)
	name := strings.Repeat(`\u001b[31m`, 300)
	os.WriteFile(rows, []byte(`{"version":1,"log":"`+name+`","offset":0,"size":0,"sha256":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}`+"\n"), 0o644)
	note := finishRows(rows, log, "the interrupted save")
	if !strings.Contains(note, "not for this pair's change log") || len(note) > len(log)+len(rows)+300 {
		t.Fatalf("a notice of %d bytes: %.300q", len(note), note)
	}
}
