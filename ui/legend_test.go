package ui

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/jobs"
)

// A dataset without samples advertises what adds some (draw, import), not relabelling or
// suspects, which act on none; once a sample is drawn the usual keys return.
func TestEmptyDatasetLegend(t *testing.T) {
	w := newTestWindow(t)
	for _, when := range []string{"nothing open", "new dataset"} {
		if when == "new dataset" {
			ds, err := store.New(28, 28, nil, nil, filepath.Join(t.TempDir(), "new"+pairfile.JournalSuffix))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { ds.Close() })
			w.c.setDataset(ds, "untitled", false)
		}
		legend := legendKeys(w)
		if !strings.Contains(legend, "Ctrl+D draw") || !strings.Contains(legend, "Ctrl+I import") || strings.Contains(legend, "relabel") || strings.Contains(legend, "suspects") {
			t.Fatalf("%s: the legend says %q", when, legend)
		}
	}
	if _, err := w.c.add(store.HowAddedDrawn, []store.Sample{{Pixels: make([]byte, 28*28), Label: 3}}); err != nil {
		t.Fatal(err)
	}
	if legend := legendKeys(w); !strings.Contains(legend, "relabel") {
		t.Fatalf("with a sample: the legend says %q", legend)
	}
}

// The Edit menu writes numbers as the rest of the window does: "Undo Delete 1,200 samples", as
// the status bar's "Deleted 1,200 samples".
func TestMenuNumbersAsTheWindowWritesThem(t *testing.T) {
	w, _ := demoWindow(t, false)
	images, _ := idx.New(idx.UByte, 1200, 28, 28)
	labels, _ := idx.New(idx.UByte, 1200)
	ds, err := store.FromArrays(images, labels, nil, filepath.Join(t.TempDir(), "big"+pairfile.JournalSuffix), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Abandon(); ds.Close() })
	w.c.setDataset(ds, "big", false)
	w.c.selectAll()
	w.c.toggleDelete()
	undo := menuItem(t, w, "Edit", "Undo Delete 1,200 samples")
	if undo.Disabled || !strings.Contains(w.footer.status.Text, "Deleted 1,200 samples") {
		t.Fatalf("status %q", w.footer.status.Text)
	}
}

// F1 and ? open the keyboard reference, from the grid and with nothing focused; Escape closes
// it. They did nothing.
func TestHelpKeys(t *testing.T) {
	w, _ := demoWindow(t, true)
	for _, open := range []func(){
		func() { w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyF1}) },
		func() { test.Type(w.grid, "?") },
		func() { w.win.Canvas().Unfocus(); w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyF1}) },
		func() { w.win.Canvas().Unfocus(); w.keys.canvasRune('?') },
	} {
		open()
		if text := overlayText(w); !strings.Contains(text, "Keyboard") || !strings.Contains(text, "Edit → Undo") {
			t.Fatalf("the dialog on top says %q", text)
		}
		w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if w.win.Canvas().Overlays().Top() != nil {
			t.Fatal("Escape did not close the keyboard reference")
		}
	}
}

// A job's progress ("CNN scan: model 6/6, epoch 14/14, 12s left") shows in full at the status
// bar's right in the default 1280-unit window, however long the status line: the status line
// gives way (it was the end of the status line, and cut off).
func TestJobProgressIsNotCutOff(t *testing.T) {
	w, _, _, _ := demoPairWindow(t, "a-dataset-with-a-rather-long-name-as-people-give-them", store.Options{})
	w.c.relabel(3)
	const note = "CNN scan: model 6/6, epoch 14/14, 12s left"
	job := w.jobs.Start(jobs.Training, note)
	defer w.jobs.Finish(job)
	w.c.renderCursor()
	p := w.footer.progress
	if p.Text != note || !p.Visible() || p.Size().Width < p.MinSize().Width || p.Truncation != fyne.TextTruncateOff {
		t.Fatalf("progress %q visible %v, %v wide for %v", p.Text, p.Visible(), p.Size().Width, p.MinSize().Width)
	}
	if pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(p); pos.X+p.Size().Width > w.win.Canvas().Size().Width {
		t.Fatalf("the progress ends at %v, past the window's %v", pos.X+p.Size().Width, w.win.Canvas().Size().Width)
	}
	// A message on the status bar stays while the job ticks.
	w.c.say("Sample 12 is not in the Suspects review")
	w.jobs.SetNote(job, "CNN scan: model 6/6, epoch 14/14, 11s left")
	w.c.showProgress()
	if w.footer.status.Text != "Sample 12 is not in the Suspects review" || !strings.HasSuffix(p.Text, "11s left") {
		t.Fatalf("after a tick: status %q, progress %q", w.footer.status.Text, p.Text)
	}
	w.jobs.Finish(job)
	w.c.renderCursor()
	if p.Visible() {
		t.Fatal("the progress stays after the job")
	}
}
