package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// Names set by SetClassNames show at once, make the dataset dirty, and are written by the next
// save as "<labels>.classes.txt", which the pair opened again reads; names that cannot be
// written are refused.
func TestSetClassNamesWrittenOnSave(t *testing.T) {
	ip, lp := copyPair(t, 50, false)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[int]string{0: "zero", 1: "one", 7: "seven"}
	if err := d.SetClassNames(names); err != nil {
		t.Fatal(err)
	}
	if d.ClassName(7) != "seven" || !d.Dirty() {
		t.Fatalf("class 7 is %q, dirty %v", d.ClassName(7), d.Dirty())
	}
	if _, err := os.Stat(lp + ".classes.txt"); err == nil {
		t.Fatal("the names were written before the save")
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	if d.Dirty() || d.ClassNamesFile() != lp+".classes.txt" {
		t.Fatalf("after the save: dirty %v, names file %q", d.Dirty(), d.ClassNamesFile())
	}
	d.Close()
	again, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	for c, n := range names {
		if again.ClassName(c) != n {
			t.Fatalf("reopened: class %d is %q, want %q", c, again.ClassName(c), n)
		}
	}
	if again.ClassName(2) != "" {
		t.Fatalf("class 2 has the name %q", again.ClassName(2))
	}
	for _, bad := range []map[int]string{{1: ""}, {1: "x\x00"}, {1: "\u202e"}} {
		if err := again.SetClassNames(bad); err == nil {
			t.Errorf("names %v accepted", bad)
		}
	}
	if again.Dirty() {
		t.Fatal("refused names made the dataset dirty")
	}
	if err := again.SetClassNames(map[int]string{1: "a\n  b"}); err != nil || again.ClassName(1) != "a b" {
		t.Fatalf("a name of two lines: %v, %q (want it cleaned as a class-name file is read)", err, again.ClassName(1))
	}
	if err := again.SetClassNames(nil); err != nil || !again.Dirty() {
		t.Fatalf("clearing the names: %v, dirty %v", err, again.Dirty())
	}
	if err := again.Save(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(lp), filepath.Base(lp)+".classes.txt")); !os.IsNotExist(err) {
		t.Fatalf("the class-name file of no names is still there: %v", err)
	}
}

// Class names set in the window are journaled: a window that stops before saving gets them back
// when the pair is reopened (the journal holds them even with no label edited, so it is offered,
// and no writer replaces the pair meanwhile), dirty until saved; a save writes them. Names of a
// dataset without a label file, which a save keeps unsaved, are journaled again after it.
func TestClassNamesJournaled(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 3)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, d.SetClassNames(map[int]string{0: "nought", 1: "one"}))
	d.Close() // as a window killed before saving
	if c, err := pairfile.ClaimOutputs(nil, []string{lp}, true, nil); !errors.Is(err, pairfile.ErrUnsavedEdits) {
		c.Release()
		t.Fatalf("a writer over a pair whose journal holds names: %v", err)
	}
	e, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rec := e.Recovery(); rec == nil || !rec.Matches || rec.Edits != 1 {
		t.Fatalf("recovery %+v", rec)
	}
	if _, err := e.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if e.ClassName(0) != "nought" || e.ClassName(1) != "one" || !e.Dirty() {
		t.Fatalf("after replay: %q %q, dirty %v", e.ClassName(0), e.ClassName(1), e.Dirty())
	}
	mustDo(t, e.Save(nil))
	if names, _, err := pairfile.FindClassNames(lp); err != nil || names[0] != "nought" {
		t.Fatalf("saved names %v, %v", names, err)
	}
	e.Close()

	// Images alone: the names wait for a label file, journaled across a save.
	dir := t.TempDir()
	only := filepath.Join(dir, "digits.idx")
	images, _ := idx.New(idx.UByte, 2, 2, 2)
	if err := idx.WriteFile(only, images); err != nil {
		t.Fatal(err)
	}
	f, err := Open(only, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, f.SetClassNames(map[int]string{3: "three"}))
	mustDo(t, f.Delete([]int{0}))
	mustDo(t, f.Save(nil))
	if !f.Dirty() || f.ClassName(3) != "three" {
		t.Fatalf("names of images alone after a save: dirty %v, %q", f.Dirty(), f.ClassName(3))
	}
	f.Close()
	g, err := Open(only, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := g.ReplayJournal(); err != nil || g.ClassName(3) != "three" || g.Len() != 1 {
		t.Fatalf("replayed: %v, %q, %d samples", err, g.ClassName(3), g.Len())
	}
}

// A names record is untrusted: names the check refuses (a control character) stop the replay
// there, nothing set.
func TestClassNamesRecordUntrusted(t *testing.T) {
	ip, lp := tinyPair(t, t.TempDir(), 3)
	bad := namesRecord(map[int]string{0: "a\x1b[2Jb"}, 0)
	d, err := replayCrafted(t, ip, lp, bad)
	if err == nil || !strings.Contains(err.Error(), "record 1 of 1 was not replayed") || d.ClassName(0) != "" {
		t.Fatalf("a names record with an escape: %v, name %q", err, d.ClassName(0))
	}
}
