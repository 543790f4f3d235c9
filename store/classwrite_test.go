package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
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
		if err := pairfile.WriteClassNames(p, names); err != nil {
			t.Fatal(err)
		}
		got, err := pairfile.ReadClassNames(p)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(names) {
			b, _ := os.ReadFile(p)
			t.Errorf("%v: read back %v (%v) from\n%s", names, got, err, b)
		}
	}
	if err := pairfile.WriteClassNames(filepath.Join(dir, "bad"), map[int]string{0: "a\u202eb"}); err == nil {
		t.Error("a name with a format character was written")
	}
	long := strings.Repeat("x", 70)
	p := filepath.Join(dir, "long")
	if err := pairfile.WriteClassNames(p, map[int]string{0: long, 1: "a\nb"}); err != nil {
		t.Fatal(err)
	}
	if got, err := pairfile.ReadClassNames(p); err != nil || got[0] != strings.Repeat("x", 63)+"…" || got[1] != "a b" {
		t.Errorf("read back %v (%v)", got, err)
	}
}

// genPairFiles writes a pair of n 4×4 samples (labels k mod 3) into dir as x-images-idx3-ubyte
// and x-labels-idx1-ubyte.
func genPairFiles(t *testing.T, dir string, n int) (string, string) {
	t.Helper()
	images, _ := idx.New(idx.UByte, n, 4, 4)
	labels, _ := idx.New(idx.UByte, n)
	for k := range n {
		labels.Data[k] = byte(k % 3)
		images.Data[k*16] = byte(k)
	}
	ip, lp := filepath.Join(dir, "x-images-idx3-ubyte"), filepath.Join(dir, "x-labels-idx1-ubyte")
	if err := idx.WriteFile(ip, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// Save As to another folder and name keeps the class names: the new pair reopens with them (a
// class-name file is written beside its label file, keeping the numbering past a class without
// a name); saving the pair where its names already are writes none; a new dataset's first save
// writes its names too.
func TestSaveAsKeepsClassNames(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genPairFiles(t, dir, 9)
	os.WriteFile(filepath.Join(dir, "classes.txt"), []byte("zero\n\ntwo\n"), 0o644)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.ClassName(2) != "two" || d.ClassName(1) != "" {
		t.Fatalf("opened with names %q %q", d.ClassName(1), d.ClassName(2))
	}
	d.Relabel([]int{0}, 2)
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(lp + pairfile.ClassNamesSuffix); !os.IsNotExist(err) {
		t.Fatalf("a save of the pair where its names are wrote %s: %v", lp+pairfile.ClassNamesSuffix, err)
	}
	other := filepath.Join(t.TempDir(), "elsewhere")
	os.Mkdir(other, 0o755)
	ni, nl := filepath.Join(other, "y-images-idx3-ubyte"), filepath.Join(other, "y-labels-idx1-ubyte.gz")
	if err := saveAs(d, ni, nl, nil); err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(d.LastSave().Notes, " "); !strings.Contains(notes, filepath.Base(nl+pairfile.ClassNamesSuffix)) {
		t.Errorf("the save does not say it wrote the class names: %q", notes)
	}
	if d.ClassNamesFile() != nl+pairfile.ClassNamesSuffix {
		t.Errorf("ClassNamesFile %q", d.ClassNamesFile())
	}
	d.Close()
	re, err := Open(ni, nl, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer re.Close()
	if got := fmt.Sprint(re.ClassName(0), "|", re.ClassName(1), "|", re.ClassName(2)); got != "zero||two" {
		t.Fatalf("the new pair reopens with names %q", got)
	}

	// A new dataset with names, saved for the first time.
	jp := filepath.Join(t.TempDir(), "new.idxlabel-journal")
	nd, err := New(4, 4, []int{0, 1, 2}, map[int]string{1: "one", 2: "two"}, jp)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nd.Append([]Sample{{Pixels: make([]byte, 16), Label: 2}}); err != nil {
		t.Fatal(err)
	}
	fresh := t.TempDir()
	fi, fl := filepath.Join(fresh, "n-images-idx3-ubyte"), filepath.Join(fresh, "n-labels-idx1-ubyte")
	if err := saveAs(nd, fi, fl, nil); err != nil {
		t.Fatal(err)
	}
	nd.Close()
	if got, err := pairfile.ReadClassNames(fl + pairfile.ClassNamesSuffix); err != nil || fmt.Sprint(got) != "map[1:one 2:two]" {
		t.Fatalf("the new dataset's class names: %v, %v", got, err)
	}
}
