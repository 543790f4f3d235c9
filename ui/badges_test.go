package ui

import (
	"image/color"
	"math"
	"path/filepath"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/widgets"
)

// luminance is WCAG 2's relative luminance of c.
func luminance(c color.Color) float64 {
	r, g, b, _ := color.NRGBAModel.Convert(c).RGBA()
	lin := func(v uint32) float64 {
		x := float64(v>>8) / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is WCAG 2's contrast ratio of a and b (1 to 21).
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// over composites c (non-premultiplied alpha) over the opaque colour under.
func over(c color.NRGBA, under color.RGBA) color.RGBA {
	a := float64(c.A) / 255
	mix := func(x, y uint8) uint8 { return uint8(math.Round(a*float64(x) + (1-a)*float64(y))) }
	return color.RGBA{mix(c.R, under.R), mix(c.G, under.G), mix(c.B, under.B), 255}
}

// A deleted sample's badge reads at 7:1 or more (WCAG's AAA for small text) over every pixel of
// a deleted tile, from its background (grey level 0) to its ink (255); tiles and badges are the
// same in both themes. Before, red text on the tile's dark red reached 5.4:1.
func TestDeletedBadgeIsReadable(t *testing.T) {
	b := tileMarks{classes: classes.Names{Digits: true}}.badge(0, store.State{Label: 7, Deleted: true})
	back := widgets.BadgeBack
	if b.Back != nil {
		back = b.Back.(color.NRGBA)
	}
	for _, g := range []uint8{0, 64, 128, 192, 255} {
		r, gr, bl := widgets.DeletedTint(g)
		if c := contrast(b.Color, over(back, color.RGBA{r, gr, bl, 255})); c < 7 {
			t.Errorf("deleted badge over grey level %d: contrast %.1f:1", g, c)
		}
	}
}

// Every tile of a 28×28 dataset has its badge at the smallest tile size too (they vanished
// below zoom 2); a tiny sample's tile (1×1 pixels: a few units) gets none, rather than badges
// piled over each other.
func TestBadgesAtTheSmallestTiles(t *testing.T) {
	w, ds := demoWindow(t, true)
	w.grid.SetZoom(widgets.MinZoom)
	texts := badgeTexts(w.grid)
	first := tileMarks{classes: w.c.classes}.badge(0, ds.State(0)).Text
	if len(texts) != ds.Len() || texts[0] != first {
		t.Fatalf("%d badges for %d tiles in sight at zoom %d: %v", len(texts), ds.Len(), w.grid.Zoom(), texts[:min(5, len(texts))])
	}
	images, _ := idx.New(idx.UByte, 3, 1, 1)
	labels, _ := idx.New(idx.UByte, 3)
	tiny, err := store.FromArrays(images, labels, nil, filepath.Join(t.TempDir(), "tiny"+pairfile.JournalSuffix), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tiny.Abandon(); tiny.Close() })
	w.c.setDataset(tiny, "tiny", false)
	w.grid.SetZoom(widgets.DefaultZoom)
	if texts := badgeTexts(w.grid); len(texts) != 0 {
		t.Fatalf("1×1 tiles at zoom %d carry badges %v", w.grid.Zoom(), texts)
	}
}
