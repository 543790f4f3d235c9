package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/export"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/health"
	"idxlabel/ui/widgets"
)

// File → Export Health Report… after a check: the report of that check is written in the
// background (the check's findings with the planted copies and leaks, the class histogram, the
// confusion matrix and the map); a second export asks "Replace?" (Enter: no, the report stays);
// a folder that is not a report is refused; Cancel leaves nothing; without a check, the export
// runs one first. A report written replaces an earlier "not written" in the status bar.
func TestExportHealthReport(t *testing.T) {
	eachPlanted(t, func(t *testing.T, pc plantedCheck) {
		w, q, _ := pc.open(t)
		k := w.check
		against := []string{pc.otherImg, pc.otherLabel}
		k.Remember(pc.images, pc.labels, against)
		k.Start(against)
		waitUI(t, q, func() bool { return k.Check().Job == nil })
		run := k.Check()

		confirm := func() {
			t.Helper()
			menuItem(t, w, "File", "Export Health Report…").Action()
			e, ok := w.win.Canvas().Focused().(*dialogs.PromptEntry)
			if !ok || e.Text != pc.otherImg || !strings.Contains(overlayText(w), "Write the report to") {
				t.Fatalf("the dialog: %q", overlayText(w))
			}
			e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		}
		w.c.say("The health report was not written (cancelled)") // an earlier export's, as its Cancel says it
		confirm()
		if k.Check() != run || !k.Reporting() || !k.Mode.View.Running.Visible() || !strings.HasPrefix(k.Mode.View.Note.Text, "Writing the health report") {
			t.Fatalf("the export did not start on the check's findings: %q", k.Mode.View.Note.Text)
		}
		waitUI(t, q, func() bool { return !k.Reporting() })
		dir := health.ReportDir(pc.images, pc.labels)
		html, err := os.ReadFile(filepath.Join(dir, "index.html"))
		if err != nil {
			t.Fatalf("%v (the window says %q)", err, overlayText(w))
		}
		page := string(html)
		for _, want := range []string{"Health check of small-images-idx3-ubyte", "Confusion matrix", "Map of the dataset", "train-images-idx3-ubyte"} {
			if !strings.Contains(page, want) {
				t.Errorf("the report lacks %q", want)
			}
		}
		for _, f := range []string{"label.png", "outlier.png", "duplicate.png", "leak.png", "classes.png", "section-1.png", "section-2.png"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("the report lacks %s", f)
			}
		}
		row := func(a, b int) string { return fmt.Sprintf(`<td class="n">%d</td><td class="n">%d</td>`, a, b) }
		for at, src := range pc.set.Duplicates {
			if !strings.Contains(page, row(min(at, src), max(at, src))) {
				t.Errorf("the report does not list the planted copy %d of %d", at, src)
			}
		}
		for at, src := range pc.set.Leaks {
			if !strings.Contains(page, row(at, src)) {
				t.Errorf("the report does not list the planted leak %d of %d", at, src)
			}
		}
		if !strings.Contains(overlayText(w), "Health report written") {
			t.Fatalf("the window says %q", overlayText(w))
		}
		if status := w.c.out.footer.status.Text; strings.Contains(status, "not written") {
			t.Fatalf("after the report was written, the status bar still says %q", status)
		}
		w.d.Key(&fyne.KeyEvent{Name: fyne.KeyEscape})

		// Again: "Replace?"; Enter answers no and the report stays; Yes replaces it.
		stamp := func() int64 {
			fi, err := os.Stat(filepath.Join(dir, "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			return fi.ModTime().UnixNano()
		}
		was := stamp()
		confirm()
		waitUI(t, q, func() bool { return strings.Contains(overlayText(w), "Replace?") })
		w.d.Key(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if q.run(); k.Reporting() || stamp() != was {
			t.Fatal("Enter on \"Replace?\" replaced the report")
		}
		confirm()
		waitUI(t, q, func() bool { return strings.Contains(overlayText(w), "Replace?") })
		tapButton(t, w, "Yes")
		waitUI(t, q, func() bool { return !k.Reporting() && stamp() != was })
		w.d.Key(&fyne.KeyEvent{Name: fyne.KeyEscape})

		// Anything but a report is refused, untouched.
		photos := filepath.Join(t.TempDir(), "photos")
		os.Mkdir(photos, 0o755)
		os.WriteFile(filepath.Join(photos, "a.png"), []byte("x"), 0o644)
		k.WriteReport(run, photos, false)
		waitUI(t, q, func() bool { return !k.Reporting() })
		if msg := overlayText(w); !strings.Contains(msg, "not an idxlabel report") {
			t.Fatalf("the window says %q", msg)
		}
		if b, _ := os.ReadFile(filepath.Join(photos, "a.png")); string(b) != "x" {
			t.Fatal("the refused folder was changed")
		}
		w.d.Key(&fyne.KeyEvent{Name: fyne.KeyEscape})

		// Cancel leaves nothing.
		gone := filepath.Join(t.TempDir(), "cancelled")
		k.WriteReport(run, gone, false)
		k.Mode.View.Cancel.OnTapped()
		waitUI(t, q, func() bool { return !k.Reporting() })
		if _, err := os.Stat(gone); err == nil {
			t.Fatal("a cancelled report was written")
		}
		if left, _ := filepath.Glob(filepath.Join(filepath.Dir(gone), ".*")); len(left) != 0 {
			t.Fatalf("left behind: %v", left)
		}
	})
}

// Export Health Report… without a check runs the check, then writes its report.
func TestExportHealthReportRunsCheck(t *testing.T) {
	eachPlanted(t, func(t *testing.T, pc plantedCheck) {
		w, q, _ := pc.open(t)
		k := w.check
		menuItem(t, w, "File", "Export Health Report…").Action()
		e, ok := w.win.Canvas().Focused().(*dialogs.PromptEntry)
		if !ok || e.Text != "" {
			t.Fatal("the dialog offers another set for a pair never checked")
		}
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if k.Check() == nil || k.Check().Job == nil || w.c.mode != w.check.Mode {
			t.Fatal("no check started")
		}
		waitUI(t, q, func() bool { return k.Check().Job == nil && !k.Reporting() && k.Waiting() == 0 })
		page, err := os.ReadFile(filepath.Join(health.ReportDir(pc.images, pc.labels), "index.html"))
		if err != nil || !strings.Contains(string(page), "Map of the dataset") || strings.Contains(string(page), "Checked against") {
			t.Fatalf("the report: %v", err)
		}
		if at, err := export.ReportAt(health.ReportDir(pc.images, pc.labels)); !at || err != nil {
			t.Fatalf("not a report: %v", err)
		}
	})
}

// tapButton taps the button labelled text in the dialog on top of the window (a passing
// button, as every button of the window is: TestEveryButtonPasses).
func tapButton(t *testing.T, w *window, text string) {
	t.Helper()
	var b *widgets.PassingButton
	walkOverlay(w, func(o fyne.CanvasObject) {
		if x, ok := o.(*widgets.PassingButton); ok && x.Text == text {
			b = x
		}
	})
	if b == nil {
		t.Fatalf("no %q button in %q", text, overlayText(w))
	}
	test.Tap(b)
}
