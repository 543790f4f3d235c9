package sheets

import (
	"context"
	"image"

	sheetread "idxlabel/sheets"
)

// PreviewSide is the longest side of a sheet's preview, in pixels: a page is shown at this size
// whatever its resolution (a 600 dpi A4 scan, 4,960×7,016 pixels, becomes 707×1,000: 2.8 MB
// at 4 bytes a pixel), with the boxes found and their labels drawn over it (sheets.Sheet.Preview).
const PreviewSide = 1000

// read is what reading one sheet gave the survey: the sheet's number k, its report, and its
// preview when one was asked for (nil otherwise, and for a page that could not be decoded).
type read struct {
	k       int
	report  sheetread.Report
	preview image.Image
}

// survey reads sheets one at a time, off the UI thread, for the dialog: the sheet asked for
// (want) first, with its preview, then every sheet not read yet in order, for its counts. Each
// sheet is read as the import reads it (sheets.ReadAll of that one sheet), so what the list says
// is what the import will take. It holds one page at a time (the page's grey image and about as
// much again while it is read) and hands each result to out, on its own goroutine; it stops when
// its context ends.
type survey struct {
	ctx  context.Context
	srcs []sheetread.Source
	l    *sheetread.Layout
	o    sheetread.Options
	ask  chan int // the sheet to preview next; at most one waits
}

// newSurvey makes the survey of srcs read through l and o, until ctx ends; run starts it.
func newSurvey(ctx context.Context, srcs []sheetread.Source, l *sheetread.Layout, o sheetread.Options) *survey {
	return &survey{ctx: ctx, srcs: srcs, l: l, o: o, ask: make(chan int, 1)}
}

// want asks for sheet k's preview before anything else; a preview asked for before and not
// begun yet is forgotten. Called from one goroutine (the UI thread).
func (s *survey) want(k int) {
	select {
	case <-s.ask:
	default:
	}
	s.ask <- k
}

// run reads until every sheet is read and no preview is asked for, then waits for one, until
// the context ends; out gets each result.
func (s *survey) run(out func(read)) {
	done := make([]bool, len(s.srcs))
	next := 0
	for {
		k, preview := -1, false
		for next < len(done) && done[next] {
			next++
		}
		select {
		case k = <-s.ask:
			preview = true
		case <-s.ctx.Done():
			return
		default:
			if next == len(done) {
				select {
				case k = <-s.ask:
					preview = true
				case <-s.ctx.Done():
					return
				}
			} else {
				k = next
			}
		}
		if k < 0 || k >= len(s.srcs) {
			continue
		}
		r := s.readOne(k, preview)
		if s.ctx.Err() != nil {
			return
		}
		done[k] = true
		out(r)
	}
}

// readOne reads sheet k, its preview too when asked.
func (s *survey) readOne(k int, preview bool) read {
	r := read{k: k}
	_, err := sheetread.ReadAll(s.ctx, s.srcs[k:k+1], s.l, s.o, func(_ int, rep sheetread.Report, sh *sheetread.Sheet) {
		r.report = rep
		if preview && sh != nil && sh.Image != nil {
			r.preview = sh.Preview(PreviewSide)
		}
	})
	if err != nil { // cancelled: ReadAll reports every other failure in the sheet's report
		r.report = sheetread.Report{Source: s.srcs[k], Err: err}
	}
	return r
}
