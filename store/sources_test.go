package store

import (
	"os"
	"slices"
	"strings"
	"testing"

	"idxlabel/pairfile"
)

// sourcesOf returns every sample's source.
func sourcesOf(d *Dataset) []string {
	out := make([]string, d.Len())
	for i := range out {
		out[i] = d.Source(i)
	}
	return out
}

// px16 is a 4×4 sample of one grey level.
func px16(v byte) []byte { return []byte{v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v} }

// Each appended sample keeps its source: journaled with the append, so that a window that dies
// before saving gets them back on replay; written on save to the sources file beside the labels,
// one line a sample (empty for none), and read back when the pair opens; a deletion saved keeps
// them aligned; the change log says the source of each sample added.
func TestSourcesJournaledSavedAndReadBack(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 4)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Append([]Sample{{Pixels: px16(1), Label: 1, Source: "1/a.png"}, {Pixels: px16(2), Label: 2}, {Pixels: px16(3), Label: 3, Source: "3/b\nc.png"}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"", "", "", "", "1/a.png", "", "3/b\uFFFDc.png"}
	if got := sourcesOf(d); !slices.Equal(got, want) {
		t.Fatalf("sources %q, want %q", got, want)
	}
	if log := d.ChangeLog(); len(log) != 3 || log[0].Source != "1/a.png" || log[1].Source != "" || log[2].Source != "3/b\uFFFDc.png" {
		t.Fatalf("change log %+v", log)
	}
	// A crash: the journal replays the sources.
	d.Close()
	d, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { d.Close() }()
	if _, err := d.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if got := sourcesOf(d); !slices.Equal(got, want) {
		t.Fatalf("sources after replay %q, want %q", got, want)
	}
	if log := d.ChangeLog(); len(log) != 3 || log[0].Source != "1/a.png" {
		t.Fatalf("change log after replay %+v", log)
	}
	// A save that drops sample 4 keeps the others aligned, in the file and in the dataset.
	mustDo(t, d.Delete([]int{4}))
	mustDo(t, d.Save(nil))
	want = []string{"", "", "", "", "", "3/b\uFFFDc.png"}
	if got := sourcesOf(d); !slices.Equal(got, want) {
		t.Fatalf("sources after the save %q, want %q", got, want)
	}
	sp := lp + pairfile.SourcesSuffix
	if b, err := os.ReadFile(sp); err != nil || string(b) != "\n\n\n\n\n3/b\uFFFDc.png\n" {
		t.Fatalf("the sources file %q (%v)", b, err)
	}
	d.Close()
	d, err = Open(ip, lp, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := sourcesOf(d); !slices.Equal(got, want) || len(d.Notices()) != 0 {
		t.Fatalf("sources read back %q, notices %q", got, d.Notices())
	}
	// The changes file says the source of the sample added.
	if b, _ := os.ReadFile(lp + ChangesSuffix); !strings.Contains(string(b), ",added-imported,") || !strings.Contains(string(b), ",3/b\uFFFDc.png\n") {
		t.Fatalf("the changes file %s", b)
	}
}

// A pair none of whose samples has a source has no sources file: a save writes none, and removes
// the one an earlier save left when the samples with sources are gone.
func TestNoSourcesNoFile(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 3)
	sp := lp + pairfile.SourcesSuffix
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { d.Close() }()
	mustDo(t, d.Relabel([]int{0}, 5))
	if _, err := d.AppendAs(HowAddedDrawn, []Sample{{Pixels: px16(9), Label: 9}}); err != nil {
		t.Fatal(err)
	}
	mustDo(t, d.Save(nil))
	if _, err := os.Lstat(sp); !os.IsNotExist(err) {
		t.Fatalf("a sources file for a pair without sources: %v", err)
	}
	if _, err := d.Append([]Sample{{Pixels: px16(8), Label: 8, Source: "x.png"}}); err != nil {
		t.Fatal(err)
	}
	mustDo(t, d.Save(nil))
	if b, err := os.ReadFile(sp); err != nil || string(b) != "\n\n\n\nx.png\n" {
		t.Fatalf("the sources file %q (%v)", b, err)
	}
	mustDo(t, d.Delete([]int{4}))
	mustDo(t, d.Save(nil))
	if _, err := os.Lstat(sp); !os.IsNotExist(err) {
		t.Fatalf("the sources file of samples all gone was left: %v", err)
	}
}

