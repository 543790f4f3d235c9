package sheets

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
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

// Summary is the sheet's line without its file: "120 boxes found: 106 filled, 12 empty, 2
// flagged; writer 2, turned 180°", or for a sheet nothing was taken from, why (its Err, which
// names the file).
func (r Report) Summary() string {
	if r.Err != nil {
		return r.Err.Error()
	}
	turned := ""
	if r.Turned != 0 {
		turned = fmt.Sprintf(", turned %d°", r.Turned)
	}
	return fmt.Sprintf("%d boxes found: %d filled, %d empty, %d flagged; writer %d%s",
		r.Counts.Read, r.Counts.Filled, r.Counts.Empty, r.Counts.Flagged, r.Writer, turned)
}

// Sources returns each sample's source, for the sources file beside a pair (pairfile.WriteSources)
// and the window's detail panel: its sheet, as a path relative to the folder of args that holds
// it (the file as given otherwise), slash-separated, and its box: "scans/sheet-03.jpg row 4,
// column 7" reads "sheet-03.jpg row 4, column 7" when scans/ was given. withWriter appends the
// sample's writer (", writer 2"), for a dataset that has no label column to keep it in.
func (b *Batch) Sources(args []string, withWriter bool) []string {
	out := make([]string, b.N())
	names := make([]string, len(b.Reports))
	for k, r := range b.Reports {
		names[k] = filepath.ToSlash(r.Path)
		for _, a := range args {
			if rel, err := filepath.Rel(a, r.Path); err == nil && !strings.HasPrefix(rel, "..") && rel != "." {
				names[k] = filepath.ToSlash(rel)
				break
			}
		}
	}
	for i, o := range b.Origins {
		out[i] = fmt.Sprintf("%s row %d, column %d", names[o.Sheet], o.Row, o.Col)
		if withWriter {
			out[i] += fmt.Sprintf(", writer %d", b.Writers[i])
		}
	}
	return out
}
