// Package normalize turns a drawn or imported image into a 28×28 MNIST sample by MNIST's own
// preprocessing, as the MNIST page describes it: the (bilevel) digit is size-normalized to fit a
// 20×20 box keeping its aspect ratio, the anti-aliasing of that resize makes the grey levels, and
// the result is placed in a 28×28 field so that its centre of mass sits at the field's centre,
// by whole-pixel translation. Real MNIST (t10k) measures that centre at (14.0, 14.0) ± 0.29 px in
// index coordinates (row, col), so that is where Digit puts it. The page also mentions centring
// by bounding box for template methods; CenterBox does that.
//
// Pixels follow MNIST: 0 = background, 255 = ink. normalize never imports Fyne.
package normalize

import (
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/disintegration/imaging"
)

// MNIST's geometry (the MNIST page).
const (
	FieldSize = 28   // the output is FieldSize×FieldSize pixels
	BoxSize   = 20   // the digit's longer side is resized to BoxSize pixels
	Center    = 14.0 // where the centre of mass lands, in index coordinates (row and col), measured on t10k
)

// Centering chooses how the resized digit is placed in the field.
type Centering int

const (
	CenterMass Centering = iota // centre of mass at (14.0, 14.0): MNIST's rule (the default)
	CenterBox                   // bounding box centred in the field (the MNIST page's alternative)
)

// String returns "mass" or "box", the command-line spelling.
func (c Centering) String() string {
	if c == CenterBox {
		return "box"
	}
	return "mass"
}

// ParseCentering reads "mass" or "box". Errors: any other word.
func ParseCentering(s string) (Centering, error) {
	switch s {
	case "mass", "com", "":
		return CenterMass, nil
	case "box", "bbox":
		return CenterBox, nil
	}
	return 0, fmt.Errorf("centring %q: expected mass or box", s)
}

// Polarity says which pixels are ink in the input.
type Polarity int

const (
	InkAuto  Polarity = iota // decided from the image's border: a light border means dark ink (paper, scans)
	InkLight                 // light ink on a dark ground, like MNIST and the drawing pad
	InkDark                  // dark ink on a light ground
)

// Options control Digit. The zero value is MNIST's pipeline with automatic ink detection.
type Options struct {
	Centering Centering
	Polarity  Polarity
	// Threshold, when 1–255, makes the ink bilevel first (ink ≥ Threshold becomes 255, the rest
	// 0), like NIST's bilevel originals; 0 keeps the input's grey levels.
	Threshold int
	// Filter is the anti-aliasing filter of the resize; nil means DefaultFilter.
	Filter *imaging.ResampleFilter
	// Width and Height give another field size in pixels (a dataset of H×W samples); the box
	// and the centre scale with it (box 20/28 of the field, centre at 14/28). 0 means 28×28.
	Width, Height int
}

// DefaultFilter is the anti-aliasing filter Digit uses: Mitchell–Netravali, chosen by the
// fidelity benchmark on real MNIST (fidelity_test.go), which compares imaging's filters; it gave
// the best 5th-percentile correlation with a mean as high as the sharpest filters.
var DefaultFilter = imaging.MitchellNetravali

// ErrEmpty: the image has no ink at all.
var ErrEmpty = errors.New("the image has no ink")

// Digit runs MNIST's preprocessing on img and returns a 28×28 image (or opts.Width×Height),
// 0 = background, 255 = ink:
// ink extracted (Ink), cropped to its bounding box, resized so the longer side is 20 px and the
// shorter keeps the aspect ratio (at least 1 px) with an anti-aliasing filter, and placed in the
// 28×28 field with its centre of mass at (14.0, 14.0) (or its bounding box centred), by
// whole-pixel translation, clamped so no ink is cut off. Errors: ErrEmpty for an image without
// ink (an empty image included).
func Digit(img image.Image, opts Options) (*image.Gray, error) {
	ink := Ink(img, opts.Polarity, opts.Threshold)
	box, ok := BoundingBox(ink)
	if !ok {
		return nil, ErrEmpty
	}
	filter := DefaultFilter
	if opts.Filter != nil {
		filter = *opts.Filter
	}
	width, height := FieldSize, FieldSize
	if opts.Width > 0 && opts.Height > 0 {
		width, height = opts.Width, opts.Height
	}
	boxW := max(1, int(math.Round(float64(width)*BoxSize/FieldSize)))
	boxH := max(1, int(math.Round(float64(height)*BoxSize/FieldSize)))
	fitted := Fit(ink.SubImage(box).(*image.Gray), boxW, boxH, filter)
	return Place(fitted, width, height, opts.Centering)
}

// minFitSource is the smallest long side (pixels) Fit resamples from; smaller inputs are first
// enlarged by a whole factor (nearest neighbour, exact for bilevel ink) so that the sub-pixel
// placement of the short side below is accurate to about 1%.
const minFitSource = 100

