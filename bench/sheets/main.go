// Command sheets measures how well package sheets reads sheets of handwritten digits: it makes
// sheets from real MNIST digits (fixture/sheetgen: the printed template, 10 rows × 12 columns,
// each digit 40–100 px, some boxes empty, some strokes touching their box's lines), scanned
// (turned ±4°, blurred, noise, 300 dpi, JPEG quality 70) and photographed (perspective, uneven
// light, motion blur, a coloured pen, JPEG quality 85), writes each as a JPEG file and reads it
// back with sheets.Read, as import-sheets does, and compares every box with the truth:
//
//   - filled boxes found (a sample under the box's label), empty boxes skipped, boxes flagged;
//   - a sample placed under the wrong label: the box outlined under that label does not hold
//     the digit drawn there (sheetgen carries each digit's centre through the capture); and,
//     as a check on the samples, one more like another label's digit than its own;
//   - each sample's correlation with the same digit imported alone (the clean drawing through
//     normalize.Digit, import's path), beside what the capture alone keeps of it (the digit
//     drawn alone, degraded as the capture degrades the page) and, for scans, what it keeps
//     when also turned by the scan's angle and turned back (information, not a target); the
//     same correlations at their best shift of ±2 px (the shape without the placement); and
//     how many samples, and digits degraded alone, lie a whole pixel from their reference;
//   - the time and the CPU time of each read.
//
// Usage: go run ./bench/sheets [-n 50] [-seeds 1,2,3] [-kinds scan,photo] [-dpi 300] [-turns 0]
// [-rows 10 -cols 12 -labels SPEC] [-box MM] [-glyphs] [-keep DIR]
//
// The real MNIST files come from ../shared/data/mnist (or $IDXLABEL_MNIST); -glyphs takes
// generated digits (demo.Digits) instead.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"log"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"idxlabel/demo"
	"idxlabel/fixture/mnisttest"
	"idxlabel/fixture/sheetgen"
	"idxlabel/sheets"
)

func main() {
	n := flag.Int("n", 50, "sheets of each kind for each seed")
	seedList := flag.String("seeds", "1,2,3", "seeds, comma-separated")
	kinds := flag.String("kinds", "scan,photo", "kinds of sheets: scan, photo, clean")
	glyphs := flag.Bool("glyphs", false, "generated digits (demo.Digits: Go font glyphs through MNIST's preprocessing) instead of MNIST")
	keep := flag.String("keep", "", "a folder to keep the sheets' JPEG files in")
	dpi := flag.Float64("dpi", 300, "the page's resolution")
	turns := flag.Int("turns", 0, "quarter turns clockwise of every page before capture (2: upside down)")
	rows := flag.Int("rows", 10, "the grid's rows")
	cols := flag.Int("cols", 12, "the grid's columns")
	labels := flag.String("labels", "", "the layout's labels, as import-sheets' --labels (rows=0123456789 for 10 rows)")
	box := flag.Float64("box", 0, "the boxes' side, mm, instead of the template's (a page of a few large boxes; digits drawn as large against their box)")
	flag.Parse()
	var digits sheetgen.Digits
	if *glyphs {
		images, labels, err := demo.Digits(3000, 1)
		if err != nil {
			log.Fatal(err)
		}
		digits = sheetgen.MNISTDigits(images.Data, labels.Data)
	} else {
		dir := os.Getenv("IDXLABEL_MNIST")
		if dir == "" {
			dir = "../shared/data/mnist"
		}
		images, labels, err := mnisttest.ReadPair(filepath.Join(dir, mnisttest.TestImages), filepath.Join(dir, mnisttest.TestLabels))
		if err != nil {
			log.Fatal(err)
		}
		digits = sheetgen.MNISTDigits(images.Data, labels.Data)
	}
	tmp := *keep
	if tmp == "" {
		d, err := os.MkdirTemp("", "sheets-bench-")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(d)
		tmp = d
	} else if err := os.MkdirAll(tmp, 0o755); err != nil {
		log.Fatal(err)
	}
	layout, err := sheets.ParseLayout(*rows, *cols, *labels)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("GOMAXPROCS %d; %s\n", runtime.GOMAXPROCS(0), loadavg())
	for _, kind := range strings.Split(*kinds, ",") {
		var k sheetgen.Kind
		switch kind {
		case "scan":
			k = sheetgen.Scan
		case "photo":
			k = sheetgen.Photo
		case "clean":
			k = sheetgen.Clean
		default:
			log.Fatalf("kind %q", kind)
		}
		for _, ss := range strings.Split(*seedList, ",") {
			seed, err := strconv.ParseUint(ss, 10, 64)
			if err != nil {
				log.Fatal(err)
			}
			var t tally
			for i := range *n {
				s, err := sheetgen.Make(digits, sheetgen.Options{Kind: k, Seed: seed*100000 + uint64(i), DPI: *dpi, Layout: layout, Turns: *turns, Box: *box})
				if err != nil {
					log.Fatal(err)
				}
				q := 70
				if k == sheetgen.Photo {
					q = 85
				}
				var buf bytes.Buffer
				if err := jpeg.Encode(&buf, s.Image, &jpeg.Options{Quality: q}); err != nil {
					log.Fatal(err)
				}
				path := filepath.Join(tmp, fmt.Sprintf("%s-%d-%03d.jpg", kind, seed, i))
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					log.Fatal(err)
				}
				s.Image = nil
				runtime.GC()
				cpu0, t0 := mnisttest.CPUTime(), time.Now()
				got, err := sheets.Read(context.Background(), path, layout, sheets.Options{})
				t.cpu = append(t.cpu, (mnisttest.CPUTime() - cpu0).Seconds())
				t.wall = append(t.wall, time.Since(t0).Seconds())
				t.compare(path, s, got, err)
				if *keep != "" && got != nil {
					writePNG(strings.TrimSuffix(path, ".jpg")+"-preview.png", got.Preview(1200))
					writePNG(strings.TrimSuffix(path, ".jpg")+"-pairs.png", pairs(s, got))
				}
				if *keep == "" {
					os.Remove(path)
				}
			}
			t.print(kind, seed)
		}
	}
}

