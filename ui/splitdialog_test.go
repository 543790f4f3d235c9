package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/idx"
)

// Tools → Split Dataset on t10k with the defaults (0.2, stratified, seed 1) writes
// t10k-train-* and t10k-test-* beside it: 8,000 and 2,000 samples, each class's test count
// within one sample of a fifth, then offers to open one; Split again asks before replacing.
func TestSplitDialog(t *testing.T) {
	w, ds, ip, _ := testWindow(t)
	q := queueUI(w)
	w.build.split.splitDialog()
	_, entries := overlayTexts(w)
	if len(entries) != 4 {
		t.Fatalf("Split Dataset shows %d text fields", len(entries))
	}
	if entries[2].Text != "t10k-train" || entries[3].Text != "t10k-test" {
		t.Fatalf("proposed names %q, %q", entries[2].Text, entries[3].Text)
	}
	entries[0].TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	waitUI(t, q, func() bool { return noJobs(w) })
	if text := overlayText(w); !strings.Contains(text, "Open Train") || !strings.Contains(text, "2,000 samples") && !strings.Contains(text, "2000 samples") {
		t.Fatalf("after the split the dialog says %q", text)
	}
	dir := filepath.Dir(ip)
	count := func(name string) []int {
		l, err := idx.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		per := make([]int, 10)
		for k := range l.Dims[0] {
			per[l.Int(k)]++
		}
		return per
	}
	train, test := count("t10k-train-labels-idx1-ubyte.gz"), count("t10k-test-labels-idx1-ubyte.gz")
	all := ds.Counts()
	nTest := 0
	for c := range 10 {
		nTest += test[c]
		if train[c]+test[c] != all[c].Count {
			t.Fatalf("class %d: %d + %d samples, the dataset has %d", c, train[c], test[c], all[c].Count)
		}
		if d := float64(test[c]) - 0.2*float64(all[c].Count); d <= -1 || d >= 1 {
			t.Fatalf("class %d: %d of %d in the test part", c, test[c], all[c].Count)
		}
	}
	if nTest != 2000 {
		t.Fatalf("%d samples in the test part", nTest)
	}
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) // Close
	w.build.split.splitDialog()
	_, entries = overlayTexts(w)
	entries[0].TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	waitUI(t, q, func() bool { return noJobs(w) })
	if text := overlayText(w); !strings.Contains(text, "Replace?") {
		t.Fatalf("a second split over the files: the dialog says %q", text)
	}
}

// With unsaved edits, Split Dataset asks to save them first (it splits the saved files).
func TestSplitAsksToSaveFirst(t *testing.T) {
	w, ds, _, _ := testWindow(t)
	if err := ds.Relabel([]int{0}, 1); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	w.build.split.splitDialog()
	if text := overlayText(w); !strings.Contains(text, "Save them first") {
		t.Fatalf("Split with unsaved edits: the dialog says %q", text)
	}
}

// The names proposed come from the open pair's.
func TestSplitNames(t *testing.T) {
	for in, want := range map[string][2]string{
		"/d/x-images-idx3-ubyte.gz":              {"x-train", "x-test"},
		"/d/train-images-idx3-ubyte":             {"train-train", "train-test"},
		"/d/emnist-letters-train-images.idx3.gz": {"emnist-letters-train-train", "emnist-letters-train-test"},
	} {
		if a, b := splitNames(in); a != want[0] || b != want[1] {
			t.Errorf("%s: %s, %s; want %v", in, a, b, want)
		}
	}
}
