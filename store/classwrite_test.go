package store

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// WriteClassNames writes what ReadClassNames reads back: one name a line for classes 0…k−1,
// mapping lines for gaps, negative classes, and a first name that reads as a mapping line.
func TestWriteClassNamesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for k, names := range []map[int]string{
		{0: "zero", 1: "one", 2: "two words"},
		{0: "cat", 2: "owl"},
		{-3: "minus three", 5: "A"},
		{0: "1 2", 1: "x"},
		{0: "index,codepoint", 1: "y"},
		{0: "ka", 1: "ぎ"},
	} {
		p := filepath.Join(dir, fmt.Sprint(k))
		if err := WriteClassNames(p, names); err != nil {
			t.Fatal(err)
		}
		got, err := ReadClassNames(p)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(names) {
			b, _ := os.ReadFile(p)
			t.Errorf("%v: read back %v (%v) from\n%s", names, got, err, b)
		}
	}
	if err := WriteClassNames(filepath.Join(dir, "bad"), map[int]string{0: "a\nb"}); err == nil {
		t.Error("a name of two lines was written")
	}
}