// tally gathers one kind's and seed's figures.
type tally struct {
	sheets, noGrid                    int
	filled, found, flaggedFilled      int
	empty, emptySkipped, emptyFlagged int
	wrong, unlike                     int
	moved, movedAlone                 int // samples (the digits degraded alone) best matching their reference moved by a pixel
	touching, touchingFound           int
	corr, corrTouching, alone, turned []float64
	shifted, shiftedAlone             []float64 // the same correlations at the best shift of ±2 px
	cpu, wall                         []float64
	notes                             []string
}

func (t *tally) compare(path string, truth *sheetgen.Sheet, got *sheets.Sheet, err error) {
	t.sheets++
	for _, b := range truth.Boxes {
		if b.Label == sheets.Skip {
			continue
		}
		if b.Filled {
			t.filled++
			if b.Touching {
				t.touching++
			}
		} else {
			t.empty++
		}
	}
	if err != nil {
		t.noGrid++
		t.notes = append(t.notes, fmt.Sprintf("%s: %v", filepath.Base(path), err))
		return
	}
	for i, b := range truth.Boxes {
		g := got.Boxes[i]
		if b.Label == sheets.Skip {
			continue
		}
		switch {
		case b.Filled && g.State == sheets.Filled:
			c := sheetgen.Correlation(g.Sample, b.Reference)
			// Placed under the wrong label: the box the reader outlined under this label does
			// not hold the digit drawn in that box (its centre, carried through the capture).
			if !sheetgen.Holds(g.Corners, b.Centre) {
				t.wrong++
				t.notes = append(t.notes, fmt.Sprintf("%s: row %d col %d (label %d): the box found does not hold its digit", filepath.Base(path), b.Row, b.Col, b.Label))
			}
			// And, as a check on the samples themselves, whether one is more like another
			// label's digit on the sheet than its own (each at its best shift of ±2 px).
			own := sheetgen.ShiftedCorrelation(g.Sample, b.Reference, 28)
			for _, o := range truth.Boxes {
				if o.Filled && o.Label != b.Label && sheetgen.ShiftedCorrelation(g.Sample, o.Reference, 28) > own {
					t.unlike++
					t.notes = append(t.notes, fmt.Sprintf("%s: row %d col %d (label %d): its sample is more like row %d col %d (label %d)", filepath.Base(path), b.Row, b.Col, b.Label, o.Row, o.Col, o.Label))
					break
				}
			}
			t.found++
			if b.Touching {
				t.touchingFound++
			}
			t.corr = append(t.corr, c)
			t.shifted = append(t.shifted, sheetgen.ShiftedCorrelation(g.Sample, b.Reference, 28))
			if moved(g.Sample, b.Reference) {
				t.moved++
			}
			if b.Degraded != nil && moved(b.Degraded, b.Reference) {
				t.movedAlone++
			}
			if b.Turned != nil {
				t.turned = append(t.turned, sheetgen.Correlation(b.Turned, b.Reference))
			}
			if b.Degraded != nil {
				t.alone = append(t.alone, sheetgen.Correlation(b.Degraded, b.Reference))
				t.shiftedAlone = append(t.shiftedAlone, sheetgen.ShiftedCorrelation(b.Degraded, b.Reference, 28))
			}
			if b.Touching {
				t.corrTouching = append(t.corrTouching, c)
			}
			if c < 0.5 && os.Getenv("SHEETS_LOW") != "" {
				t.notes = append(t.notes, fmt.Sprintf("%s: row %d col %d correlation %.3f (height %d, touching %v)", filepath.Base(path), b.Row, b.Col, c, b.Height, b.Touching))
			}
		case b.Filled && g.State == sheets.Flagged:
			t.flaggedFilled++
			t.notes = append(t.notes, fmt.Sprintf("%s: row %d col %d flagged: %s", filepath.Base(path), b.Row, b.Col, g.Note))
		case b.Filled:
			t.notes = append(t.notes, fmt.Sprintf("%s: row %d col %d (a %d of %d px, touching %v) taken as empty", filepath.Base(path), b.Row, b.Col, b.Label, b.Height, b.Touching))
		case g.State == sheets.Empty:
			t.emptySkipped++
		case g.State == sheets.Flagged:
			t.emptyFlagged++
			t.notes = append(t.notes, fmt.Sprintf("%s: empty row %d col %d flagged: %s", filepath.Base(path), b.Row, b.Col, g.Note))
		default:
			t.notes = append(t.notes, fmt.Sprintf("%s: empty row %d col %d taken as a digit", filepath.Base(path), b.Row, b.Col))
		}
	}
}

