package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/idx"
	"idxlabel/internal/numfmt"
	"idxlabel/store"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/widgets"
)

// Tools → Split Dataset with the defaults (0.2, stratified, seed 1) writes <base>-train-* and
// <base>-test-* beside the pair (t10k: 8,000 and 2,000 samples), each class's test count within
// one sample of a fifth, then offers to open one (and the status bar no longer says an earlier
// split's "nothing was written"); Split again asks before replacing.
func TestSplitDialog(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, ip, _ string) {
		q := queueUI(w)
		w.c.say("Split cancelled: nothing was written") // an earlier split's, as its Cancel says it
		w.build.Split.Dialog()
		_, entries := overlayTexts(w)
		if len(entries) != 5 { // test part, group column, seed, train, test
			t.Fatalf("Split Dataset shows %d text fields", len(entries))
		}
		base := dialogs.BaseName(ip) // t10k
		if entries[3].Text != base+"-train" || entries[4].Text != base+"-test" {
			t.Fatalf("proposed names %q, %q", entries[3].Text, entries[4].Text)
		}
		entries[0].TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		waitUI(t, q, func() bool { return noJobs(w) })
		fifth := ds.Len() / 5 // 2,000 on t10k
		if text := overlayText(w); !strings.Contains(text, "Open Train") || !strings.Contains(text, numfmt.Sprintf("%d samples", fifth)) {
			t.Fatalf("after the split the dialog says %q", text)
		}
		if status := w.c.out.footer.status.Text; strings.Contains(status, "nothing was written") {
			t.Fatalf("after the split wrote its pairs, the status bar still says %q", status)
		}
		dir := filepath.Dir(ip)
		countIn := func(name string) []int {
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
		train, test := countIn(base+"-train-labels-idx1-ubyte.gz"), countIn(base+"-test-labels-idx1-ubyte.gz")
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
		if nTest != fifth {
			t.Fatalf("%d samples in the test part", nTest)
		}
		w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) // Close
		w.build.Split.Dialog()
		_, entries = overlayTexts(w)
		entries[0].TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		waitUI(t, q, func() bool { return noJobs(w) })
		if text := overlayText(w); !strings.Contains(text, "Replace?") {
			t.Fatalf("a second split over the files: the dialog says %q", text)
		}
	})
}

// With unsaved edits, Split Dataset asks to save them first (it splits the saved files).
func TestSplitAsksToSaveFirst(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, _ string) {
		if err := ds.Relabel([]int{0}, 1); err != nil {
			t.Fatal(err)
		}
		w.c.drain()
		w.build.Split.Dialog()
		if text := overlayText(w); !strings.Contains(text, "Save them first") {
			t.Fatalf("Split with unsaved edits: the dialog says %q", text)
		}
	})
}

// A test part given as a number of samples, with Shuffle: the test part holds that many, and
// its samples are not in the file's order.
func TestSplitDialogCountShuffle(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, _ *store.Dataset, ip, _ string) {
		q := queueUI(w)
		w.build.Split.Dialog()
		var checks []*widgets.PassingCheck
		walkOverlay(w, func(o fyne.CanvasObject) {
			if c, ok := o.(*widgets.PassingCheck); ok {
				checks = append(checks, c)
			}
		})
		_, entries := overlayTexts(w)
		entries[0].SetText("1000")
		for _, c := range checks {
			if strings.HasPrefix(c.Text, "Shuffle") {
				c.SetChecked(true)
			}
		}
		entries[0].TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		waitUI(t, q, func() bool { return noJobs(w) })
		dir := filepath.Dir(ip)
		all, err := idx.ReadFile(ip)
		if err != nil {
			t.Fatal(err)
		}
		test, err := idx.ReadFile(filepath.Join(dir, dialogs.BaseName(ip)+"-test-images-idx3-ubyte.gz"))
		if err != nil {
			t.Fatal(err)
		}
		if test.Dims[0] != 1000 {
			t.Fatalf("%d samples in the test part, asked for 1000", test.Dims[0])
		}
		// In the file's order, each test sample's position in the pair would grow; shuffled, it
		// falls.
		size := 28 * 28
		where := map[string]int{}
		for k := range all.Dims[0] {
			where[string(all.Data[k*size:(k+1)*size])] = k
		}
		falls := 0
		for k := 1; k < test.Dims[0]; k++ {
			if where[string(test.Data[k*size:(k+1)*size])] < where[string(test.Data[(k-1)*size:k*size])] {
				falls++
			}
		}
		if falls < 300 {
			t.Fatalf("the test part is in the file's order (%d of 999 steps fall): Shuffle was not applied", falls)
		}
	})
}
