package ui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"idxlabel/export"
	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/testhook"
	"idxlabel/ui/widgets"
)

// TestExportDialogWritesTheDatasetAsItIsNow: File → Export… with Enter in the path field writes
// the PNG tree of the dataset with its unsaved edits in and its deleted samples out.
func TestExportDialogWritesTheDatasetAsItIsNow(t *testing.T) {
	w, ds := demoWindow(t, false)
	q := queueUI(w)
	n := ds.Len()
	if err := ds.Delete([]int{0}); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	to := (ds.Label(1) + 1) % 10
	if err := ds.Relabel([]int{1}, to); err != nil {
		t.Fatal(err)
	}
	w.c.drain()
	w.exp.exportDialog()
	var entries []*dialogs.PromptEntry
	walkOverlay(w, func(o fyne.CanvasObject) {
		if e, ok := o.(*dialogs.PromptEntry); ok {
			entries = append(entries, e)
		}
	})
	if len(entries) != 1 {
		t.Fatalf("the export dialog has %d text fields, want the target", len(entries))
	}
	out := filepath.Join(t.TempDir(), "tree")
	entries[0].SetText(out)
	entries[0].TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	waitUI(t, q, func() bool { return strings.Contains(overlayText(w), "written to") })
	var files []string
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".png") { // samples only, not the export marker
			files = append(files, strings.TrimPrefix(p, out+string(filepath.Separator)))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != n-1 {
		t.Fatalf("%d files exported, want %d (one deleted)", len(files), n-1)
	}
	width := len(strconv.Itoa(n - 1))
	first := filepath.Join(strconv.Itoa(to), strings.Repeat("0", width-1)+"1.png")
	if _, err := os.Stat(filepath.Join(out, first)); err != nil {
		t.Fatalf("the relabelled sample 1 is not exported as %s: %v", first, err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, string(filepath.Separator)+strings.Repeat("0", width)+".png") {
			t.Fatalf("the deleted sample 0 was exported as %s", f)
		}
	}
}

