package widgets

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

// scoredTiles is blankTiles with a label and a score on every badge ("7  0.973"), as More like
// this badges its list.
type scoredTiles struct{ *mnistTiles }

func (s scoredTiles) Badge(p int) (Badge, bool) {
	return Badge{Text: fmt.Sprintf("%d  %.3f", p%10, 1-float64(p)/1000)}, true
}

// placedBadges lays the grid out at zoom z and returns its badges as placed: each one's
// background and text, in the order of the tiles in sight.
func placedBadges(t *testing.T, g *TileGrid, z int) ([]*canvas.Rectangle, []*canvas.Text) {
	t.Helper()
	g.SetZoom(z)
	r := test.WidgetRenderer(g).(*tileGridRenderer)
	r.Layout(g.Size())
	r.Refresh()
	return r.backs[:r.nbadges], r.texts[:r.nbadges]
}

// A badge never reaches past its tile: at the smallest tiles (28×28 samples at zoom 1), a
// label and a score ("7  0.973") are wider than the tile and ran into the next tile, whose
// badge then covered their end ("7  0.98" beside "7  0.979", which number was whose unclear).
// Every badge lies within its own tile's sample at every zoom, and says its whole text where
// that fits (zoom 3).
func TestBadgesStayWithinTheirTiles(t *testing.T) {
	test.NewTempApp(t)
	g := NewTileGrid(&gridAsks{}, nil)
	w := test.NewWindow(g)
	defer w.Close()
	w.Resize(fyne.NewSize(900, 600))
	src := scoredTiles{blankTiles(2000)}
	g.SetSource(src)
	for _, z := range []int{MinZoom, 2, DefaultZoom} {
		backs, texts := placedBadges(t, g, z)
		ge := g.Geometry()
		if len(backs) == 0 {
			t.Fatalf("zoom %d: no badges placed", z)
		}
		row0 := int(g.Offset() / ge.CellH)
		for k, b := range backs {
			p := row0*ge.Cols + k
			left := ge.X0 + float32(p%ge.Cols)*ge.CellW + ge.Unit // the tile's sample
			right := left + 28*ge.Unit
			if b.Position().X < left || b.Position().X+b.Size().Width > right+0.01 {
				full, _ := src.Badge(p)
				t.Fatalf("zoom %d: tile %d's badge %q (of %q) spans %.1f … %.1f units, its tile's sample %.1f … %.1f",
					z, p, texts[k].Text, full.Text, b.Position().X, b.Position().X+b.Size().Width, left, right)
			}
			if z == DefaultZoom {
				if full, _ := src.Badge(p); texts[k].Text != full.Text {
					t.Fatalf("zoom %d: tile %d's badge says %q; there is room for %q", z, p, texts[k].Text, full.Text)
				}
			}
		}
	}
}

// shortTiles badges like scoredTiles and says, where that does not fit, the label alone.
type shortTiles struct{ scoredTiles }

func (s shortTiles) Badge(p int) (Badge, bool) {
	b, _ := s.scoredTiles.Badge(p)
	b.Short = fmt.Sprint(p % 10)
	return b, true
}

// Where a badge's text does not fit its tile, the grid shows its Short (the label, without the
// score) when the source gives one, and otherwise the text cut to fit, ending in "…".
func TestNarrowTileShowsTheShortBadge(t *testing.T) {
	test.NewTempApp(t)
	g := NewTileGrid(&gridAsks{}, nil)
	w := test.NewWindow(g)
	defer w.Close()
	w.Resize(fyne.NewSize(900, 600))
	g.SetSource(shortTiles{scoredTiles{blankTiles(2000)}})
	_, texts := placedBadges(t, g, MinZoom)
	row0 := int(g.Offset() / g.Geometry().CellH)
	for k, x := range texts {
		if want := fmt.Sprint((row0*g.Geometry().Cols + k) % 10); x.Text != want {
			t.Fatalf("badge %d says %q at the smallest tiles, want its short form %q", k, x.Text, want)
		}
	}
	g.SetSource(scoredTiles{blankTiles(2000)})
	_, texts = placedBadges(t, g, MinZoom)
	if x := texts[0].Text; len(x) < 4 || x[len(x)-3:] != "…" || x[:1] != "0" {
		t.Fatalf("a badge without a short form says %q at the smallest tiles, want its text cut to fit with …", x)
	}
}
