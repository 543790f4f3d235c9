package sheets

import (
	"errors"
	"image"
	"testing"
)

// A contact sheet stays within its budget however many sheets there are, and draws a tile for a
// sheet read, one whose grid was not found and one that could not be decoded.
func TestContactBounded(t *testing.T) {
	for _, n := range []int{1, 7, 50, 1000, 100000} {
		c := NewContact(n)
		if px := c.img.Rect.Dx() * c.img.Rect.Dy(); px > MaxContactPixels*11/10 {
			t.Errorf("%d sheets: %d pixels", n, px)
		}
	}
	c := NewContact(3)
	page := image.NewGray(image.Rect(0, 0, 300, 420))
	for i := range page.Pix {
		page.Pix[i] = 240
	}
	c.Add(0, Report{Source: Source{Path: "a.png"}}, &Sheet{Image: page, Boxes: []Box{{State: Filled, Corners: [4]Point{{10, 10}, {50, 10}, {50, 50}, {10, 50}}}}})
	c.Add(1, Report{Source: Source{Path: "b.png"}, Err: &GridError{Reason: "no ruled frame"}}, &Sheet{Image: page})
	c.Add(2, Report{Source: Source{Path: "c.png"}, Err: errors.New("c.png: cannot decode")}, nil)
	c.Add(5, Report{Source: Source{Path: "beyond.png"}}, nil) // past the sheets it was made for: ignored
	green := uint8(c.img.Palette.Index(FilledColour))
	found := false
	for _, v := range c.img.Pix {
		found = found || v == green
	}
	if !found {
		t.Error("the filled box's outline is not drawn")
	}
}
