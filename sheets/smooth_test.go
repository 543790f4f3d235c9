package sheets

import (
	"image"
	"math"
	"math/rand/v2"
	"testing"
)

// areaAverage is the mean over each k×k square, each pixel weighted by the share of it the
// square covers: checked against that sum taken pixel by pixel, for whole and fractional k.
func TestAreaAverageIsTheMeanOverEachSquare(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	g := image.NewGray(image.Rect(0, 0, 37, 29))
	for k := range g.Pix {
		g.Pix[k] = uint8(rng.IntN(256))
	}
	r := image.Rect(3, 2, 35, 27)
	for _, k := range []float64{1, 1.3, 2, 2.57, 4.1} {
		a := areaAverage(g, r, k)
		if want := image.Rect(0, 0, int(math.Ceil(float64(r.Dx())/k)), int(math.Ceil(float64(r.Dy())/k))); a.Rect != want {
			t.Fatalf("k %.2f: %v, want %v", k, a.Rect, want)
		}
		for i := range a.Rect.Dy() {
			for j := range a.Rect.Dx() {
				x0, x1 := float64(j)*k, min(float64(r.Dx()), float64(j+1)*k)
				y0, y1 := float64(i)*k, min(float64(r.Dy()), float64(i+1)*k)
				var s, sw float64
				for y := range r.Dy() {
					for x := range r.Dx() {
						ox := max(0, min(x1, float64(x+1))-max(x0, float64(x)))
						oy := max(0, min(y1, float64(y+1))-max(y0, float64(y)))
						s += ox * oy * float64(g.Pix[(r.Min.Y+y)*g.Stride+r.Min.X+x])
						sw += ox * oy
					}
				}
				if got, want := float64(a.Pix[i*a.Stride+j]), s/sw; math.Abs(got-want) > 0.6 {
					t.Fatalf("k %.2f, pixel (%d, %d): %v, want %.2f", k, j, i, got, want)
				}
			}
		}
	}
}

// A box of 3,640 pixels a side (a page ruled in a few large boxes, at 600 dpi) is cropped
// about 2.2 times more coarsely than the page: each crop pixel must then stand for the page
// averaged over it, not for the page sampled at its centre, which would alias. On one page:
//   - a patch of stripes one pixel wide, a pixel apart (finer than the crop can show), read
//     as an even grey, half the stripes' ink; sampled every 2.2 pixels of the page itself
//     they beat into bands of full ink and none (moiré);
//   - a stroke one pixel thin crossing the box, read as an unbroken line: every crop row it
//     crosses holds at least an eighth of its ink, where sampling the page itself falls
//     between the stroke's pixels on some rows and breaks it into dashes.
func TestCoarseCropAveragesThePage(t *testing.T) {
	const side = 3640
	g := image.NewGray(image.Rect(0, 0, 4200, 4200))
	for k := range g.Pix {
		g.Pix[k] = 240
	}
	// The stripes: 64×64 page pixels, small enough that the paper around them is taken as
	// the paper's level there.
	const sx, sy, sn = 1500, 1500, 64
	for y := sy; y < sy+sn; y++ {
		for x := sx; x < sx+sn; x += 2 {
			g.Pix[y*g.Stride+x] = 40
		}
	}
	// The stroke: one pixel wide, 1 across for every 7 down, page rows 2000 … 3600.
	const ly0, ly1 = 2000, 3600
	for y := ly0; y < ly1; y++ {
		g.Pix[y*g.Stride+2500+(y-ly0)/7] = 40
	}
	c := cropBox(newPage(g), func(u, v float64) Point { return Point{u, v} }, 200, 200+side, 200, 200+side)
	if cropScale(c) > 0.5 || c.w*c.h > maxReadPixels {
		t.Fatalf("crop %d×%d at scale %.2f: want it coarser than half the page's resolution, within maxReadPixels", c.w, c.h, cropScale(c))
	}
	// The page's point under crop pixel (x, y)'s centre (the grid's coordinates are the page's).
	at := func(x, y int) (float64, float64) {
		return c.sm.u0 + (float64(x)+0.5)*c.sm.du, c.sm.v0 + (float64(y)+0.5)*c.sm.dv
	}
	ink := 255 * (1 - 40.0/240)

	var vals []float64
	for y := range c.h {
		for x := range c.w {
			if px, py := at(x, y); px > sx+6 && px < sx+sn-6 && py > sy+6 && py < sy+sn-6 {
				vals = append(vals, float64(c.ink[y*c.w+x]))
			}
		}
	}
	var sum, sq float64
	for _, v := range vals {
		sum += v
		sq += v * v
	}
	mean := sum / float64(len(vals))
	sd := math.Sqrt(max(0, sq/float64(len(vals))-mean*mean))
	if math.Abs(mean-ink/2) > 15 || sd > 12 {
		t.Errorf("stripes read at scale %.2f (%d crop pixels): mean ink %.1f, standard deviation %.1f; want an even grey of %.1f ± 15, deviation at most 12", cropScale(c), len(vals), mean, sd, ink/2)
	} else {
		t.Logf("stripes read at scale %.2f: mean ink %.1f, standard deviation %.1f", cropScale(c), mean, sd)
	}

	weakest, row := 255.0, -1
	for y := range c.h {
		if _, py := at(0, y); py < ly0+20 || py > ly1-20 {
			continue
		}
		var best float64
		for x := range c.w {
			best = max(best, float64(c.ink[y*c.w+x]))
		}
		if best < weakest {
			weakest, row = best, y
		}
	}
	if row < 0 {
		t.Fatal("no crop row crosses the stroke")
	}
	if weakest < ink/8 {
		t.Errorf("a stroke of ink %.0f, one pixel wide, read at scale %.2f: crop row %d holds ink %.0f at most; want at least %.0f (an eighth of the stroke's) on every row it crosses", ink, cropScale(c), row, weakest, ink/8)
	} else {
		t.Logf("the stroke's weakest crop row holds ink %.0f of its %.0f", weakest, ink)
	}
}

