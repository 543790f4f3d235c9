package sheets

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/disintegration/imaging"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// The colours a preview draws each state of box in.
var (
	FilledColour  = color.RGBA{0, 150, 60, 255}    // a sample: green
	EmptyColour   = color.RGBA{150, 150, 150, 255} // no ink: grey
	FlaggedColour = color.RGBA{220, 30, 30, 255}   // ink crossing a line: red
	SkippedColour = color.RGBA{90, 110, 200, 255}  // not read: blue
)

// Preview draws the sheet at most maxSide pixels on its longer side (as decoded when smaller):
// the page in grey (shrunk through imaging's linear filter, a tent as wide as the shrink on each
// side, so a fine pattern or thin stroke is averaged, not aliased: its box filter, whole pixels
// in or out, left stripes a pixel apart as bands of ±14 grey levels), the grid's outline, every box's outline in its state's colour and, inside
// its top left corner, its label (a flagged box's with "!"; a skipped box's "–"), and how far
// the page was turned when it was. A sheet whose grid was not found (Read's Sheet with only
// its Image) is drawn as the page alone. It is what a window shows before anything is imported, and
// what import-sheets' contact sheet is made of. Memory: 4 bytes a pixel of the preview.
func (s *Sheet) Preview(maxSide int) *image.RGBA {
	W, H := s.Image.Rect.Dx(), s.Image.Rect.Dy()
	scale := min(1, float64(maxSide)/float64(max(W, H)))
	w, h := max(1, int(float64(W)*scale)), max(1, int(float64(H)*scale))
	var small image.Image = s.Image
	if w != W || h != H {
		small = imaging.Resize(s.Image, w, h, imaging.Linear)
	}
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(out, out.Rect, small, small.Bounds().Min, draw.Src)
	at := func(p Point) Point { return Point{p.X * scale, p.Y * scale} }
	for _, b := range s.Boxes {
		c := stateColour(b.State)
		for k := range 4 {
			drawLine(out, at(b.Corners[k]), at(b.Corners[(k+1)%4]), c, 1)
		}
	}
	for k := range 4 {
		if len(s.Boxes) > 0 { // a sheet whose grid was not found has no outline
			drawLine(out, at(s.Corners[k]), at(s.Corners[(k+1)%4]), gridColour, 2)
		}
	}
	for _, b := range s.Boxes {
		text := fmt.Sprint(b.Label)
		switch b.State {
		case Flagged:
			text = "!" + text
		case Skipped:
			text = "-"
		}
		// Inside the box's upright top left corner, whichever way the page lies.
		p := at(b.Corners[0])
		q := at(b.Corners[2])
		x := p.X + (q.X-p.X)*0.08
		y := p.Y + (q.Y-p.Y)*0.08
		label(out, int(x), int(y), text, stateColour(b.State))
	}
	if s.Turned != 0 {
		label(out, 4, 2, fmt.Sprintf("turned %d degrees", s.Turned), gridColour) // the 7×13 font has no °
	}
	return out
}

func stateColour(s State) color.RGBA {
	switch s {
	case Filled:
		return FilledColour
	case Flagged:
		return FlaggedColour
	case Skipped:
		return SkippedColour
	}
	return EmptyColour
}

// drawLine draws a line width pixels wide from a to b.
func drawLine(m *image.RGBA, a, b Point, c color.RGBA, width int) {
	n := int(math.Ceil(max(math.Abs(b.X-a.X), math.Abs(b.Y-a.Y)))) + 1
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		x, y := int(a.X+t*(b.X-a.X)), int(a.Y+t*(b.Y-a.Y))
		for dy := range width {
			for dx := range width {
				if image.Pt(x+dx, y+dy).In(m.Rect) {
					m.SetRGBA(x+dx, y+dy, c)
				}
			}
		}
	}
}

// label writes text with its top left at (x, y) in a 7×13 pixel font, on a white ground so it
// reads over anything.
func label(m *image.RGBA, x, y int, text string, c color.RGBA) {
	face := basicfont.Face7x13
	d := font.Drawer{Dst: m, Src: image.NewUniform(c), Face: face}
	w := d.MeasureString(text).Ceil()
	draw.Draw(m, image.Rect(x-1, y, x+w+1, y+13), image.White, image.Point{}, draw.Src)
	d.Dot = fixed.P(x, y+11)
	d.DrawString(text)
}
