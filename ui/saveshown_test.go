package ui

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/build"
)

// saveShownThrough opens File → Save Shown As, types folder and base name and presses Enter.
func saveShownThrough(t *testing.T, w *window, q *uiQueue, dir, base string) {
	t.Helper()
	w.build.Shown.Dialog()
	_, entries := overlayTexts(w)
	if len(entries) != 2 {
		t.Fatalf("Save Shown As shows %d text fields", len(entries))
	}
	entries[0].SetText(dir)
	entries[1].SetText(base)
	w.win.Canvas().Focus(entries[1])
	entries[1].TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	waitUI(t, q, func() bool { return noJobs(w) })
}

// noJobs reports whether no job runs in w (a job that holds no edits too: busy misses those).
func noJobs(w *window) bool { return w.jobs.Running() == 0 }

// Save Shown As writes what the grid shows (class 3, one of them relabelled, one marked
// deleted and left out), in the grid's order, as a new pair; the dataset stays as it was. A
// second save over it asks first, and No leaves the files as they were.
func TestSaveShownAs(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, _ string) {
		q := queueUI(w)
		size := ds.Len() // 10,000 on t10k
		three := 3
		w.c.setClass(&three)
		n := w.c.v.Len()
		if n != countOf(ds, 3) { // 1,010 on t10k
			t.Fatalf("class 3 shows %d samples", n)
		}
		first, second := w.c.v.At(0), w.c.v.At(1)
		if err := ds.Relabel([]int{first}, 5); err != nil {
			t.Fatal(err)
		}
		if err := ds.Delete([]int{second}); err != nil {
			t.Fatal(err)
		}
		w.c.drain()
		if err := ds.SetClassNames(map[int]string{3: "three", 5: "five"}); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		saveShownThrough(t, w, q, dir, "three")
		ip, lp := filepath.Join(dir, "three-images-idx3-ubyte.gz"), filepath.Join(dir, "three-labels-idx1-ubyte.gz")
		images, err := idx.ReadFile(ip)
		if err != nil {
			t.Fatalf("%v (dialog %q)", err, overlayText(w))
		}
		labels, err := idx.ReadFile(lp)
		if err != nil {
			t.Fatal(err)
		}
		if images.Dims[0] != n-1 || labels.Dims[0] != n-1 {
			t.Fatalf("wrote %v images, %v labels; the grid shows %d, one deleted", images.Dims, labels.Dims, n)
		}
		k := 0
		for p := range w.c.v.Len() {
			i := w.c.v.At(p)
			if i == second {
				continue
			}
			if !bytes.Equal(images.Data[k*784:(k+1)*784], ds.Pixels(i)) || int(labels.Int(k)) != ds.Label(i) {
				t.Fatalf("output sample %d is not shown sample %d as edited", k, i)
			}
			k++
		}
		if labels.Int(0) != 5 {
			t.Fatalf("the relabelled sample was written as %d", labels.Int(0))
		}
		names, err := pairfile.ReadClassNames(lp + ".classes.txt")
		if err != nil || names[3] != "three" || names[5] != "five" {
			t.Fatalf("class names written: %v, %v", names, err)
		}
		if !ds.Dirty() || ds.Len() != size {
			t.Fatal("Save Shown As changed the dataset")
		}
		before, _ := os.Stat(ip)
		saveShownThrough(t, w, q, dir, "three")
		if text := overlayText(w); !strings.Contains(text, "Replace?") {
			t.Fatalf("a second save over the files: the dialog says %q", text)
		}
		w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // Enter answers No
		if after, _ := os.Stat(ip); !after.ModTime().Equal(before.ModTime()) {
			t.Fatal("No replaced the files")
		}
	})
}

// A pair whose journal holds unsaved edits is never replaced, even once the person confirms:
// the error names the journal.
func TestSaveShownAsRefusesAJournalsPair(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, _ *store.Dataset, _, _ string) {
		dir := t.TempDir()
		ip, lp := writeTestPair(t, dir, "held", 10, 28, 28)
		other, err := store.Open(ip, lp, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := other.Relabel([]int{0}, 9); err != nil {
			t.Fatal(err)
		}
		other.Close() // the journal stays, holding the edit
		keep, _, _ := w.build.Shown.Shown()
		w.build.Shown.Write(build.ShownPair{Keep: keep[:5], Images: ip, Labels: lp}, true)
		if text := overlayText(w); !strings.Contains(text, pairfile.JournalSuffix) {
			t.Fatalf("writing over a pair whose journal holds edits: the dialog says %q", text)
		}
		got, err := idx.ReadFile(ip)
		if err != nil || got.Dims[0] != 10 {
			t.Fatalf("the pair was replaced: %v, %v", got, err)
		}
		if !errors.Is(pairfile.RefuseUnsaved(ip), pairfile.ErrUnsavedEdits) {
			t.Fatal("the journal was lost")
		}
	})
}

// The open pair itself is never an output, even confirmed: the error says so and the files stay.
func TestSaveShownAsRefusesTheOpenPair(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, ip, lp string) {
		before, _ := os.Stat(ip)
		n := ds.Len()
		keep, _, _ := w.build.Shown.Shown()
		w.build.Shown.Write(build.ShownPair{Keep: keep[:10], Images: ip, Labels: lp}, true)
		if text := overlayText(w); !strings.Contains(text, "output is the input") {
			t.Fatalf("writing over the open pair: the dialog says %q", text)
		}
		if after, _ := os.Stat(ip); !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() || ds.Len() != n {
			t.Fatal("the open pair was replaced")
		}
	})
}

// Save Shown As's progress passes keys on: a digit typed while it writes relabels the sample at
// the cursor of the dataset shown at once (an export holds no edits), and Escape is the progress's
// Cancel. Before, the progress was shown outside the window's dialogs: the digit was dropped and
// Escape did nothing.
func TestSaveShownAsKeysWhileItRuns(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, _ string) {
		q := queueUI(w)
		w.c.moveCursor(0, false)
		i := w.c.v.Current()
		l := ds.Label(i)
		dir := t.TempDir()
		w.build.Shown.Dialog()
		_, entries := overlayTexts(w)
		if len(entries) != 2 {
			t.Fatalf("Save Shown As shows %d text fields", len(entries))
		}
		entries[0].SetText(dir)
		entries[1].SetText("all")
		w.win.Canvas().Focus(entries[1])
		entries[1].TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // the job starts; its end waits in q
		if noJobs(w) || !w.d.Passing() {
			t.Fatal("Save Shown As runs under no progress passing keys on")
		}
		w.keys.canvasRune(rune('0' + (l+1)%10))
		if ds.Label(i) != (l+1)%10 {
			t.Fatalf("a digit typed during Save Shown As left sample %d labelled %d", i, ds.Label(i))
		}
		w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		waitUI(t, q, func() bool { return noJobs(w) })
		if w.d.Passing() {
			t.Fatal("the progress is still open once the job ended")
		}
		// Escape met the job writing or done: cancelled, nothing written; or written whole.
		status := w.c.out.footer.status.Text
		_, err := os.Stat(filepath.Join(dir, "all-images-idx3-ubyte.gz"))
		switch {
		case strings.HasPrefix(status, "Save Shown As cancelled") && err == nil:
			t.Fatal("the cancelled Save Shown As wrote its images")
		case !strings.HasPrefix(status, "Save Shown As cancelled") && !strings.HasPrefix(status, "Saved "):
			t.Fatalf("after Escape the status bar says %q", status)
		}
	})
}
