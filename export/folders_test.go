package export

import (
	"context"
	"idxlabel/sample"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The class folders of a PNG tree sort in class order, as torchvision's ImageFolder (and Keras)
// number classes by their sorted folder names: with 12 classes "10" and "11" come after "09",
// with names "0-zero" … (not "eight" … "zero"). Names that are the same, or differ only in case
// (EMNIST's "A" and "a"), still get folders of their own, different even on a disk that ignores
// case; the unlabelled samples' folder comes last.
func TestClassFoldersSortInClassOrder(t *testing.T) {
	names := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "A", "a", "same", "same", "10"}
	n := 2 * len(names)
	s := gen(n, 2, 2)
	for k := range n {
		s.Labels[k] = (k * 7) % len(names) // every class present, in no particular order
	}
	s.Labels[5] = sample.NoLabel
	s.Labels[6] = 5 // class 5 still present
	s.ClassName = func(c int) string { return names[c] }
	for _, withNames := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "tree")
		if err := Write(context.Background(), s, out, Options{Format: PNG, ClassNames: withNames}); err != nil {
			t.Fatal(err)
		}
		entries, err := os.ReadDir(out)
		if err != nil {
			t.Fatal(err)
		}
		var folders []string
		for _, e := range entries {
			if e.IsDir() {
				folders = append(folders, e.Name())
			}
		}
		slices.Sort(folders) // byte order: Python's sorted() on these ASCII names
		if len(folders) != len(names)+1 || folders[len(folders)-1] != "unlabelled" {
			t.Fatalf("names %v: folders %v", withNames, folders)
		}
		lower := map[string]bool{}
		for c, f := range folders[:len(names)] {
			want := []string{strconv.Itoa(c / 10), strconv.Itoa(c % 10)}
			if !strings.HasPrefix(f, strings.Join(want, "")) {
				t.Errorf("names %v: sorted folder %d is %q, not class %d's", withNames, c, f, c)
			}
			if withNames && names[c] != strconv.Itoa(c) && f != strings.Join(want, "")+"-"+names[c] {
				t.Errorf("class %d (%q): folder %q", c, names[c], f)
			}
			if lower[strings.ToLower(f)] {
				t.Errorf("names %v: two folders are %q on a disk that ignores case", withNames, f)
			}
			lower[strings.ToLower(f)] = true
		}
		// Every sample is in its class's folder.
		for k := range n {
			dir := "unlabelled"
			if c := s.Labels[k]; c != sample.NoLabel {
				dir = folders[c]
			}
			if _, err := os.Stat(filepath.Join(out, dir, strconv.Itoa(s.Index[k])+".png")); err != nil {
				t.Errorf("sample %d: %v", k, err)
			}
		}
	}
}

// A class name of 64 characters of 4 bytes each (the longest a class-name file gives: 256
// bytes) still makes a folder: its name is cut to 128 bytes at a character's end, so the
// folder's name stays under the 255 bytes a file name may hold (the export failed, "file name
// too long"); two such names alike in their first 128 bytes keep their folders apart by number.
func TestClassFolderOfALongName(t *testing.T) {
	long := strings.Repeat("\U0001F600", 64)
	s := gen(4, 2, 2)
	s.Labels = []int{0, 1, 0, 1}
	s.ClassName = func(c int) string { return long + strconv.Itoa(c) }
	out := filepath.Join(t.TempDir(), "tree")
	if err := Write(context.Background(), s, out, Options{Format: PNG, ClassNames: true}); err != nil {
		t.Fatal(err)
	}
	for c := range 2 {
		want := strconv.Itoa(c) + "-" + strings.Repeat("\U0001F600", 32)
		if entries, err := os.ReadDir(filepath.Join(out, want)); err != nil || len(entries) != 2 {
			t.Errorf("class %d: folder %q: %d files, %v", c, want, len(entries), err)
		}
	}
}
