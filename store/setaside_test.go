package store

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"idxlabel/pairfile"
)

// plantAsides puts a file at every name the journal at path set aside with tag would have taken
// by its time alone, from a second before now to ten minutes after, each holding its own name,
// so that a set-aside that replaced a file is caught whatever the clock says.
func plantAsides(t *testing.T, path, tag string) []string {
	t.Helper()
	now := time.Now()
	var planted []string
	for s := -1; s <= 600; s++ {
		p := path + "." + now.Add(time.Duration(s)*time.Second).Format("20060102-150405") + "." + tag
		if err := os.WriteFile(p, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
		planted = append(planted, p)
	}
	return planted
}

// Two journals of a pair discarded as copies within one second, after others set aside before,
// each keep a name of their own: no set-aside replaces a file, so no edits are lost.
func TestSetAsideNeverReplaces(t *testing.T) {
	ip, lp := copyPair(t, 100, false)
	jp := lp + pairfile.JournalSuffix
	planted := plantAsides(t, jp, "discarded")
	var journals [][]byte
	for k := range 2 {
		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Relabel([]int{k}, 5+k); err != nil {
			t.Fatal(err)
		}
		d.Close() // a crash: the journal stays
		journals = append(journals, mustRead(t, jp))
		if d, err = Open(ip, lp, Options{}); err != nil {
			t.Fatal(err)
		}
		if d.Recovery() == nil {
			t.Fatal("no journal offered")
		}
		if err := d.DiscardJournal(true); err != nil {
			t.Fatal(err)
		}
		d.Close()
	}
	for _, p := range planted {
		if b, err := os.ReadFile(p); err != nil || string(b) != p {
			t.Fatalf("%s was replaced by a journal set aside (%d bytes, %v)", filepath.Base(p), len(b), err)
		}
	}
	kept, _ := filepath.Glob(jp + ".*.discarded")
	for k, j := range journals {
		found := false
		for _, p := range kept {
			found = found || bytes.Equal(mustRead(t, p), j)
		}
		if !found {
			t.Errorf("journal %d, set aside, is in none of the %d files %s.*.discarded", k+1, len(kept), filepath.Base(jp))
		}
	}
	if len(kept) != len(planted)+2 {
		t.Errorf("%d files set aside, want %d", len(kept), len(planted)+2)
	}
}
