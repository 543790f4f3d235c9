package normalize

import (
	"errors"
	"image"
	"image/color"
	"math"
	"testing"
)

// strokes draws a "7"-like digit on a size×size pad: thick light strokes on black (the drawing
// pad's polarity), or black on white when paper is true.
func strokes(size int, paper bool) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, size, size))
	bg, ink := byte(0), byte(255)
	if paper {
		bg, ink = 255, 0
		for i := range g.Pix {
			g.Pix[i] = bg
		}
	}
	s := float64(size) / 280
	line := func(x0, y0, x1, y1 float64) {
		for t := 0.0; t <= 1; t += 0.002 {
			cx, cy := (x0+t*(x1-x0))*s, (y0+t*(y1-y0))*s
			r := 12 * s
			for y := int(cy - r); y <= int(cy+r); y++ {
				for x := int(cx - r); x <= int(cx+r); x++ {
					if (float64(x)-cx)*(float64(x)-cx)+(float64(y)-cy)*(float64(y)-cy) <= r*r {
						g.SetGray(x, y, color.Gray{ink})
					}
				}
			}
		}
	}
	line(70, 60, 210, 60)
	line(210, 60, 120, 230)
	return g
}

func TestDigitOfADrawing(t *testing.T) {
	for _, paper := range []bool{false, true} {
		got, err := Digit(strokes(280, paper), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Rect != image.Rect(0, 0, 28, 28) {
			t.Fatalf("result %v", got.Rect)
		}
		box, _ := BoundingBox(got)
		if max(box.Dx(), box.Dy()) != 20 {
			t.Fatalf("paper=%v: long side %d px, want 20", paper, max(box.Dx(), box.Dy()))
		}
		r, c, _ := CenterOfMass(got)
		if math.Abs(r-14) > 0.5 || math.Abs(c-14) > 0.5 {
			t.Fatalf("paper=%v: centre of mass (%.2f, %.2f)", paper, r, c)
		}
		// Background stays 0 and ink reaches 255 with grey levels between (anti-aliasing).
		grey, full := 0, 0
		for _, v := range got.Pix {
			if v == 255 {
				full++
			} else if v > 0 {
				grey++
			}
		}
		if full == 0 || grey == 0 {
			t.Fatalf("paper=%v: %d full-ink and %d grey pixels", paper, full, grey)
		}
	}
}

func TestBoxCentring(t *testing.T) {
	got, err := Digit(strokes(280, false), Options{Centering: CenterBox})
	if err != nil {
		t.Fatal(err)
	}
	box, _ := BoundingBox(got)
	if l, r := box.Min.X, 28-box.Max.X; l-r > 1 || r-l > 1 {
		t.Fatalf("box %v not centred horizontally", box)
	}
	if tp, bt := box.Min.Y, 28-box.Max.Y; tp-bt > 1 || bt-tp > 1 {
		t.Fatalf("box %v not centred vertically", box)
	}
}

func TestEmptyInputs(t *testing.T) {
	if _, err := Digit(image.NewGray(image.Rect(0, 0, 280, 280)), Options{}); !errors.Is(err, ErrEmpty) {
		t.Fatalf("empty pad: %v", err)
	}
	if _, err := Digit(image.NewGray(image.Rectangle{}), Options{}); !errors.Is(err, ErrEmpty) {
		t.Fatalf("zero-size image: %v", err)
	}
}

func TestThresholdAndTransparency(t *testing.T) {
	g := image.NewGray(image.Rect(0, 0, 4, 1))
	copy(g.Pix, []byte{10, 100, 200, 255})
	if ink := Bilevel(Ink(g, InkLight), 128); ink.Pix[0] != 0 || ink.Pix[1] != 0 || ink.Pix[2] != 255 || ink.Pix[3] != 255 {
		t.Fatalf("threshold 128: %v", ink.Pix)
	}
	if ink := Ink(g, InkDark); ink.Pix[0] != 245 || ink.Pix[3] != 0 {
		t.Fatalf("dark ink: %v", ink.Pix)
	}
	n := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	n.Pix = []byte{255, 255, 255, 0, 0, 0, 0, 200}
	if ink := Ink(n, InkAuto); ink.Pix[0] != 0 || ink.Pix[1] != 200 {
		t.Fatalf("alpha as ink: %v", ink.Pix)
	}
	if c, err := ParseCentering("box"); err != nil || c != CenterBox || c.String() != "box" {
		t.Fatal("ParseCentering box")
	}
	if _, err := ParseCentering("middle"); err == nil {
		t.Fatal("ParseCentering accepted middle")
	}
}

// BenchmarkDigit128 times one 128×128 bilevel drawing → 28×28, the drawing pad's live preview
// (target ≤ 1 ms).
func BenchmarkDigit128(b *testing.B) {
	pad := strokes(128, false)
	for b.Loop() {
		if _, err := Digit(pad, Options{Polarity: InkLight}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDigit1000Photo times a 1000×1000 grey photo-like image (dark strokes on paper).
func BenchmarkDigit1000Photo(b *testing.B) {
	img := strokes(1000, true)
	for b.Loop() {
		if _, err := Digit(img, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestOtherFieldSize(t *testing.T) {
	got, err := Digit(strokes(280, false), Options{Polarity: InkLight, Width: 32, Height: 32})
	if err != nil {
		t.Fatal(err)
	}
	if got.Rect != image.Rect(0, 0, 32, 32) {
		t.Fatalf("field %v", got.Rect)
	}
	box, _ := BoundingBox(got)
	if max(box.Dx(), box.Dy()) != 23 { // round(32·20/28)
		t.Fatalf("long side %d px, want 23", max(box.Dx(), box.Dy()))
	}
	r, c, _ := CenterOfMass(got)
	if math.Abs(r-16) > 0.5 || math.Abs(c-16) > 0.5 {
		t.Fatalf("centre of mass (%.2f, %.2f), want (16, 16)", r, c)
	}
	wide, _ := Digit(strokes(280, false), Options{Polarity: InkLight, Width: 56, Height: 28})
	if wide.Rect != image.Rect(0, 0, 56, 28) {
		t.Fatalf("56×28 field: %v", wide.Rect)
	}
	if box, _ := BoundingBox(wide); box.Dy() != 20 || box.Dx() > 40 {
		t.Fatalf("56×28 field: box %v", box)
	}
}
