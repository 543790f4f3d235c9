package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/ui/convert"
)

// kaggleCSV writes a Kaggle CSV of n 28×28 samples, sample i labelled label(i).
func kaggleCSV(t *testing.T, path string, n int, label func(i int) int) {
	t.Helper()
	var b strings.Builder
	b.WriteString("label")
	for k := range 784 {
		fmt.Fprintf(&b, ",pixel%d", k)
	}
	b.WriteString("\n")
	for i := range n {
		fmt.Fprint(&b, label(i))
		for k := range 784 {
			v := 0
			if k/28 >= 6 && k/28 < 22 && k%28 >= 10+i%5 && k%28 < 14+i%5 {
				v = 200
			}
			fmt.Fprintf(&b, ",%d", v)
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A Kaggle CSV opened in the window is written as an IDX pair beside it, which the window then
// shows (and so holds its lock). Opened again, "Convert Again, Replacing Them" closes that pair
// first (asking about its unsaved edits) and writes the file over it: before, the window's own
// lock refused the conversion with an error saying the pair was open "in this idxlabel
// (another window)", a window that does not exist, and nothing was replaced.
func TestConvertAgainOverThePairOnScreen(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "digits.csv")
	kaggleCSV(t, csv, 20, func(i int) int { return i % 10 })
	images, labels, _ := convert.Outputs(csv)
	w := newTestWindow(t)
	shows := func(label0 int) func() bool {
		return func() bool {
			cur, _ := w.c.ds.Paths()
			return !w.jobs.Busy() && cur == images && w.c.ds.Len() == 20 && w.c.ds.Label(0) == label0
		}
	}
	w.files.open([]string{csv})
	waitFor(t, shows(0))
	if err := w.c.edit(func() error { return w.c.ds.Relabel([]int{1}, 3) }); err != nil {
		t.Fatal(err)
	}

	// The file changed since (every label 7), opened again: convert it again over the pair. The
	// pair on screen has an unsaved edit: the window asks about it first (Discard).
	kaggleCSV(t, csv, 20, func(int) int { return 7 })
	w.files.open([]string{csv})
	if key, _ := w.d.Top(); key != "convert exists" {
		t.Fatalf("opened again: prompt %q, want the question about the pair there", key)
	}
	tapButton(t, w, "Convert Again, Replacing Them")
	if key, _ := w.d.Top(); key != "unsaved" {
		t.Fatalf("converting again over the pair on screen with an unsaved edit: prompt %q, want the question about it", key)
	}
	tapButton(t, w, "Discard")
	waitFor(t, func() bool {
		key, open := w.d.Top()
		return !w.jobs.Busy() && (shows(7)() || open && strings.HasPrefix(key, "error"))
	})
	if key, open := w.d.Top(); open {
		t.Fatalf("converting again over the pair on screen: prompt %q: %s", key, overlayText(w))
	}
	if got, _ := os.ReadFile(labels); len(got) == 0 {
		t.Fatalf("%s not written", labels)
	}
}