// The export refuses the dataset's own files, and a folder holding them (a PNG export replaces
// its folder whole), with a clear message and nothing written; and it takes the lock that guards
// a file of a pair open for editing elsewhere, as the command-line writers do.
func TestExportRefusesThePairsFilesAndHeldPairs(t *testing.T) {
	w, _, ip, lp := demoPairWindow(t, "mine", store.Options{})
	q := queueUI(w)
	before, err := os.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []struct {
		out  string
		opts export.Options
	}{
		{lp, export.Options{Format: export.CSV}},
		{ip, export.Options{Format: export.NPZ}},
		{filepath.Dir(lp), export.Options{Format: export.PNG, Force: true}},
	} {
		w.exp.run(target.out, target.opts, target.opts.Force)
		q.run()
		if text := strings.ToLower(overlayText(w)); !strings.Contains(text, "cannot export there") || !strings.Contains(text, "write to another") {
			t.Fatalf("export to %s: the window says %q", target.out, text)
		}
		w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	}
	after, err := os.ReadFile(lp)
	if err != nil || string(after) != string(before) || w.jobs.Busy() {
		t.Fatalf("the label file changed (%v) or a job runs", err)
	}
	if _, err := os.Stat(ip); err != nil {
		t.Fatal(err)
	}
	// A CSV export over the label file of another pair open for editing is refused by its lock.
	oi, ol := writeDemoPair(t, t.TempDir(), "other")
	other, err := store.Open(oi, ol, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	w.exp.run(ol, export.Options{Format: export.CSV}, true)
	waitUI(t, q, func() bool { return !w.jobs.Busy() && strings.Contains(overlayText(w), "OK") })
	if text := overlayText(w); !strings.Contains(text, "open for editing") {
		t.Fatalf("export over a held pair's label file: the window says %q", text)
	}
	if _, err := idx.ReadFile(ol); err != nil {
		t.Fatalf("the other pair's label file was replaced: %v", err)
	}
	w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	// Nor over the label file of a pair whose journal holds the unsaved edits of a window that
	// stopped: replacing the file would leave them to be replayed onto other samples.
	other.Close()
	if err := os.WriteFile(ol+pairfile.JournalSuffix, []byte("edits"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.exp.run(ol, export.Options{Format: export.CSV}, true)
	waitUI(t, q, func() bool { return !w.jobs.Busy() && strings.Contains(overlayText(w), "OK") })
	if text := overlayText(w); !strings.Contains(text, "journal") {
		t.Fatalf("export over a pair's label file with a journal of edits: the window says %q", text)
	}
	if _, err := idx.ReadFile(ol); err != nil {
		t.Fatalf("the label file beside a journal of edits was replaced: %v", err)
	}
}

// An export cancelled midway (its Cancel, Escape, once it has written some of its samples: held
// there by testhook.ExportWriteGate, whose file is never made) says so on the status bar, and
// that nothing was written; and nothing is: the folder it wrote in holds nothing afterwards, no
// part of the output and no temporary file or folder, in every format. Before, a cancelled
// export said nothing.
func TestExportCancelledMidwayWritesNothing(t *testing.T) {
	t.Setenv(testhook.ExportWriteGate, filepath.Join(t.TempDir(), "never"))
	w, _, _, _ := digitsWindow(t, 2500) // more than 2 × 1,000: the CSV, .npz and Parquet writers check for a Cancel every 1,000 samples
	q := queueUI(w)
	status := func() string { return w.c.out.footer.status.Text }
	for _, f := range exportFormats {
		dir := t.TempDir()
		out := filepath.Join(dir, "export"+f.suffix)
		w.exp.run(out, export.Options{Format: f.format}, false)
		// Midway: its temporary file or folder is there (the writer waits at the gate).
		waitUI(t, q, func() bool { e, _ := os.ReadDir(dir); return len(e) > 0 })
		if !w.d.Passing() {
			t.Fatalf("%s: no export's progress on top", f.format)
		}
		w.keys.canvasKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		waitUI(t, q, func() bool { return !w.jobs.Busy() && w.jobs.Running() == 0 })
		if got, want := status(), "Export cancelled: nothing was written"; got != want {
			t.Errorf("%s: after its Cancel the status bar says %q, want %q", f.format, got, want)
		}
		if _, open := w.d.Top(); open {
			t.Errorf("%s: a dialog is open after the Cancel: %q", f.format, overlayText(w))
		}
		if e, err := os.ReadDir(dir); err != nil || len(e) != 0 {
			var names []string
			for _, x := range e {
				names = append(names, x.Name())
			}
			t.Errorf("%s: the cancelled export left %v in its folder (%v)", f.format, names, err)
		}
	}
}

// The export dialog's class-folder check box belongs to a PNG tree only: with another format
// chosen it is hidden and leaves no empty row (the form kept its row, a gap between Format and
// Write to).
func TestExportDialogLeavesNoRowForAHiddenCheck(t *testing.T) {
	w, _ := demoWindow(t, false)
	w.exp.exportDialog()
	var format *widgets.DialogSelect
	var form *widget.Form
	walkOverlay(w, func(o fyne.CanvasObject) {
		switch o := o.(type) {
		case *widgets.DialogSelect:
			format = o
		case *widget.Form:
			form = o
		}
	})
	if format == nil || form == nil {
		t.Fatal("the export dialog has no format list or no form")
	}
	png := form.MinSize().Height
	for i := range exportFormats {
		if exportFormats[i].format == export.PNG {
			continue
		}
		format.SetSelectedIndex(i)
		if h := form.MinSize().Height; h >= png {
			t.Fatalf("with %s chosen the export form is %.0f px high, %.0f with PNG's check box shown: the hidden check box keeps its row", exportFormats[i].label, h, png)
		}
	}
}
