package classes

import (
	"path/filepath"
	"slices"
	"testing"

	"idxlabel/sample"
	"idxlabel/store"
)

// A dataset's classes as the window shows them: long and short forms, digits or not, and a class
// typed or picked read back (a number, a listed form, the one class a prefix names).
func TestNamesShowAndParse(t *testing.T) {
	ds, err := store.New(28, 28, []int{0, 1, 2, 10, 11}, map[int]string{1: "one", 10: "A", 11: "Apple"}, filepath.Join(t.TempDir(), "j"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { ds.Abandon(); ds.Close() }()
	n := Of(ds)
	if n.Digits || !slices.Equal(n.List, []int{0, 1, 2, 10, 11}) {
		t.Fatalf("digits %v, list %v", n.Digits, n.List)
	}
	for _, c := range []struct {
		class       int
		long, short string
	}{{0, "0", "0"}, {1, "1 (one)", "1"}, {10, "10 (A)", "A"}, {11, "11 (Apple)", "11"}, {sample.NoLabel, "none", "?"}} {
		if n.Long(c.class) != c.long || n.Short(c.class) != c.short {
			t.Errorf("class %d: %q, %q", c.class, n.Long(c.class), n.Short(c.class))
		}
	}
	for text, want := range map[string]int{"7": 7, "11 (Apple)": 11, "ap": 11, "on": 1, " 2 ": 2} {
		if got, ok := n.Parse(text); !ok || got != want {
			t.Errorf("Parse(%q) = %d %v, want %d", text, got, ok, want)
		}
	}
	for _, text := range []string{"", "a", "zzz"} { // nothing, or several ("A", "Apple")
		if got, ok := n.Parse(text); ok {
			t.Errorf("Parse(%q) = %d", text, got)
		}
	}
	if !Of(nil).Digits || Of(nil).Name(3) != "" {
		t.Fatal("no dataset: not digits, or a name")
	}
	if m := Named(ds); len(m) != 3 || m[10] != "A" {
		t.Fatalf("Named %v", m)
	}
}
