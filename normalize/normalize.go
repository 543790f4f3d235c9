// Package normalize turns a drawn or imported image into an MNIST sample by MNIST's own
// preprocessing, as the QMNIST reconstruction (Yadav & Bottou, "Cold Case: The Lost MNIST
// Digits", NeurIPS 2019) performs it on NIST's bilevel scans, ported from its published program
// (qmnist.go): the image is made bilevel (Binarize), the ink's bounding box extended to a square,
// resampled to 20×20 by area coverage, scaled to grey levels, and placed in the 28×28 field by
// its centre of mass with a truncated whole-pixel offset. The MNIST page also mentions centring
// by bounding box for template methods; CenterBox does that.
//
// Pixels follow MNIST: 0 = background, 255 = ink. normalize never imports Fyne.
package normalize

import (
	"errors"
	"fmt"
	"image"
	"strconv"
	"strings"
)

// MNIST's geometry (the MNIST page).
const (
	FieldSize = 28 // the output is FieldSize×FieldSize pixels
	BoxSize   = 20 // the digit's square crop is resampled to BoxSize×BoxSize pixels
	// Center is where the centre of mass lands on average, in index coordinates (row and col):
	// measured on t10k, (14.0, 14.0) ± 0.29 px; the program's truncated offset puts it in
	// (13.5, 14.5].
	Center = 14.0
)

// Centering chooses how the resized digit is placed in the field.
type Centering int

const (
	CenterMass Centering = iota // by centre of mass, MNIST's rule (the default)
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

// String returns "auto", "light" or "dark", the command-line spelling.
func (p Polarity) String() string {
	switch p {
	case InkLight:
		return "light"
	case InkDark:
		return "dark"
	}
	return "auto"
}

// ParsePolarity reads "auto" (or ""), "light" or "dark". Errors: any other word.
func ParsePolarity(s string) (Polarity, error) {
	switch s {
	case "auto", "":
		return InkAuto, nil
	case "light":
		return InkLight, nil
	case "dark":
		return InkDark, nil
	}
	return 0, fmt.Errorf("ink %q: expected auto, light or dark", s)
}

// ParseThreshold reads a threshold as a person types it: "auto" (or "", "0") for Otsu's method,
// else a grey level 1–255. Errors: anything else, saying what is expected.
func ParseThreshold(s string) (int, error) {
	switch s = strings.TrimSpace(s); s {
	case "", "auto", "0":
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 255 {
		return 0, fmt.Errorf("threshold %q: expected auto or a grey level 1–255", s)
	}
	return n, nil
}

// Options control Digit. The zero value is MNIST's preprocessing with automatic ink detection
// and threshold, for a 28×28 field.
type Options struct {
	Centering Centering
	Polarity  Polarity
	// Threshold makes the ink bilevel (Bilevel): 0 chooses it from the image (Otsu's method),
	// 1–255 is a fixed level (ink ≥ Threshold).
	Threshold int
	// Width and Height give another field size in pixels (a dataset of H×W samples): the
	// box is round(20/28 of the shorter side) and the placement constants side/2 + 1 (see
	// geometry). 0 means 28×28.
	Width, Height int
}

// field returns the field's width and height.
func (o Options) field() (width, height int) {
	if o.Width > 0 && o.Height > 0 {
		return o.Width, o.Height
	}
	return FieldSize, FieldSize
}

// ErrEmpty: the image has no ink at all.
var ErrEmpty = errors.New("the image has no ink")

// Digit runs MNIST's preprocessing on img and returns a 28×28 image (or opts.Width×Height),
// 0 = background, 255 = ink: img made bilevel (Binarize with opts.Polarity and opts.Threshold),
// then the steps of the QMNIST program (qmnist.go): the ink's bounding box extended to a square
// (at least 10 px), doubled while under 20 px, resampled to 20×20 by area coverage, scaled so
// its peak (at most 1) is 255, and placed by its centre of mass (or, with CenterBox, its ink's
// bounding box centred), clamped so no ink is cut off. Errors: ErrEmpty for an image without
// ink (an empty image included).
func Digit(img image.Image, opts Options) (*image.Gray, error) {
	g, _, err := digit(img, opts)
	return g, err
}

// digit is Digit, also reporting whether the placement was clamped to keep ink in the field.
func digit(img image.Image, opts Options) (*image.Gray, bool, error) {
	width, height := opts.field()
	return preprocess(Binarize(img, opts.Polarity, opts.Threshold), width, height, opts.Centering)
}
