package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// A label file whose name is 236 bytes long (of the 255 a name may have): the journal beside it
// cannot be created (its temporary name would be 278 bytes), so edits go to the per-user
// fallback journal, whose name is now cut to fit (it was 34 bytes longer than the file's, so
// edits failed with "cannot record edits"); reopening finds that journal. The fallback of a short name is as
// it always was, so journals already there are still found.
func TestLongLabelNameJournalsToTheFallback(t *testing.T) {
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	dir := t.TempDir()
	images, _ := idx.New(idx.UByte, 3, 2, 2)
	labels, _ := idx.New(idx.UByte, 3)
	ip, lp := filepath.Join(dir, "i"), filepath.Join(dir, strings.Repeat("é", 114)+"-labels-") // 236 bytes
	for p, a := range map[string]*idx.Array{ip: images, lp: labels} {
		var b bytes.Buffer // written in place: idx.WriteFile's temporary name would be too long
		if err := idx.Encode(&b, a); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Relabel([]int{1}, 5); err != nil {
		t.Fatalf("an edit of a pair with a 236-byte label name: %v", err)
	}
	jp := journalPath(d)
	if !strings.HasPrefix(jp, config) || len(filepath.Base(jp)) > pairfile.MaxFallbackName {
		t.Fatalf("journal %s (%d bytes)", jp, len(filepath.Base(jp)))
	}
	d.Close()
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if rec := d.Recovery(); rec == nil || rec.Path != jp || rec.Edits != 1 {
		t.Fatalf("reopened: recovery %+v", rec)
	}
	short := filepath.Join(dir, "t10k-labels-idx1-ubyte")
	abs, _ := filepath.Abs(short + pairfile.JournalSuffix)
	if fb := pairfile.Fallback(short + pairfile.JournalSuffix); !strings.HasSuffix(fb, "-t10k-labels-idx1-ubyte"+pairfile.JournalSuffix) || len(filepath.Base(fb)) != 17+len("t10k-labels-idx1-ubyte"+pairfile.JournalSuffix) {
		t.Fatalf("the fallback of %s is %s", abs, fb)
	}
	if _, err := os.Stat(jp); err != nil {
		t.Fatal(err)
	}
}