func (t *tally) print(kind string, seed uint64) {
	mean := func(v []float64) float64 {
		var s float64
		for _, x := range v {
			s += x
		}
		return s / float64(max(1, len(v)))
	}
	pct := func(v []float64, p float64) float64 {
		if len(v) == 0 {
			return math.NaN()
		}
		s := slices.Clone(v)
		slices.Sort(s)
		return s[min(len(s)-1, int(p*float64(len(s))))]
	}
	turnedMean := "none"
	if len(t.turned) > 0 {
		turnedMean = fmt.Sprintf("%.4f", mean(t.turned))
	}
	fmt.Printf("%s seed %d: %d sheets (%d without grid); filled %d, found %d (%.2f%%), flagged %d, under a wrong label %d (samples more like another label's digit %d); touching %d, found %d; empty %d, skipped %d, flagged %d; correlation mean %.4f (touching %.4f; the capture alone %.4f, turned and back %s), 5th pct %.3f, min %.3f; read wall mean %.3f s (max %.3f), CPU mean %.3f s (max %.3f); %s\n",
		kind, seed, t.sheets, t.noGrid, t.filled, t.found, 100*float64(t.found)/float64(max(1, t.filled)), t.flaggedFilled, t.wrong, t.unlike,
		t.touching, t.touchingFound, t.empty, t.emptySkipped, t.emptyFlagged,
		mean(t.corr), mean(t.corrTouching), mean(t.alone), turnedMean, pct(t.corr, 0.05), pct(t.corr, 0), mean(t.wall), pct(t.wall, 1), mean(t.cpu), pct(t.cpu, 1), loadavg())
	fmt.Printf("  correlation at the best shift of ±2 px (the shape, without the whole-pixel placement): %.4f, the capture alone %.4f\n", mean(t.shifted), mean(t.shiftedAlone))
	fmt.Printf("  placed a pixel or more from the reference: %d samples (%.1f%%), the capture alone %d (%.1f%%)\n", t.moved, 100*float64(t.moved)/float64(max(1, t.found)), t.movedAlone, 100*float64(t.movedAlone)/float64(max(1, len(t.alone))))
	for k, n := range t.notes {
		if k == 20 {
			fmt.Printf("  … %d more\n", len(t.notes)-20)
			break
		}
		fmt.Println("  " + n)
	}
}

// loadavg returns the machine's load averages.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "load unknown"
	}
	f := strings.Fields(string(b))
	return "load " + strings.Join(f[:3], " ")
}

// pairs draws every box's reference and sample side by side (28×28 each, 3× enlarged), row by
// row, a red cell for a filled box not found.
func pairs(truth *sheetgen.Sheet, got *sheets.Sheet) image.Image {
	l := truth.Layout
	const z, cell = 3, 3 * (28*2 + 4)
	m := image.NewRGBA(image.Rect(0, 0, l.Cols*cell, l.Rows*(28*z+4)))
	for i, b := range truth.Boxes {
		x0, y0 := b.Col*cell, b.Row*(28*z+4)
		put := func(pix []byte, dx int) {
			for y := range 28 * z {
				for x := range 28 * z {
					v := pix[(y/z)*28+x/z]
					m.Set(x0+dx+x, y0+y, color.Gray{v})
				}
			}
		}
		if b.Reference != nil {
			put(b.Reference, 0)
		}
		g := got.Boxes[i]
		if g.Sample != nil {
			put(g.Sample, 28*z+2)
		} else if b.Filled {
			for y := range 28 * z {
				for x := range 28 * z {
					m.Set(x0+28*z+2+x, y0+y, color.RGBA{120, 0, 0, 255})
				}
			}
		}
	}
	return m
}

func writePNG(path string, m image.Image) {
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, m); err != nil {
		log.Fatal(err)
	}
}

// moved reports whether a 28×28 sample is more like its reference moved by a pixel (either way,
// across, down or both) than where it lies: the whole-pixel placement by centre of mass put it
// elsewhere.
func moved(a, ref []byte) bool {
	here := sheetgen.Correlation(a, ref)
	s := make([]byte, len(ref))
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if dx == 0 && dy == 0 {
				continue
			}
			clear(s)
			for y := range 28 {
				for x := range 28 {
					if xx, yy := x+dx, y+dy; xx >= 0 && xx < 28 && yy >= 0 && yy < 28 {
						s[yy*28+xx] = ref[y*28+x]
					}
				}
			}
			if sheetgen.Correlation(a, s) > here {
				return true
			}
		}
	}
	return false
}