// A sources file that does not fit the pair (another number of lines, a line too long, a FIFO) is
// left out with a notice naming it; the pair opens.
func TestSourcesFileThatDoesNotFit(t *testing.T) {
	ip, lp := tinyPair(t, t.TempDir(), 3)
	sp := lp + pairfile.SourcesSuffix
	for name, content := range map[string]string{
		"two lines for three samples": "a\nb\n",
		"a line too long":             "a\n" + strings.Repeat("x", pairfile.MaxSource+1) + "\nc\n",
	} {
		os.WriteFile(sp, []byte(content), 0o644)
		d, err := Open(ip, lp, Options{ReadOnly: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := sourcesOf(d); !slices.Equal(got, []string{"", "", ""}) || len(d.Notices()) != 1 || !strings.Contains(d.Notices()[0], sp) {
			t.Fatalf("%s: sources %q, notices %q", name, got, d.Notices())
		}
	}
	os.Remove(sp)
	if err := mkfifo(sp); err == nil {
		d, err := Open(ip, lp, Options{ReadOnly: true})
		if err != nil || len(d.Notices()) != 1 || !strings.Contains(d.Notices()[0], "not a regular file") {
			t.Fatalf("a FIFO: %v, notices %q", err, d.Notices())
		}
	}
}

// The sources of an append undone before a save come back when it is redone after it (the
// history record carries them), and after a crash too; a journal an older idxlabel wrote (an
// append record without sources) replays with none.
func TestSourcesThroughHistoryAndOldRecords(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 2)
	e, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { e.Close() }()
	if _, err := e.Append([]Sample{{Pixels: px16(1), Label: 1, Source: "s.png"}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Undo(); err != nil {
		t.Fatal(err)
	}
	mustDo(t, e.Save(nil)) // the append, undone, is carried on the redo stack
	if _, _, err := e.Redo(); err != nil {
		t.Fatal(err)
	}
	if got := sourcesOf(e); !slices.Equal(got, []string{"", "", "s.png"}) {
		t.Fatalf("sources after redo past a save %q", got)
	}
	e.Close()
	e, err = Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.ReplayJournal(); err != nil {
		t.Fatal(err)
	}
	if got := sourcesOf(e); !slices.Equal(got, []string{"", "", "s.png"}) {
		t.Fatalf("sources after a crash past a save and a redo %q", got)
	}
	e.Close()

	// An older idxlabel's append record: no sources after the pixels.
	ip2, lp2 := tinyPair(t, t.TempDir(), 2)
	old := enc{recAppend}.prov(provenance{how: HowAddedImported}).u32(1).u32(16).i32(4).bytes(px16(5))
	f, err := replayCrafted(t, ip2, lp2, old)
	if err != nil {
		t.Fatal(err)
	}
	if f.Len() != 3 || f.Label(2) != 4 || f.Source(2) != "" {
		t.Fatalf("an old append record: %d samples, label %d, source %q", f.Len(), f.Label(2), f.Source(2))
	}
}

// Sources are bounded where they come in: cleaned when appended and when read from a record, and
// a record whose source is longer than pairfile.MaxSource is refused.
func TestSourceRecordBounds(t *testing.T) {
	ip, lp := tinyPair(t, t.TempDir(), 2)
	long := enc{recAppend}.prov(provenance{how: HowAddedImported}).u32(1).u32(16).i32(4).bytes(px16(5)).u16(pairfile.MaxSource + 1).bytes(make([]byte, pairfile.MaxSource+1))
	if _, err := replayCrafted(t, ip, lp, long); err == nil || !strings.Contains(err.Error(), "a source of 4097 bytes") {
		t.Fatalf("a record with a source over the bound: %v", err)
	}
	ip2, lp2 := tinyPair(t, t.TempDir(), 2)
	hostile := enc{recAppend}.prov(provenance{how: HowAddedImported}).u32(1).u32(16).i32(4).bytes(px16(5)).u16(5).bytes([]byte("a\x1b[2J"))
	f, err := replayCrafted(t, ip2, lp2, hostile)
	if err != nil || f.Source(2) != "a\uFFFD[2J" {
		t.Fatalf("a record's source with an escape: %q, %v", f.Source(2), err)
	}
}

// SourceAt reads a source only at the generation asked for, as SampleAt reads a sample: an index
// from before a change (a save that dropped a sample) is refused, not read against the new
// numbering, and one past the end is refused rather than panicking.
func TestSourceAtRefusesOlderGeneration(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 2)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Append([]Sample{{Pixels: px16(1), Label: 1, Source: "1/a.png"}, {Pixels: px16(2), Label: 2, Source: "2/b.png"}}); err != nil {
		t.Fatal(err)
	}
	g := d.Gen()
	if s, ok := d.SourceAt(g, 3); !ok || s != "2/b.png" {
		t.Fatalf("current read: %q %v", s, ok)
	}
	if s, ok := d.SourceAt(g, 0); !ok || s != "" {
		t.Fatalf("a sample without a source: %q %v", s, ok)
	}
	mustDo(t, d.Delete([]int{2}))
	mustDo(t, d.Save(nil))
	if _, ok := d.SourceAt(g, 3); ok {
		t.Fatal("a read from before the save was accepted")
	}
	if s, ok := d.SourceAt(d.Gen(), 2); !ok || s != "2/b.png" {
		t.Fatalf("after the save: %q %v", s, ok)
	}
	if _, ok := d.SourceAt(d.Gen(), 3); ok {
		t.Fatal("a read past Len was accepted")
	}
}
