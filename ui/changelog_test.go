package ui

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/ui/dialogs"
)

// menuItem returns the item labelled label in the main menu's menu called menu.
func menuItem(t *testing.T, w *window, menu, label string) *fyne.MenuItem {
	t.Helper()
	for _, m := range w.menu.menu.Items {
		if m.Label != menu {
			continue
		}
		for _, it := range m.Items {
			if it.Label == label {
				return it
			}
		}
	}
	t.Fatalf("no %s → %s", menu, label)
	return nil
}

// overlayTexts returns the texts of the labels and the prompt entries in the top overlay.
func overlayTexts(w *window) (labels []string, entries []*dialogs.PromptEntry) {
	walkOverlay(w, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *dialogs.PromptEntry:
			entries = append(entries, x)
		case *widget.Label:
			labels = append(labels, x.Text)
		}
	})
	return labels, entries
}

// readCSV reads a change log: its header and rows without the when column (checked to be set).
func readCSV(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for k, r := range recs {
		if k > 0 && r[4] == "" {
			t.Fatalf("row %d has no time: %v", k, r)
		}
		out = append(out, strings.Join(r[:4], ","))
	}
	return out
}

// TestExportChangeLogFromTheMenu checks the change log in the window, on the demo dataset: edits
// made the ways a person makes them (a digit on one tile, a digit on a range, Delete, a drawing, a
// review decision accepted and one typed and undone) appear in File → Export Change Log…'s CSV with
// how they were made; saves append the same entries to <labels>.changes.csv while File → Write
// Change Log on Save is checked, and say so when they cannot.
func TestExportChangeLogFromTheMenu(t *testing.T) {
	w, ds := demoWindow(t, true)
	q := queueUI(w)
	g := w.grid
	var want []string
	row := func(i, from, to int, how string) {
		label := func(l int) string {
			if l == sample.NoLabel {
				return ""
			}
			return strconv.Itoa(l)
		}
		want = append(want, strings.Join([]string{strconv.Itoa(i), label(from), label(to), how}, ","))
	}
	// A digit on one tile: manual.
	test.TapAt(g, tileCenter(g, 4))
	l4 := ds.Label(4)
	test.Type(g, strconv.Itoa((l4+1)%10))
	row(4, l4, (l4+1)%10, "manual")
	// A digit on a Shift range of three: batch.
	test.TapAt(g, tileCenter(g, 10))
	g.MouseDown(&desktop.MouseEvent{Modifier: fyne.KeyModifierShift})
	test.TapAt(g, tileCenter(g, 12))
	g.MouseUp(&desktop.MouseEvent{})
	for i := 10; i <= 12; i++ {
		if ds.Label(i) != 3 {
			row(i, ds.Label(i), 3, "batch")
		}
	}
	test.Type(g, "3")
	// Delete.
	test.TapAt(g, tileCenter(g, 20))
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	row(20, ds.Label(20), sample.NoLabel, "deleted")
	// A drawing: added-drawn.
	w.draw.Show()
	w.sugg.Drop() // no suggestions needed here
	drawSeven(w.draw.Open())
	w.draw.Open().Pad.TypedRune('7')
	w.draw.Open().Pad.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	n := ds.Len() - 1
	if ds.Label(n) != 7 {
		t.Fatalf("the drawing was not added: %d samples", ds.Len())
	}
	row(n, sample.NoLabel, 7, "added-drawn")
	w.draw.Open().Win.Close()
	// The review: Enter accepts the suggestion; a digit that is neither is manual, and undone.
	w.susp.Find()
	waitUI(t, q, func() bool { return !w.jobs.Busy() })
	w.scans.Stop()
	if !(w.c.mode != browsing) || w.c.v.Len() < 2 {
		t.Fatalf("no review of the demo's mislabelled digits: %d shown", w.c.v.Len())
	}
	first := w.c.v.At(0)
	s := w.susp.Mode.List.Of[first]
	row(first, ds.Label(first), s.Suggested, "suspect-accepted")
	g.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	second := w.c.v.At(1)
	other := 0
	for other == ds.Label(second) || other == w.susp.Mode.List.Of[second].Suggested {
		other++
	}
	test.Type(g, strconv.Itoa(other))
	if ds.Label(second) != other || w.susp.Mode.List.How(second, other) != store.HowManual {
		t.Fatalf("typed %d on a suspect: label %d", other, ds.Label(second))
	}
	w.c.undo()
	w.side.showList.SetSelected("All")

	// File → Export Change Log…: the dialog counts the changes; Enter writes the file.
	menuItem(t, w, "File", "Export Change Log…").Action()
	labels, entries := overlayTexts(w)
	if len(entries) != 1 || !strings.Contains(strings.Join(labels, "\n"), strconv.Itoa(len(want))+" changes since the files were opened") {
		t.Fatalf("the dialog shows %q with %d fields; want %d changes", labels, len(entries), len(want))
	}
	out := filepath.Join(t.TempDir(), "demo-changelog.csv")
	entries[0].SetText(out)
	if !w.d.Key(&fyne.KeyEvent{Name: fyne.KeyReturn}) {
		t.Fatal("Enter did not export")
	}
	waitUI(t, q, func() bool { l, _ := overlayTexts(w); return strings.Contains(strings.Join(l, " "), "written to") })
	got := readCSV(t, out)
	if !reflect.DeepEqual(got, append([]string{"index,original,new,how"}, want...)) {
		t.Fatalf("exported\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	w.d.Key(&fyne.KeyEvent{Name: fyne.KeyEscape})

	// Save As beside a folder planted where the change log goes: saved, and the person is told.
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "demo-images-idx3-ubyte"), filepath.Join(dir, "demo-labels-idx1-ubyte")
	cp := lp + store.ChangesSuffix
	os.Mkdir(cp, 0o755)
	w.save.run(func(ctx context.Context, p func(float64)) error { return ds.SaveAsContext(ctx, ip, lp, p) }, nil)
	waitUI(t, q, func() bool { return !w.jobs.Busy() })
	if l, _ := overlayTexts(w); ds.Dirty() || !strings.Contains(strings.Join(l, " "), cp) {
		t.Fatalf("after a save without its change log: dirty %v, shown %q", ds.Dirty(), l)
	}
	w.d.Key(&fyne.KeyEvent{Name: fyne.KeyReturn})
	os.Remove(cp)
	// The preference off: a save writes no change log.
	pref := menuItem(t, w, "File", "Write Change Log on Save")
	if !pref.Checked {
		t.Fatal("the change log is off by default")
	}
	pref.Action()
	if pref.Checked || w.app.Preferences().Bool(changeLogPref) {
		t.Fatal("the menu item did not turn the change log off")
	}
	test.TapAt(g, tileCenter(g, 30))
	l30 := ds.Label(30)
	test.Type(g, strconv.Itoa((l30+1)%10))
	w.save.save()
	waitUI(t, q, func() bool { return !w.jobs.Busy() })
	if _, err := os.Lstat(cp); !os.IsNotExist(err) {
		t.Fatalf("a change log was written while off: %v", err)
	}
	// On again: the next save appends everything held back.
	pref.Action()
	w.save.save()
	waitUI(t, q, func() bool { return !w.jobs.Busy() })
	got = readCSV(t, cp)
	// Sample 30 of the saved files was the session's 31st: sample 20 before it was deleted.
	want = append(want, "31,"+strconv.Itoa(l30)+","+strconv.Itoa((l30+1)%10)+",manual")
	if !reflect.DeepEqual(got, append([]string{"index,original,new,how"}, want...)) {
		t.Fatalf("%s:\n%s", cp, strings.Join(got, "\n"))
	}
}
