package widgets

import (
	"strconv"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/fixture/mnisttest"
)

// mnistTiles is a TileSource over the real t10k images, labelled by their labels, position p
// showing sample p, sample 3 selected.
type mnistTiles struct {
	px     []byte
	labels []byte
	h, w   int
	cursor int
}

func loadTiles(tb testing.TB) *mnistTiles {
	images, labels := mnisttest.Load(tb)
	return &mnistTiles{px: images.Data, labels: labels.Data, h: images.Dims[1], w: images.Dims[2], cursor: 5}
}

// blankTiles is a TileSource of n blank 28×28 samples, for the tests that need no real images.
func blankTiles(n int) *mnistTiles {
	return &mnistTiles{px: make([]byte, n*784), labels: make([]byte, n), h: 28, w: 28, cursor: 5}
}

func (s *mnistTiles) Len() int         { return len(s.labels) }
func (s *mnistTiles) Size() (int, int) { return s.h, s.w }
func (s *mnistTiles) Cursor() int      { return s.cursor }
func (s *mnistTiles) Tile(p int, _ []byte) ([]byte, TileMark, bool) {
	n := s.h * s.w
	return s.px[p*n : (p+1)*n], TileMark{Selected: p == 3}, true
}
func (s *mnistTiles) Badge(p int) (Badge, bool) {
	return Badge{Text: strconv.Itoa(int(s.labels[p]))}, true
}

// gridAsks records what a grid reports.
type gridAsks struct{ keys int }

func (a *gridAsks) TypedRune(rune)                     {}
func (a *gridAsks) TypedKey(*fyne.KeyEvent, bool) bool { return false }
func (a *gridAsks) MoveCursor(int, bool)               {}
func (a *gridAsks) Click(int, bool, bool)              {}
func (a *gridAsks) ContextMenu(int, fyne.Position)     {}
func (a *gridAsks) KeyHandled(fyne.KeyName)            { a.keys++ }

// Laying the grid out sizes it; the offset it scrolled to stays what it was.
func TestGridLayoutKeepsTheOffset(t *testing.T) {
	test.NewTempApp(t)
	g := NewTileGrid(&gridAsks{}, nil)
	w := test.NewWindow(g)
	defer w.Close()
	w.Resize(fyne.NewSize(600, 400))
	g.SetSource(blankTiles(10000))
	g.offset = 1e9
	test.WidgetRenderer(g).Layout(g.Size())
	if g.offset != 1e9 {
		t.Fatalf("Layout moved the scroll offset to %v", g.offset)
	}
}

// BenchmarkMosaicTile is the grid's per-tile cost (what GridWrap's UpdateItem would be): one
// frame of a 1280×820 window at the default zoom draws 9×8 = 72 tiles into the mosaic.
func BenchmarkMosaicTile(b *testing.B) {
	src := loadTiles(b)
	var m mosaic
	const cols, rows = 9, 8
	for b.Loop() {
		m.draw(src, cols, 100, rows, palette{})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(cols*rows), "ns/tile")
}
