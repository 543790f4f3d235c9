package sheets

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"path/filepath"
	"strings"
)

// MaxContactPixels is the size a contact sheet's tiles are chosen to fill: 24 megapixels, one
// byte each (a palette). MaxContactSheets bounds the sheets it shows (at the smallest tiles,
// about 19 megapixels); the rest are only reported.
const (
	MaxContactPixels = 24_000_000
	MaxContactSheets = 1000
)

// The contact sheet's tiles: at most 480 pixels wide, at least 96, an A4 page's shape (portrait)
// above two lines of caption.
const (
	maxTile     = 480
	minTile     = 96
	pageRatio   = 1.42
	captionRows = 2
	lineHeight  = 14
	tileCols    = 6
)

// Contact is a contact sheet of sheets read: each sheet's preview (Sheet.Preview: the boxes
// found and their labels over the page) in a grid of tiles, captioned with its file name, what
// its boxes held or why it gave nothing. It is drawn one sheet at a time, as they are read.
type Contact struct {
	img          *image.Paletted
	cols, tw, th int
}

// contactGreys is the number of grey levels of a contact sheet's palette; the colours of the
// boxes' states follow them.
const contactGreys = 248

var contactColours = []color.Color{FilledColour, FlaggedColour, SkippedColour, gridColour}

var gridColour = color.RGBA{30, 90, 220, 255}

// NewContact makes a contact sheet for n sheets (at least 1; at most MaxContactSheets are
// drawn): tiles as large as MaxContactPixels allows, between 96 and 480 pixels wide, up to 6 a
// row. Memory: at most about MaxContactPixels bytes.
func NewContact(n int) *Contact {
	n = min(MaxContactSheets, max(1, n))
	cols := min(n, tileCols)
	rows := (n + cols - 1) / cols
	tileH := func(tw int) int { return int(float64(tw)*pageRatio) + captionRows*lineHeight + 6 }
	tw := maxTile
	for tw > minTile && (cols*(tw+8)+8)*(rows*(tileH(tw)+8)+8) > MaxContactPixels {
		tw--
	}
	th := tileH(tw)
	pal := make(color.Palette, 0, 256)
	for k := range contactGreys {
		v := uint8(k * 255 / (contactGreys - 1))
		pal = append(pal, color.Gray{v})
	}
	pal = append(pal, contactColours...)
	img := image.NewPaletted(image.Rect(0, 0, cols*(tw+8)+8, rows*(th+8)+8), pal)
	for i := range img.Pix {
		img.Pix[i] = contactGreys - 1 // white
	}
	return &Contact{img: img, cols: cols, tw: tw, th: th}
}

// Add draws sheet k's tile: s's preview (nil s: nothing could be decoded) with r's caption; a
// sheet beyond the contact sheet's MaxContactSheets is not drawn.
func (c *Contact) Add(k int, r Report, s *Sheet) {
	x0 := 8 + (k%c.cols)*(c.tw+8)
	y0 := 8 + (k/c.cols)*(c.th+8)
	if y0+c.th > c.img.Rect.Dy() {
		return
	}
	pageH := c.th - captionRows*lineHeight - 6
	if s != nil && s.Image != nil {
		// The preview drawn at the tile's size (a landscape photo fits its width), so its
		// labels are drawn at the size they are seen.
		W, H := float64(s.Image.Rect.Dx()), float64(s.Image.Rect.Dy())
		scale := min(float64(c.tw)/W, float64(pageH)/H)
		side := max(1, int(scale*max(W, H)))
		c.paste(s.Preview(side), x0, y0)
	} else {
		fill := image.Rect(x0, y0, x0+c.tw, y0+pageH)
		for y := fill.Min.Y; y < fill.Max.Y; y++ {
			for x := fill.Min.X; x < fill.Max.X; x++ {
				c.img.Pix[y*c.img.Stride+x] = contactGreys * 7 / 8
			}
		}
	}
	name := filepath.Base(r.Path)
	var line1, line2 string
	var ge *GridError
	switch {
	case r.Err == nil:
		line1 = fmt.Sprintf("%d. %s", k+1, name)
		line2 = fmt.Sprintf("%d filled, %d empty, %d flagged", r.Counts.Filled, r.Counts.Empty, r.Counts.Flagged)
		if r.Turned != 0 {
			line2 += fmt.Sprintf(", turned %d degrees", r.Turned) // the 7×13 font has no °
		}
	case errors.As(r.Err, &ge):
		line1 = fmt.Sprintf("%d. %s: grid not found", k+1, name)
		line2 = ge.Reason
	default:
		line1 = fmt.Sprintf("%d. %s: not read", k+1, name)
		line2 = strings.TrimPrefix(r.Err.Error(), r.Path+": ")
	}
	capY := y0 + pageH + 4
	c.text(x0, capY, line1, color.Black)
	col := color.Color(color.Black)
	if r.Err != nil || r.Counts.Flagged > 0 {
		col = FlaggedColour
	}
	c.text(x0, capY+lineHeight, line2, col)
}

// paste draws m (at most a tile) with its top left at (x0, y0), in the palette's colours.
func (c *Contact) paste(m *image.RGBA, x0, y0 int) {
	w, h := min(m.Rect.Dx(), c.img.Rect.Dx()-x0), min(m.Rect.Dy(), c.img.Rect.Dy()-y0)
	pal := c.img.Palette
	for y := range h {
		for x := range w {
			o := m.PixOffset(x, y)
			r, g, b := m.Pix[o], m.Pix[o+1], m.Pix[o+2]
			var idx uint8
			if r == g && g == b {
				idx = uint8((int(r)*(contactGreys-1) + 127) / 255)
			} else {
				idx = uint8(pal.Index(color.RGBA{r, g, b, 255}))
			}
			c.img.Pix[(y0+y)*c.img.Stride+x0+x] = idx
		}
	}
}

// text writes s, cut to the tile's width, at (x, y) in colour col.
func (c *Contact) text(x, y int, s string, col color.Color) {
	if n := c.tw / 7; len([]rune(s)) > n {
		s = string([]rune(s)[:max(0, n-1)]) + "…"
	}
	tmp := image.NewRGBA(image.Rect(0, 0, c.tw, lineHeight))
	draw.Draw(tmp, tmp.Rect, image.White, image.Point{}, draw.Src)
	r, g, b, _ := col.RGBA()
	label(tmp, 0, 0, s, color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 255})
	c.paste(tmp, x, y)
}

// Image returns the contact sheet.
func (c *Contact) Image() image.Image { return c.img }
