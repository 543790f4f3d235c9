package pairfile

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"idxlabel/sample"
)

// checkNames fails unless every name is what a class name may be: UTF-8, at most 64 printable
// characters, no leading or trailing space.
func checkNames(t testing.TB, names map[int]string) {
	t.Helper()
	for k, n := range names {
		if !utf8.ValidString(n) || utf8.RuneCountInString(n) > maxNameRunes || strings.TrimSpace(n) != n {
			t.Fatalf("class %d: name %q", k, n)
		}
		for _, r := range n {
			if !unicode.IsGraphic(r) || (unicode.IsSpace(r) && r != ' ') {
				t.Fatalf("class %d: name %q holds %U", k, n, r)
			}
		}
	}
}

func TestClassNameRules(t *testing.T) {
	long := strings.Repeat("ж", 100)
	cases := []struct {
		name, data string
		want       map[int]string
		err        string
	}{
		{"plain, CRLF, BOM, a blank line names no class", "\uFEFFzero\r\n\r\ntwo\r\n", map[int]string{0: "zero", 2: "two"}, ""},
		{"blank lines keep the numbering", "\n one\n\t\n\nfour\n\n", map[int]string{1: "one", 4: "four"}, ""},
		{"white space made one space", "T-shirt\t/  top\n", map[int]string{0: "T-shirt / top"}, ""},
		{"long name cut", long + "\n", map[int]string{0: strings.Repeat("ж", 63) + "…"}, ""},
		{"exactly 64 kept", strings.Repeat("a", 64), map[int]string{0: strings.Repeat("a", 64)}, ""},
		{"KMNIST CSV, comma char", "index,codepoint,char\n0,U+0030,,\n1,U+3042,あ\n", map[int]string{0: ",", 1: "あ"}, ""},
		{"EMNIST mapping", "0 48\n36 97\n", map[int]string{0: "0", 36: "a"}, ""},
		{"control character", "ok\nbad\x07bell\n", nil, "line 2"},
		{"escape sequence", "\x1b[2Jclear\n", nil, "line 1"},
		{"right-to-left override", "abc\u202edef\n", nil, "line 1"},
		{"invalid UTF-8", "ok\n\xff\xfe\n", nil, "line 2: not UTF-8 text"},
		{"line too long", "a\n" + strings.Repeat("b", maxClassLine+1) + "\n", nil, "line 2: 1025 bytes"},
		{"mapping to NUL", "0 0\n", nil, "line 1"},
		{"mapping to a surrogate", "0 55296\n", nil, "not a Unicode code point"},
		{"mapping class sample.NoLabel", "-2147483648 65\n", nil, "outside the 32-bit label range"},
		{"mapping class too big", "4294967296 65\n", nil, "outside the 32-bit label range"},
		{"too many names", strings.Repeat("x\n", maxClassNames+1), nil, "more than 65536 class names"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := parseClassNames("classes.txt", []byte(c.data))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "classes.txt: ") || !errors.Is(err, errClassNames) {
					t.Fatalf("error %v, want one with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("names %v, want %v", got, c.want)
			}
		})
	}
}

func TestClassNameFileBounds(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.txt")
	os.WriteFile(big, []byte(strings.Repeat("a\n", maxClassFile/2+1)), 0o644)
	if _, err := ReadClassNames(big); err == nil || !strings.Contains(err.Error(), "more than 1048576 bytes") {
		t.Fatalf("a file over 1 MiB: %v", err)
	}
	if _, err := ReadClassNames(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("a folder: %v", err)
	}
}

// WriteClassNames never writes a file ReadClassNames would refuse: 20,000 classes of 64 four-byte
// characters in the mapping form ("k 128512 128512 …", about 450 bytes a class) are refused, and
// nothing is left at the path; a set within the bound reads back the same.
func TestWriteClassNamesWithinTheReadBound(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big-classes.txt")
	names := map[int]string{}
	for k := range 20000 {
		names[2*k+1] = strings.Repeat("😀", 64) // odd classes only: the mapping form
	}
	if err := WriteClassNames(path, names); err == nil || !strings.Contains(err.Error(), "more than the 1048576") {
		t.Fatalf("names of %d bytes or so written: %v", 20000*450, err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a refused write left %s: %v", path, err)
	}
	small := map[int]string{1: strings.Repeat("😀", 64), 3: "three"}
	if err := WriteClassNames(path, small); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadClassNames(path); err != nil || !maps.Equal(got, small) {
		t.Fatalf("read back %v, %v; want %v", got, err, small)
	}
}

// FuzzClassNames: whatever the bytes, the parser returns names a window can draw (or an
// error), within its bounds.
func FuzzClassNames(f *testing.F) {
	for _, s := range []string{
		"zero\none\n", "index,codepoint,char\n0,U+3042,あ\n", "1 65 97\n2 66 98\n", "\uFEFFa\r\n",
		"a\x00b\n", "\xff\n", "0 1114111\n", strings.Repeat("x", 70),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		names, err := parseClassNames("f", data)
		if err != nil {
			if names != nil || !errors.Is(err, errClassNames) {
				t.Fatalf("error %v with names %v", err, names)
			}
			return
		}
		if len(names) > maxClassNames {
			t.Fatalf("%d names", len(names))
		}
		checkNames(t, names)
		for k := range names {
			if k == sample.NoLabel {
				t.Fatal("a name for sample.NoLabel")
			}
		}
	})
}
