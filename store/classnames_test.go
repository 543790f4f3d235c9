package store

import (
	"os"
	"path/filepath"
	"testing"
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
