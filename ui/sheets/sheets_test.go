package sheets

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"idxlabel/fixture/digits"
	"idxlabel/fixture/sheetgen"
	sheetread "idxlabel/sheets"
)

// writeSheets writes generated 150 dpi scans of generated digits (fixture/digits; the default
// layout: 10×12, row k the digit k, no stroke touching a line) into dir under names, and returns
// their truth.
func writeSheets(t *testing.T, dir string, o sheetgen.Options, names ...string) []*sheetgen.Sheet {
	t.Helper()
	images, labels := digits.Load(t, 2000)
	if o.DPI == 0 {
		o.DPI = 150
	}
	o.Kind, o.Seed, o.TouchShare = sheetgen.Scan, o.Seed+100, -1
	s, err := sheetgen.WriteJPEGs(dir, sheetgen.MNISTDigits(images.Data, labels.Data), o, 80, names...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// filled counts a sheet's filled boxes.
func filled(s *sheetgen.Sheet) int {
	n := 0
	for _, b := range s.Boxes {
		if b.Filled {
			n++
		}
	}
	return n
}

// writeBlank writes a white page without a grid.
func writeBlank(t *testing.T, path string) {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 800, 1100))
	for i := range img.Pix {
		img.Pix[i] = 250
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// collect runs s until it has handed n results, and returns them in the order handed; then it
// cancels s's context and waits for run to return.
func collect(t *testing.T, s *survey, stop context.CancelFunc, n int) []read {
	t.Helper()
	got := make(chan read, 16)
	ended := make(chan struct{})
	go func() {
		s.run(func(r read) { got <- r })
		close(ended)
	}()
	var out []read
	for range n {
		out = append(out, <-got)
	}
	stop()
	<-ended
	return out
}

// The survey reads the sheet asked for first, with its preview, then every other sheet for its
// counts, as the import reads them: a sheet's filled boxes are its digits; a page without a grid
// says so and is still shown; the preview's longer side is PreviewSide.
func TestSurveyPreviewsTheSheetAskedFirst(t *testing.T) {
	dir := t.TempDir()
	truth := writeSheets(t, dir, sheetgen.Options{}, "sheet-1.jpg", "sheet-10.jpg")
	writeBlank(t, filepath.Join(dir, "sheet-3.png"))
	srcs, _, err := sheetread.List([]string{dir}, sheetread.WriterIndex)
	if err != nil {
		t.Fatal(err)
	}
	// Natural order: sheet-1, sheet-3 (the blank page), sheet-10.
	if len(srcs) != 3 || filepath.Base(srcs[1].Path) != "sheet-3.png" {
		t.Fatalf("sheets listed: %v", srcs)
	}
	ctx, stop := context.WithCancel(context.Background())
	s := newSurvey(ctx, srcs, sheetread.DefaultLayout(), sheetread.Options{})
	s.want(2)
	got := collect(t, s, stop, 3)
	if got[0].k != 2 || got[0].preview == nil {
		t.Fatalf("first result: sheet %d, preview %v; want sheet 2 with its preview", got[0].k, got[0].preview != nil)
	}
	if b := got[0].preview.Bounds(); max(b.Dx(), b.Dy()) != PreviewSide {
		t.Errorf("preview %d×%d; its longer side should be %d", b.Dx(), b.Dy(), PreviewSide)
	}
	seen := map[int]bool{}
	for _, r := range got {
		seen[r.k] = true
		if r.k != 2 && r.preview != nil {
			t.Errorf("sheet %d read with a preview nobody asked for", r.k)
		}
		switch r.k {
		case 1:
			if !errors.Is(r.report.Err, sheetread.ErrNoGrid) {
				t.Errorf("the blank page: %v; want grid not found", r.report.Err)
			}
		default:
			want := truth[r.k/2]
			if r.report.Err != nil || r.report.Counts.Filled != filled(want) || r.report.Writer != r.k {
				t.Errorf("sheet %d: %s; want %d filled, writer %d", r.k, r.report.Summary(), filled(want), r.k)
			}
		}
	}
	if len(seen) != 3 {
		t.Errorf("sheets read: %v; want all 3 once", seen)
	}

	// A page without a grid is still previewed: the page alone, with the reason in its report.
	ctx, stop = context.WithCancel(context.Background())
	s = newSurvey(ctx, srcs[1:2], sheetread.DefaultLayout(), sheetread.Options{})
	s.want(0)
	got = collect(t, s, stop, 1)
	if got[0].preview == nil || !errors.Is(got[0].report.Err, sheetread.ErrNoGrid) {
		t.Errorf("the blank page asked for: preview %v, %v", got[0].preview != nil, got[0].report.Err)
	}
}

// A survey stops when its context ends, even while it waits for a preview to be asked for.
func TestSurveyStops(t *testing.T) {
	dir := t.TempDir()
	writeSheets(t, dir, sheetgen.Options{}, "a.jpg")
	srcs, _, err := sheetread.List([]string{dir}, sheetread.WriterIndex)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	s := newSurvey(ctx, srcs, sheetread.DefaultLayout(), sheetread.Options{})
	got := collect(t, s, stop, 1) // then it waits; stop ends it (collect waits for run to return)
	if got[0].k != 0 || got[0].report.Err != nil {
		t.Errorf("got sheet %d: %v", got[0].k, got[0].report.Err)
	}
}

// The samples the import adds are the command line's (sheets.ReadAll), each labelled by its
// box's row (row k the digit k), with its sheet, box and writer as its source.
func TestSamplesOfKeepBoxAndWriter(t *testing.T) {
	dir := t.TempDir()
	truth := writeSheets(t, dir, sheetgen.Options{}, "w-5.jpg", "w-7.jpg")
	srcs, _, err := sheetread.List([]string{dir}, sheetread.WriterName)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sheetread.ReadAll(context.Background(), srcs, sheetread.DefaultLayout(), sheetread.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := samplesOf(b, []string{dir})
	if len(got) != filled(truth[0])+filled(truth[1]) {
		t.Fatalf("%d samples; the sheets hold %d and %d digits", len(got), filled(truth[0]), filled(truth[1]))
	}
	for i, s := range got {
		o := b.Origins[i]
		writer := []int{5, 7}[o.Sheet]
		want := fmt.Sprintf("%s row %d, column %d, writer %d", filepath.Base(srcs[o.Sheet].Path), o.Row, o.Col, writer)
		if s.Label != o.Row || s.Source != want || len(s.Pixels) != 28*28 || &s.Pixels[0] != &b.Pixels[i*784] {
			t.Fatalf("sample %d: label %d, source %q, %d pixels; want label %d, source %q", i, s.Label, s.Source, len(s.Pixels), o.Row, want)
		}
	}
}

// A 600 dpi A4 page (4,961×7,016 pixels) is previewed at PreviewSide pixels on its longer side:
// what the dialog holds of it does not grow with the scan's resolution.
func TestPreviewOf600DPIPageIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("a 600 dpi page takes seconds to draw and read")
	}
	dir := t.TempDir()
	writeSheets(t, dir, sheetgen.Options{DPI: 600}, "big.jpg")
	srcs, _, err := sheetread.List([]string{dir}, sheetread.WriterIndex)
	if err != nil {
		t.Fatal(err)
	}
	s := newSurvey(context.Background(), srcs, sheetread.DefaultLayout(), sheetread.Options{})
	r := s.readOne(0, true)
	if r.report.Err != nil || r.preview == nil {
		t.Fatalf("the 600 dpi page: %v (preview %v)", r.report.Err, r.preview != nil)
	}
	b := r.preview.Bounds()
	if max(b.Dx(), b.Dy()) != PreviewSide || b.Dx()*b.Dy() > PreviewSide*PreviewSide {
		t.Errorf("the preview of a 600 dpi page is %d×%d; its longer side should be %d", b.Dx(), b.Dy(), PreviewSide)
	}
}
