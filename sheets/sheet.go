package sheets

import (
	"context"
	"errors"
	"fmt"
	"image"

	"idxlabel/normalize"
)

// Options control how a sheet's boxes become samples. The zero value makes 28×28 samples
// centred by centre of mass, as MNIST's are.
type Options struct {
	// Width and Height are the samples' size in pixels (normalize.Options); 0 means 28×28.
	Width, Height int
	// Centering places the digit in its field (normalize.CenterMass, MNIST's rule, or
	// normalize.CenterBox).
	Centering normalize.Centering
}

// size returns the samples' width and height.
func (o Options) size() (int, int) {
	if o.Width > 0 && o.Height > 0 {
		return o.Width, o.Height
	}
	return normalize.FieldSize, normalize.FieldSize
}

// State is what a box of a sheet held.
type State int

const (
	Filled  State = iota // ink inside the box, made a sample
	Empty                // no ink (specks and what is left of the ruled lines aside): no sample
	Flagged              // ink crossing the ruled line into a neighbour: no sample, see Box.Note
	Skipped              // the layout skips the box: not read
)

// String names the state as the command line prints it.
func (s State) String() string {
	return [...]string{"filled", "empty", "flagged", "skipped"}[s]
}

// Box is one box of a sheet's grid.
type Box struct {
	Row, Col int   // its place in the upright grid, from 0
	Label    int   // its label from the layout (Skip for a box not read)
	State    State // what it held
	// Corners are the box's outline through the centres of its ruled lines, in the sheet
	// image's pixels: its upright top left, top right, bottom right and bottom left.
	Corners [4]Point
	// Sample is the box's digit through MNIST's preprocessing, H×W bytes row-major (0
	// background, 255 ink), for a Filled box; nil otherwise.
	Sample []byte
	Note   string // for a Flagged box, which line its ink crosses
}

// Counts tallies a sheet's boxes.
type Counts struct {
	Read    int // boxes read (the layout's boxes less those it skips)
	Filled  int // boxes made samples
	Empty   int // boxes without ink
	Flagged int // boxes whose ink crosses into a neighbour (not made samples)
}

// Sheet is one page read: where its grid is and what each box held.
type Sheet struct {
	Image *image.Gray // the page as decoded, grey (Preview draws it)
	// Turned is how far the page lies turned clockwise from upright, in degrees: 0, 90, 180
	// or 270 (an upside-down scan is 180).
	Turned int
	// Corners are the grid's outline (the centres of its outer ruled lines) in Image's pixels:
	// the upright top left, top right, bottom right and bottom left.
	Corners [4]Point
	Boxes   []Box // Rows × Cols, row-major, upright
	Counts  Counts
	Layout  *Layout
}

// ErrNoGrid is what every *GridError matches with errors.Is.
var ErrNoGrid = errors.New("grid not found")

// GridError says why a sheet's grid was not found; nothing is read from such a sheet.
type GridError struct {
	Path   string // the sheet's file, when read from one
	Reason string
	stage  int // how far the shape that failed got: the furthest is the one reported
}

func (e *GridError) Error() string {
	if e.Path == "" {
		return "grid not found: " + e.Reason
	}
	return e.Path + ": grid not found: " + e.Reason
}

// Is makes errors.Is(err, ErrNoGrid) true.
func (e *GridError) Is(target error) bool { return target == ErrNoGrid }

// Read decodes the sheet image at path (normalize.DecodeGray: a regular file, its dimensions
// checked before decoding, at most normalize.MaxPixels) and reads it (Find). Errors, each
// naming the file: those of DecodeGray, a *GridError (errors.Is ErrNoGrid) when its grid is
// not found, ctx's error when cancelled.
func Read(ctx context.Context, path string, l *Layout, o Options) (*Sheet, error) {
	g, err := normalize.DecodeGray(path)
	if err != nil {
		return nil, err
	}
	s, err := Find(ctx, g, l, o)
	var ge *GridError
	if errors.As(err, &ge) {
		ge.Path = path
	}
	return s, err
}

// Find reads a sheet from its grey image (0 black, 255 white): finds the grid of l's shape —
// ruled lines, on a scan or a photo, turned, tilted or in perspective, under uneven light —
// and makes every box the layout reads a sample, an empty box or a flagged one. Time and
// memory grow with the image's pixels (a 600 dpi A4 page: the image and about as much again).
// Errors: a *GridError when no grid of the layout's shape is found (the reason says what was
// found instead; the Sheet returned holds only the Image), ctx's error when cancelled.
func Find(ctx context.Context, g *image.Gray, l *Layout, o Options) (*Sheet, error) {
	if l == nil || l.Rows < 1 || l.Cols < 1 || len(l.Labels) != l.Rows*l.Cols {
		return nil, errors.New("sheets: no layout, or one whose labels are not rows × cols")
	}
	if g.Rect.Dx() < 64 || g.Rect.Dy() < 64 {
		return &Sheet{Image: g, Layout: l}, &GridError{Reason: fmt.Sprintf("the image is %d×%d pixels, too small to hold a grid", g.Rect.Dx(), g.Rect.Dy())}
	}
	if g.Rect.Min != (image.Point{}) {
		g = &image.Gray{Pix: g.Pix[g.PixOffset(g.Rect.Min.X, g.Rect.Min.Y):], Stride: g.Stride, Rect: image.Rect(0, 0, g.Rect.Dx(), g.Rect.Dy())}
	}
	p := newPage(g)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	gr, err := findGrid(p, l)
	if err != nil {
		return &Sheet{Image: g, Layout: l}, err
	}
	s := &Sheet{Image: g, Turned: 90 * gr.turn, Layout: l}
	f := float64(p.f)
	full := func(u, v float64) Point {
		q := gr.toWork(u, v)
		return Point{q.X * f, q.Y * f}
	}
	s.Corners = [4]Point{full(0, 0), full(1, 0), full(1, 1), full(0, 1)}
	if err := readBoxes(ctx, s, p, gr, full, o); err != nil {
		return nil, err
	}
	return s, nil
}
