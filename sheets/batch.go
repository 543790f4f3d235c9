package sheets

import (
	"context"
	"errors"
	"fmt"
)

// Report is what reading one sheet gave.
type Report struct {
	Source
	Err     error    // why nothing was taken from it (unreadable, too large, a *GridError); nil when read
	Turned  int      // how far the page lay turned (Sheet.Turned)
	Counts  Counts   // its boxes
	Flagged []string // each flagged box: "row R, column C (label L): what its ink crosses"
}

// Batch is every sheet's filled boxes as samples, in the order of the sheets and, on each,
// row by row: N samples of H×W pixels with their labels and writers, where each came from, and
// each sheet's report.
type Batch struct {
	Width, Height int
	Pixels        []byte // N×H×W, 0 background, 255 ink
	Labels        []int  // N, from the layout
	Writers       []int  // N, each sample's sheet's Source.Writer
	Origins       []Origin
	Reports       []Report // one a sheet, in order
}

// Origin is where a sample came from: the sheet (an index into the sources) and its box.
type Origin struct{ Sheet, Row, Col int }

// N returns the number of samples.
func (b *Batch) N() int { return len(b.Labels) }

// ReadAll reads every sheet in order (Read, one at a time: memory is one page, its working
// copies and the samples gathered) and gathers their filled boxes. A sheet that cannot be read
// or whose grid is not found gives no sample; its Report says why and the rest are read.
// After each sheet, each is called (when not nil) with its index, its report and the sheet read
// (nil when it could not be decoded; only its Image when its grid was not found), before the
// page is released: a caller shows progress, prints the report or draws the sheet there.
// Errors: ctx's error when cancelled (nothing gathered is returned then).
func ReadAll(ctx context.Context, sources []Source, l *Layout, o Options, each func(k int, r Report, s *Sheet)) (*Batch, error) {
	w, h := o.size()
	b := &Batch{Width: w, Height: h}
	for k, src := range sources {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s, err := Read(ctx, src.Path, l, o)
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		r := Report{Source: src, Err: err}
		if err == nil {
			r.Turned, r.Counts = s.Turned, s.Counts
			for _, box := range s.Boxes {
				switch box.State {
				case Filled:
					b.Pixels = append(b.Pixels, box.Sample...)
					b.Labels = append(b.Labels, box.Label)
					b.Writers = append(b.Writers, src.Writer)
					b.Origins = append(b.Origins, Origin{k, box.Row, box.Col})
				case Flagged:
					r.Flagged = append(r.Flagged, fmt.Sprintf("row %d, column %d (label %d): %s", box.Row, box.Col, box.Label, box.Note))
				}
			}
		}
		b.Reports = append(b.Reports, r)
		if each != nil {
			each(k, r, s)
		}
	}
	return b, nil
}
