package ui

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/build"
)

// An imported sample's source file is shown: in the detail panel for the cursor's sample (in
// full) and on the status bar's sample line (its start cut when long, the file's name kept); a
// sample without one shows none. The change log the window exports says it, and Save Shown As
// writes the sources file beside the pair it writes, one line a sample in the grid's order.
func TestSourcesShownExportedAndSavedShown(t *testing.T) {
	w, ds, _, _ := digitsWindow(t, 200)
	q := queueUI(w)
	long := strings.Repeat("deep/", 20) + "b.png"
	px := make([]byte, 28*28)
	if _, err := w.c.add(store.HowAddedImported, []store.Sample{
		{Pixels: px, Label: 7, Source: "seven/a.png"}, {Pixels: px, Label: 1}, {Pixels: px, Label: 1, Source: long}}); err != nil {
		t.Fatal(err)
	}
	if w.c.v.Current() != 202 {
		t.Fatalf("the cursor is on %d after the add, not the last sample added", w.c.v.Current())
	}
	if !strings.Contains(w.detail.info.Text, "from "+long) {
		t.Fatalf("detail panel %q", w.detail.info.Text)
	}
	pos := w.footer.position.Text
	if !strings.HasSuffix(pos, "deep/b.png") || !strings.Contains(pos, "from …") || len([]rune(pos)) > 80 {
		t.Fatalf("status bar's sample line %q", pos)
	}
	w.c.moveCursor(201, false)
	if strings.Contains(w.detail.info.Text, "from ") || strings.Contains(w.footer.position.Text, "from") {
		t.Fatalf("a sample without a source: detail %q, sample line %q", w.detail.info.Text, w.footer.position.Text)
	}
	w.c.moveCursor(200, false)
	if !strings.Contains(w.detail.info.Text, "from seven/a.png") || !strings.HasSuffix(w.footer.position.Text, "from seven/a.png") {
		t.Fatalf("detail %q, sample line %q", w.detail.info.Text, w.footer.position.Text)
	}

	// File → Export Change Log…: the source column.
	log := filepath.Join(t.TempDir(), "changes.csv")
	w.save.runChangeLogExport(log, false)
	waitUI(t, q, func() bool { _, err := os.Stat(log); return err == nil && noJobs(w) })
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, r := range recs {
		rows = append(rows, strings.Join(append(r[:4:4], r[5]), ","))
	}
	want := []string{"index,original,new,how,source", "200,,7,added-imported,seven/a.png", "201,,1,added-imported,", "202,,1,added-imported," + long}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Fatalf("change log\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}

	// Save Shown As of the added samples: the sources file beside the pair.
	w.side.showList.SetSelected("Added")
	if w.c.v.Len() != 3 {
		t.Fatalf("Added shows %d samples", w.c.v.Len())
	}
	dir := t.TempDir()
	saveShownThrough(t, w, q, dir, "added")
	sp := pairfile.SourcesFile(filepath.Join(dir, "added-images-idx3-ubyte.gz"), filepath.Join(dir, "added-labels-idx1-ubyte.gz"))
	b, err := os.ReadFile(sp)
	if err != nil || string(b) != "seven/a.png\n\n"+long+"\n" {
		t.Fatalf("the sources file %q (%v); dialog %q", b, err, overlayText(w))
	}
	if got, err := pairfile.ReadSources(sp, 3); err != nil || got[2] != long {
		t.Fatalf("read back %q (%v)", got, err)
	}
	// What the grid shows without sources: no sources file, and one left there before is removed
	// (it would name other samples).
	w.side.showList.SetSelected("All")
	one := 1
	w.c.setClass(&one)
	for p := range w.c.v.Len() {
		if i := w.c.v.At(p); i >= 200 {
			ds.Delete([]int{i})
		}
	}
	w.c.drain()
	other := t.TempDir()
	stale := pairfile.SourcesFile(filepath.Join(other, "ones-images-idx3-ubyte.gz"), filepath.Join(other, "ones-labels-idx1-ubyte.gz"))
	if err := os.WriteFile(stale, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	keep, sources, _ := w.build.Shown.Shown()
	if sources != nil {
		t.Fatalf("class 1 without the added samples has sources %q", sources)
	}
	w.build.Shown.Write(build.ShownPair{Keep: keep, Images: filepath.Join(other, "ones-images-idx3-ubyte.gz"), Labels: filepath.Join(other, "ones-labels-idx1-ubyte.gz")}, true)
	waitUI(t, q, func() bool { return noJobs(w) })
	if _, err := os.Stat(filepath.Join(other, "ones-labels-idx1-ubyte.gz")); err != nil {
		t.Fatalf("no pair written: %v; dialog %q", err, overlayText(w))
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("a stale sources file stayed beside a pair without sources (%v)", err)
	}
}
