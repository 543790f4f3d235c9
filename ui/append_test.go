package ui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/store"
)

// writeTestPair writes n generated h×w samples (sample k all pixels k%256, label k%10) as a
// pair in dir and returns its paths.
func writeTestPair(t *testing.T, dir, base string, n, h, w int) (string, string) {
	t.Helper()
	images, err := idx.New(idx.UByte, n, h, w)
	if err != nil {
		t.Fatal(err)
	}
	labels, err := idx.New(idx.UByte, n)
	if err != nil {
		t.Fatal(err)
	}
	for k := range n {
		for j := range h * w {
			images.Data[k*h*w+j] = byte(k % 256)
		}
		labels.Data[k] = byte(k % 10)
	}
	ip, lp := filepath.Join(dir, base+"-images-idx3-ubyte"), filepath.Join(dir, base+"-labels-idx1-ubyte")
	if err := pairfile.WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// File → Append Dataset adds the other pair's samples at the end, in order, with their labels
// and pixels, as added samples (badged +), and one Undo removes them all.
func TestAppendDataset(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, _ string) {
		n := ds.Len()
		ip, _ := writeTestPair(t, t.TempDir(), "extra", 300, 28, 28)
		q := queueUI(w)
		w.build.Append.Run([]string{ip})
		waitUI(t, q, func() bool { return noJobs(w) })
		if ds.Len() != n+300 {
			t.Fatalf("%d samples after appending 300 to %d (dialog: %q, status %q)", ds.Len(), n, overlayText(w), w.footer.status.Text)
		}
		for _, k := range []int{0, 1, 137, 299} {
			st := ds.State(n + k)
			if !st.Added || !st.Unsaved || st.Label != k%10 {
				t.Fatalf("appended sample %d: state %+v, want added, label %d", k, st, k%10)
			}
			if px := ds.Pixels(n + k); !bytes.Equal(px, bytes.Repeat([]byte{byte(k)}, 28*28)) {
				t.Fatalf("appended sample %d has other pixels", k)
			}
		}
		if w.c.v.Len() != n+300 {
			t.Fatalf("the grid shows %d samples", w.c.v.Len())
		}
		if got := ds.UndoName(); got != "Add 300 samples" {
			t.Fatalf("Undo says %q", got)
		}
		w.c.undo()
		if ds.Len() != n || ds.Dirty() {
			t.Fatalf("after one Undo: %d samples, dirty %v", ds.Len(), ds.Dirty())
		}
	})
}

// A pair of another size is refused, saying both sizes, and nothing is added.
func TestAppendDatasetOtherSize(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, _ string) {
		n := ds.Len()
		ip, _ := writeTestPair(t, t.TempDir(), "big", 5, 32, 32)
		q := queueUI(w)
		w.build.Append.Run([]string{ip})
		waitUI(t, q, func() bool { return noJobs(w) })
		if ds.Len() != n {
			t.Fatalf("%d samples after a refused append", ds.Len())
		}
		if text := overlayText(w); !strings.Contains(text, "32×32") || !strings.Contains(text, "28×28") {
			t.Fatalf("the error says %q", text)
		}
	})
}

// A damaged pair (an image file cut short) is refused naming the file; nothing is added.
func TestAppendDatasetDamaged(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, _ string) {
		q := queueUI(w)
		n := ds.Len()
		ip, _ := writeTestPair(t, t.TempDir(), "cut", 20, 28, 28)
		if err := os.Truncate(ip, 16+5*784); err != nil {
			t.Fatal(err)
		}
		w.build.Append.Run([]string{ip})
		waitUI(t, q, func() bool { return noJobs(w) })
		if ds.Len() != n {
			t.Fatalf("%d samples after appending a damaged pair", ds.Len())
		}
		if text := overlayText(w); !strings.Contains(text, "cut-images-idx3-ubyte") {
			t.Fatalf("the error says %q", text)
		}
	})
}

// The other pair's class names join the open dataset's by merge's rule: names of classes the
// open dataset does not name are added; a class named two ways, or a name on two classes, is
// refused before anything is added, naming both.
func TestAppendDatasetClassNames(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, _ string) {
		q := queueUI(w)
		n := ds.Len()
		if err := ds.SetClassNames(map[int]string{0: "zero", 1: "one"}); err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		ip, lp := writeTestPair(t, dir, "named", 10, 28, 28)
		if err := pairfile.WriteClassNames(lp+pairfile.ClassNamesSuffix, map[int]string{1: "one", 2: "two"}); err != nil {
			t.Fatal(err)
		}
		w.build.Append.Run([]string{ip})
		waitUI(t, q, func() bool { return noJobs(w) })
		if ds.Len() != n+10 || ds.ClassName(0) != "zero" || ds.ClassName(2) != "two" {
			t.Fatalf("%d appended, names %q %q (window: %q)", ds.Len()-n, ds.ClassName(0), ds.ClassName(2), overlayText(w))
		}
		for _, bad := range []map[int]string{{1: "uno"}, {5: "zero"}} {
			ip, lp := writeTestPair(t, t.TempDir(), "clash", 10, 28, 28)
			if err := pairfile.WriteClassNames(lp+pairfile.ClassNamesSuffix, bad); err != nil {
				t.Fatal(err)
			}
			w.build.Append.Run([]string{ip})
			waitUI(t, q, func() bool { return noJobs(w) })
			if text := overlayText(w); ds.Len() != n+10 || !strings.Contains(text, "clash-labels-idx1-ubyte.classes.txt") || !strings.Contains(text, "the open dataset") {
				t.Fatalf("names %v: %d appended; the window says %q", bad, ds.Len()-n-10, text)
			}
			w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		}
	})
}

// A marks file beside the appended pair that does not fit it (damaged here) is told as Open
// tells it, once the samples are added: they come without those marks, so the person learns
// why accepted suggestions of that pair now count as typed labels.
func TestAppendDatasetTellsMarksNotice(t *testing.T) {
	eachPair(t, func(t *testing.T, w *window, ds *store.Dataset, _, _ string) {
		n := ds.Len()
		ip, lp := writeTestPair(t, t.TempDir(), "marked", 20, 28, 28)
		marks := pairfile.AcceptedMarks.File(lp)
		if err := os.WriteFile(marks, []byte("not a marks file\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		q := queueUI(w)
		w.build.Append.Run([]string{ip})
		waitUI(t, q, func() bool { return noJobs(w) })
		if ds.Len() != n+20 {
			t.Fatalf("%d samples after appending 20 to %d (dialog: %q)", ds.Len(), n, overlayText(w))
		}
		if text := overlayText(w); !strings.Contains(text, filepath.Base(marks)) {
			t.Fatalf("after appending a pair whose accepted-marks file is damaged, the window shows %q (status %q), no note naming %s", text, w.footer.status.Text, filepath.Base(marks))
		}
	})
}
