package plot

import (
	"image/color"
	"math"
)

// Style is how pictures are coloured. Light and Dark are the two themes.
type Style struct {
	Background color.RGBA // behind everything
	Text       color.RGBA // labels and counts on the background
	Faint      color.RGBA // points without a class, grid lines, hidden cells
	Mark       color.RGBA // rings of suspects, outlines of edited samples, the cursor
	Alert      color.RGBA // crosses on outliers
	Select     color.RGBA // the halo of selected samples
	// Cell is the colour of the largest count in a confusion chart; counts shade from
	// Background toward it.
	Cell color.RGBA
	// Radius is a map point's radius in pixels (default 1.5: 3×3 pixels).
	Radius float64
}

// Light returns the style for a light theme.
func Light() Style {
	return Style{
		Background: color.RGBA{255, 255, 255, 255},
		Text:       color.RGBA{20, 20, 20, 255},
		Faint:      color.RGBA{190, 190, 190, 255},
		Mark:       color.RGBA{0, 0, 0, 255},
		Alert:      color.RGBA{200, 0, 0, 255},
		Select:     color.RGBA{255, 200, 0, 255},
		Cell:       color.RGBA{8, 48, 107, 255},
		Radius:     1.5,
	}
}

// Dark returns the style for a dark theme.
func Dark() Style {
	return Style{
		Background: color.RGBA{24, 24, 27, 255},
		Text:       color.RGBA{235, 235, 235, 255},
		Faint:      color.RGBA{90, 90, 95, 255},
		Mark:       color.RGBA{255, 255, 255, 255},
		Alert:      color.RGBA{255, 80, 80, 255},
		Select:     color.RGBA{255, 210, 0, 255},
		Cell:       color.RGBA{120, 190, 255, 255},
		Radius:     1.5,
	}
}

// tab10 is matplotlib's ten-colour categorical palette (Tableau 10).
var tab10 = []color.RGBA{
	{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255},
	{148, 103, 189, 255}, {140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255},
	{188, 189, 34, 255}, {23, 190, 207, 255},
}

// Palette returns n distinct class colours: Tableau 10 for the first ten, then hues spaced by
// the golden angle at two alternating lightnesses (for EMNIST's 26, 47 or 62 classes).
func Palette(n int) []color.RGBA {
	out := make([]color.RGBA, n)
	for k := range n {
		if k < len(tab10) {
			out[k] = tab10[k]
			continue
		}
		h := math.Mod(float64(k-len(tab10))*137.508, 360)
		l := 0.45
		if k%2 == 1 {
			l = 0.62
		}
		out[k] = hsl(h, 0.65, l)
	}
	return out
}

// hsl converts a hue (degrees), saturation and lightness (0–1) to an opaque colour.
func hsl(h, s, l float64) color.RGBA {
	c := (1 - math.Abs(2*l-1)) * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := l - c/2
	var r, g, b float64
	switch {
	case h < 60:
		r, g = c, x
	case h < 120:
		r, g = x, c
	case h < 180:
		g, b = c, x
	case h < 240:
		g, b = x, c
	case h < 300:
		r, b = x, c
	default:
		r, b = c, x
	}
	return color.RGBA{uint8(255 * (r + m)), uint8(255 * (g + m)), uint8(255 * (b + m)), 255}
}

// mixRGB returns a + (b − a)·t for t in 0–1, opaque.
func mixRGB(a, b color.RGBA, t float64) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*t + 0.5) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 255}
}
