package store

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
)

// formatClassNames writes what parseClassNames reads back to the same names: one name per line
// (blank lines for classes without one) where it can, EMNIST mapping lines where it cannot
// (negative or very large classes, a first name that reads as a mapping line or a KMNIST header).
func TestFormatClassNamesRoundTrip(t *testing.T) {
	for _, names := range []map[int]string{
		{0: "zero", 2: "two", 3: "T-shirt / top"},
		{1: "Aa", 2: "Bb", 26: "Zz"}, // EMNIST letters: no class 0
		{0: "あ", 1: ",", 9: "nine"},
		{-3: "minus three", 0: "zero"},
		{70000: "far"},
		{0: "1 2", 1: "one"},
		{0: "index,codepoint,char", 1: "x"},
	} {
		text := formatClassNames(names)
		got, err := parseClassNames("classes.txt", []byte(text))
		if err != nil || !maps.Equal(got, names) {
			t.Errorf("%v: wrote %q, read back %v, %v", names, text, got, err)
		}
	}
	if got := formatClassNames(map[int]string{0: "zero", 2: "two"}); got != "zero\n\ntwo\n" {
		t.Errorf("one name per line: %q", got)
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
	if _, err := os.Stat(lp + ClassNamesSuffix); !os.IsNotExist(err) {
		t.Fatalf("a save of the pair where its names are wrote %s: %v", lp+ClassNamesSuffix, err)
	}
	other := filepath.Join(t.TempDir(), "elsewhere")
	os.Mkdir(other, 0o755)
	ni, nl := filepath.Join(other, "y-images-idx3-ubyte"), filepath.Join(other, "y-labels-idx1-ubyte.gz")
	if err := d.SaveAs(ni, nl, nil); err != nil {
		t.Fatal(err)
	}
	if notes := strings.Join(d.LastSave().Notes, " "); !strings.Contains(notes, filepath.Base(nl+ClassNamesSuffix)) {
		t.Errorf("the save does not say it wrote the class names: %q", notes)
	}
	if d.ClassNamesFile() != nl+ClassNamesSuffix {
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
	if err := nd.SaveAs(fi, fl, nil); err != nil {
		t.Fatal(err)
	}
	nd.Close()
	if b, err := os.ReadFile(fl + ClassNamesSuffix); err != nil || string(b) != "\none\ntwo\n" {
		t.Fatalf("the new dataset's class names: %q, %v", b, err)
	}
}