// cropScale returns the crop's pixels per page pixel, from its map (the grid's coordinates
// being the page's here).
func cropScale(c *crop) float64 { return 1 / c.sm.du }

// BenchmarkAreaAverage is the averaging a coarse read takes: a box of 2,362 pixels (100 mm at
// 600 dpi) cropped with its margins at 1.43 page pixels to the crop's.
func BenchmarkAreaAverage(b *testing.B) {
	g := image.NewGray(image.Rect(0, 0, 2930, 2930))
	for k := range g.Pix {
		g.Pix[k] = uint8(k * 7)
	}
	for b.Loop() {
		areaAverage(g, g.Rect, 1.43)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(g.Pix)), "ns/pixel")
}

// The preview a window shows of a 600 dpi page (Preview, 1,000 pixels on its longer side: 7
// times smaller) is filtered as it shrinks, so stripes a pixel wide and apart are an even grey
// in it, not a moiré (imaging's box filter, which takes whole pixels in or out, left bands:
// standard deviation 13.8 grey levels; its linear filter 1.2). The window's own scaling of the
// preview to its place (Fyne's smooth scaling, x/image/draw's Catmull–Rom, its kernel widened
// when it shrinks) is filtered as well.
func TestPreviewOfFineStripesIsEvenGrey(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 4960, 7016))
	for y := range g.Rect.Dy() {
		row := g.Pix[y*g.Stride:][:g.Rect.Dx()]
		for x := range row {
			row[x] = 240
			if x%2 == 0 {
				row[x] = 40
			}
		}
	}
	p := (&Sheet{Image: g}).Preview(1000)
	var sum, sq float64
	n := 0
	for y := 10; y < p.Rect.Dy()-10; y++ {
		for x := 10; x < p.Rect.Dx()-10; x++ {
			v := float64(p.RGBAAt(x, y).R)
			sum += v
			sq += v * v
			n++
		}
	}
	mean := sum / float64(n)
	if sd := math.Sqrt(max(0, sq/float64(n)-mean*mean)); math.Abs(mean-140) > 3 || sd > 3 {
		t.Errorf("the preview of 1-px stripes: mean %.1f, standard deviation %.1f; want an even grey of 140", mean, sd)
	} else {
		t.Logf("the preview of 1-px stripes: mean %.1f, standard deviation %.1f", mean, sd)
	}
}