// Fit size-normalizes g into a boxW×boxH box keeping its aspect ratio, as the MNIST page
// describes for its 20×20 box: the side that meets the box first becomes exactly its length and
// the other side keeps the aspect ratio (fractional), centred in the box, with the anti-aliasing
// of the given filter (imaging's resampling, which widens the filter when shrinking). The free
// side is centred at its exact fractional position, not stretched to whole pixels: the source is
// padded so that imaging resizes it to whole pixels with the digit in place, and ink the filter
// spreads beyond the digit's extent is cut off. The result is cropped to its ink's bounding box
// (empty input gives an empty image).
func Fit(g *image.Gray, boxW, boxH int, filter imaging.ResampleFilter) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	if w == 0 || h == 0 {
		return image.NewGray(image.Rectangle{})
	}
	if long := max(w, h); long < minFitSource {
		k := (minFitSource + long - 1) / long
		g = toGray(imaging.Resize(g, w*k, h*k, imaging.NearestNeighbor))
		w, h = w*k, h*k
	}
	// The pinned axis fills its box side; the free axis keeps the aspect ratio.
	widthPinned := w*boxH > h*boxW
	pinnedLen, pinnedBox, freeLen, freeBox := h, boxH, w, boxW
	if widthPinned {
		pinnedLen, pinnedBox, freeLen, freeBox = w, boxW, h, boxH
	}
	scale := float64(pinnedBox) / float64(pinnedLen)
	// Whole output pixels for the free side, with room for its fractional position and the same
	// parity as its box side, so that centring it in n pixels is centring it in the box.
	n := min(freeBox, int(math.Ceil(float64(freeLen)*scale))+1)
	if (freeBox-n)%2 != 0 {
		n++
	}
	total := max(freeLen, int(math.Round(float64(n)/scale))) // source pixels that map onto n
	before := max(0, min(total-freeLen, int(math.Round(float64(total-freeLen)/2))))
	var src *image.Gray
	var outW, outH int
	if widthPinned {
		src = pad(g, 0, total-h, 0, before)
		outW, outH = pinnedBox, n
	} else {
		src = pad(g, total-w, 0, before, 0)
		outW, outH = n, pinnedBox
	}
	out := toGray(imaging.Resize(src, outW, outH, filter))
	// Cut what the filter spread outside the digit's extent on the free axis.
	lo := float64(before) * float64(n) / float64(total)
	hi := float64(before+freeLen) * float64(n) / float64(total)
	for p := range n {
		if float64(p+1) > lo && float64(p) < hi {
			continue
		}
		for q := range pinnedBox {
			if widthPinned {
				out.Pix[p*out.Stride+q] = 0
			} else {
				out.Pix[q*out.Stride+p] = 0
			}
		}
	}
	box, ok := BoundingBox(out)
	if !ok {
		return image.NewGray(image.Rectangle{})
	}
	return out.SubImage(box).(*image.Gray)
}

// pad returns g, moved to the origin, in a larger zero field: dw more columns with g starting at
// column left, dh more rows with g starting at row top.
func pad(g *image.Gray, dw, dh, left, top int) *image.Gray {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	out := image.NewGray(image.Rect(0, 0, w+dw, h+dh))
	for y := range h {
		copy(out.Pix[(top+y)*out.Stride+left:], g.Pix[g.PixOffset(g.Rect.Min.X, g.Rect.Min.Y+y):][:w])
	}
	return out
}

// toGray takes the grey level of an NRGBA image imaging made from a grey one (R = G = B).
func toGray(r *image.NRGBA) *image.Gray {
	out := image.NewGray(image.Rect(0, 0, r.Rect.Dx(), r.Rect.Dy()))
	for i := range out.Pix {
		out.Pix[i] = r.Pix[4*i]
	}
	return out
}

// Place puts g (a resized digit, at most width×height) into a width×height field by whole-pixel
// translation: its centre of mass at (Center, Center) scaled to the field — (14.0, 14.0) in
// MNIST's 28×28 — (CenterMass), or its bounding box centred (CenterBox), clamped so no ink is cut
// off. Errors: ErrEmpty when g has no ink; g larger than the field.
func Place(g *image.Gray, width, height int, c Centering) (*image.Gray, error) {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	if w > width || h > height {
		return nil, fmt.Errorf("a %d×%d digit does not fit a %d×%d field", w, h, width, height)
	}
	var top, left int
	switch c {
	case CenterBox:
		top, left = (height-h)/2, (width-w)/2
	default:
		row, col, ok := CenterOfMass(g)
		if !ok {
			return nil, ErrEmpty
		}
		top = int(math.Round(Center*float64(height)/FieldSize - (row - float64(g.Rect.Min.Y))))
		left = int(math.Round(Center*float64(width)/FieldSize - (col - float64(g.Rect.Min.X))))
	}
	top = max(0, min(height-h, top))
	left = max(0, min(width-w, left))
	out := image.NewGray(image.Rect(0, 0, width, height))
	for y := range h {
		src := g.Pix[g.PixOffset(g.Rect.Min.X, g.Rect.Min.Y+y):][:w]
		copy(out.Pix[(top+y)*out.Stride+left:], src)
	}
	return out, nil
}
