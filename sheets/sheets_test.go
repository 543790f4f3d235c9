package sheets_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/fixture/digits"
	"idxlabel/fixture/sheetgen"
	"idxlabel/sheets"
)

// testDigits are the tests' digits: fixture/digits' Go font glyphs through MNIST's
// preprocessing, so the tests run without the real MNIST files.
func testDigits(tb testing.TB) sheetgen.Digits {
	images, labels := digits.Load(tb, 2000)
	return sheetgen.MNISTDigits(images.Data, labels.Data)
}

// generate makes a sheet of generated digits (no MNIST files needed), writes it as a JPEG file
// (quality 70 for scans, 85 for photos) and reads it back with sheets.Read.
func generate(t *testing.T, o sheetgen.Options, read *sheets.Layout) (*sheetgen.Sheet, *sheets.Sheet, error) {
	t.Helper()
	truth, err := sheetgen.Make(testDigits(t), o)
	if err != nil {
		t.Fatal(err)
	}
	q := 70
	if o.Kind == sheetgen.Photo {
		q = 85
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, truth.Image, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	truth.Image = nil
	path := filepath.Join(t.TempDir(), "sheet.jpg")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if read == nil {
		read = truth.Layout
	}
	got, err := sheets.Read(context.Background(), path, read, sheets.Options{})
	return truth, got, err
}

// checkBoxes fails t unless every empty box was skipped, every box found holds the digit drawn
// in it (the grid, its turn and its labels are right: a grid one row off, or a page read the
// wrong way up, outlines boxes that hold other digits),
// every filled box was found but for at most one pair flagged at a line both touch, and the
// samples are close to their digits drawn alone (mean correlation at least minCorr).
func checkBoxes(t *testing.T, truth *sheetgen.Sheet, got *sheets.Sheet, minCorr float64) {
	t.Helper()
	if len(got.Boxes) != len(truth.Boxes) {
		t.Fatalf("%d boxes read, %d on the sheet", len(got.Boxes), len(truth.Boxes))
	}
	var sum float64
	found, filled, flagged := 0, 0, 0
	for i, b := range truth.Boxes {
		g := got.Boxes[i]
		if g.Row != b.Row || g.Col != b.Col || g.Label != b.Label {
			t.Fatalf("box %d is row %d col %d label %d, the sheet's row %d col %d label %d", i, g.Row, g.Col, g.Label, b.Row, b.Col, b.Label)
		}
		if !b.Filled {
			if g.State != sheets.Empty && g.State != sheets.Skipped {
				t.Errorf("row %d col %d is empty on the sheet, read as %v (%s)", b.Row, b.Col, g.State, g.Note)
			}
			continue
		}
		filled++
		switch g.State {
		case sheets.Filled:
			found++
		case sheets.Flagged:
			flagged++
			t.Logf("row %d col %d flagged: %s", b.Row, b.Col, g.Note)
			continue
		default:
			t.Errorf("row %d col %d holds a %d, read as %v", b.Row, b.Col, b.Label, g.State)
			continue
		}
		sum += sheetgen.Correlation(g.Sample, b.Reference)
		if !sheetgen.Holds(g.Corners, b.Centre) {
			t.Errorf("row %d col %d: the box found, %v, does not hold the digit drawn there, at %v", b.Row, b.Col, g.Corners, b.Centre)
		}
	}
	if flagged > 2 {
		t.Errorf("%d of %d filled boxes flagged", flagged, filled)
	}
	if mean := sum / float64(max(1, found)); mean < minCorr {
		t.Errorf("mean correlation with the digits drawn alone %.3f, want at least %.2f", mean, minCorr)
	}
	if got.Counts.Filled != found || got.Counts.Flagged != flagged || got.Counts.Read != len(truth.Boxes) {
		t.Errorf("counts %+v; found %d, flagged %d of %d boxes", got.Counts, found, flagged, len(truth.Boxes))
	}
}

// A 300 dpi scan turned 5° either way (more than a scanner's ±4°) finds every box, with its
// label, and skips every empty one.
func TestScanTurnedFiveDegrees(t *testing.T) {
	angles := []float64{5}
	if !testing.Short() {
		angles = append(angles, -5)
	}
	for _, angle := range angles {
		truth, got, err := generate(t, sheetgen.Options{Kind: sheetgen.Scan, Seed: 11, Angle: angle, SetAngle: true}, nil)
		if err != nil {
			t.Fatalf("%.0f°: %v", angle, err)
		}
		if got.Turned != 0 {
			t.Errorf("%.0f°: read as turned %d°", angle, got.Turned)
		}
		checkBoxes(t, truth, got, 0.9)
	}
}

// A page scanned upside down, or turned a quarter, is read the right way up: its heading is
// above the grid.
func TestScanTurnedOver(t *testing.T) {
	if testing.Short() {
		t.Skip("reads two full pages")
	}
	for turns, want := range map[int]int{2: 180, 1: 90, 3: 270} {
		truth, got, err := generate(t, sheetgen.Options{Kind: sheetgen.Scan, Seed: 12, Turns: turns}, nil)
		if err != nil {
			t.Fatalf("%d quarter turns: %v", turns, err)
		}
		if got.Turned != want {
			t.Errorf("%d quarter turns read as %d°", turns, got.Turned)
		}
		checkBoxes(t, truth, got, 0.9)
	}
}

// A photo with the camera tilted 10° about both axes, shading, motion blur and a coloured pen,
// 2250×3000 pixels (the page at about 200 dpi); and one of 1500×2000, the page at about 150
// dpi, where a thin stroke along a line may lose a pixel to it.
func TestPhotoTilted(t *testing.T) {
	if testing.Short() {
		t.Skip("makes and reads two photos")
	}
	for _, w := range []int{2250, 1500} {
		truth, got, err := generate(t, sheetgen.Options{Kind: sheetgen.Photo, Seed: 13, Tilt: 10, SetTilt: true, PhotoWidth: w}, nil)
		if err != nil {
			t.Fatalf("%d px wide: %v", w, err)
		}
		t.Logf("%d px wide", w)
		checkBoxes(t, truth, got, 0.8)
	}
}

// Scans at 150 and 600 dpi, the ends of a flatbed's range.
func TestScanResolutions(t *testing.T) {
	if testing.Short() {
		t.Skip("makes and reads a 600 dpi page")
	}
	for _, dpi := range []float64{150, 600} {
		truth, got, err := generate(t, sheetgen.Options{Kind: sheetgen.Scan, Seed: 14, DPI: dpi}, nil)
		if err != nil {
			t.Fatalf("%.0f dpi: %v", dpi, err)
		}
		t.Logf("%.0f dpi", dpi)
		checkBoxes(t, truth, got, 0.85)
	}
}

// A layout of another shape than the sheet's is refused, saying what the sheet holds; so is a
// layout turned a quarter on a square grid's... a grid of 10×12 read as 12×10 is a turned page.
func TestWrongLayoutIsReported(t *testing.T) {
	shapes := [][2]int{{10, 11}}
	if !testing.Short() {
		shapes = append(shapes, [2]int{9, 12}, [2]int{11, 12})
	}
	for _, shape := range shapes {
		l, err := sheets.ParseLayout(shape[0], shape[1], strings.Repeat("1", shape[0]*shape[1]))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = generate(t, sheetgen.Options{Kind: sheetgen.Clean, Seed: 15, EmptyShare: 0.3, DPI: 150}, l)
		var ge *sheets.GridError
		if !errors.As(err, &ge) || !errors.Is(err, sheets.ErrNoGrid) {
			t.Fatalf("%v: %v, want a GridError", shape, err)
		}
		if !strings.Contains(err.Error(), "has 10 rows × 12 columns") {
			t.Errorf("%v: %v", shape, err)
		}
	}
}

// A page with no grid (blank paper, text, noise) is refused with a reason, never read.
func TestNoGrid(t *testing.T) {
	blank := image.NewGray(image.Rect(0, 0, 1240, 1754))
	for i := range blank.Pix {
		blank.Pix[i] = 240 - uint8(i%7)
	}
	// A frame with no lines inside: a drawn box, not a grid.
	frame := image.NewGray(blank.Rect)
	copy(frame.Pix, blank.Pix)
	for y := 300; y < 1300; y++ {
		for x := 200; x < 1000; x++ {
			if y < 305 || y >= 1295 || x < 205 || x >= 995 {
				frame.Pix[y*frame.Stride+x] = 10
			}
		}
	}
	tiny := image.NewGray(image.Rect(0, 0, 20, 30))
	for name, g := range map[string]*image.Gray{"blank": blank, "frame": frame, "tiny": tiny} {
		_, err := sheets.Find(context.Background(), g, sheets.DefaultLayout(), sheets.Options{})
		if !errors.Is(err, sheets.ErrNoGrid) {
			t.Errorf("%s: %v, want ErrNoGrid", name, err)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// A digit crossing a line into its neighbour is flagged, never made a sample cut at the line.
func TestCrossingIsFlagged(t *testing.T) {
	if testing.Short() {
		t.Skip("makes and reads a page")
	}
	truth, got, err := generate(t, sheetgen.Options{Kind: sheetgen.Scan, Seed: 16, CrossShare: 0.15, TouchShare: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	crossing := 0
	for i, b := range truth.Boxes {
		if !b.Crossing {
			continue
		}
		crossing++
		if g := got.Boxes[i]; g.State != sheets.Flagged {
			t.Errorf("row %d col %d crosses into its neighbour, read as %v", b.Row, b.Col, g.State)
		} else if !strings.Contains(g.Note, "crosses its") {
			t.Errorf("row %d col %d: note %q", b.Row, b.Col, g.Note)
		}
	}
	if crossing < 5 {
		t.Fatalf("only %d crossing digits drawn", crossing)
	}
}

// Cancelling stops a read with the context's error.
func TestFindCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g := image.NewGray(image.Rect(0, 0, 800, 1100))
	if _, err := sheets.Find(ctx, g, sheets.DefaultLayout(), sheets.Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("%v, want context.Canceled", err)
	}
}

// BenchmarkReadScan reads a 300 dpi scan of 120 boxes (JPEG quality 70, 2480×3508) from its
// file: decoding, finding the grid, every box. Run with -benchtime and compare CPU time
// (bench/sheets/README.md).
func BenchmarkReadScan(b *testing.B) {
	truth, err := sheetgen.Make(testDigits(b), sheetgen.Options{Kind: sheetgen.Scan, Seed: 21})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	jpeg.Encode(&buf, truth.Image, &jpeg.Options{Quality: 70})
	path := filepath.Join(b.TempDir(), "scan.jpg")
	os.WriteFile(path, buf.Bytes(), 0o644)
	for b.Loop() {
		if _, err := sheets.Read(context.Background(), path, truth.Layout, sheets.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// A scan's blur is undone before each box is read finer than the page: the samples' shapes
// (each compared with its digit drawn alone at its best shift of ±2 px, so that the whole-pixel
// placement does not count) come out nearer the digits drawn alone than the blurred page gives
// (over these two sheets' 217 samples: 0.9924; with the blur left as captured, 0.9900).
func TestScanBlurUndone(t *testing.T) {
	if testing.Short() {
		t.Skip("makes and reads two pages")
	}
	var sum float64
	n := 0
	for _, seed := range []uint64{23, 24} {
		truth, got, err := generate(t, sheetgen.Options{Kind: sheetgen.Scan, Seed: seed}, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkBoxes(t, truth, got, 0.9)
		for i, b := range truth.Boxes {
			if g := got.Boxes[i]; b.Filled && g.State == sheets.Filled {
				sum += sheetgen.ShiftedCorrelation(g.Sample, b.Reference, 28)
				n++
			}
		}
	}
	const want = 0.9912
	mean := sum / float64(max(1, n))
	if mean < want {
		t.Errorf("%d samples: mean correlation with their digits drawn alone at the best shift %.4f, want at least %.4f", n, mean, want)
	} else {
		t.Logf("%d samples: mean correlation at the best shift %.4f", n, mean)
	}
}
