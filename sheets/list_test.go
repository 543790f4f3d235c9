package sheets

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestList(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"sheet-10.jpg", "sheet-2.png", "sheet-1.JPG", "readme.txt", "sheet-02b.tif"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	os.Mkdir(filepath.Join(dir, "more"), 0o755)
	src, skipped, err := List([]string{dir}, WriterIndex)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for k, s := range src {
		names = append(names, filepath.Base(s.Path))
		if s.Writer != k {
			t.Errorf("%s: writer %d, want %d", s.Path, s.Writer, k)
		}
	}
	if want := []string{"sheet-1.JPG", "sheet-2.png", "sheet-02b.tif", "sheet-10.jpg"}; !slices.Equal(names, want) {
		t.Errorf("order %v, want %v", names, want)
	}
	if len(skipped) != 2 || !strings.Contains(strings.Join(skipped, "\n"), "readme.txt: not an image") {
		t.Errorf("skipped %v", skipped)
	}
	src, _, err = List([]string{dir}, WriterName)
	if err != nil || src[3].Writer != 10 || src[2].Writer != 2 {
		t.Fatalf("writers from names: %v %v", src, err)
	}
	os.WriteFile(filepath.Join(dir, "sheet-99999999999.png"), nil, 0o644)
	if _, _, err := List([]string{dir}, WriterName); err == nil || !strings.Contains(err.Error(), "above 2147483647") {
		t.Errorf("a writer number above int32: %v", err)
	}
	if _, _, err := List([]string{filepath.Join(dir, "readme.txt")}, WriterIndex); err == nil {
		t.Error("a text file taken as a sheet")
	}
	if _, _, err := List([]string{filepath.Join(dir, "more")}, WriterIndex); err == nil || !strings.Contains(err.Error(), "no sheet images") {
		t.Errorf("an empty folder: %v", err)
	}
}
