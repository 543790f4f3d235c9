//go:build ignore

// gen.go draws icon.png, the app icon: a "7" rendered from the Go Bold font at 28×28 with
// anti-aliasing, shown with crisp enlarged pixels (like a tile in the app) on a dark rounded
// square, with an orange label badge in the corner. Run: go run icons/gen.go
package main

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"log"
	"os"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

const size = 256

func main() {
	f, err := opentype.Parse(gobold.TTF)
	if err != nil {
		log.Fatal(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: 26, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		log.Fatal(err)
	}
	digit := image.NewGray(image.Rect(0, 0, 28, 28))
	d := font.Drawer{Dst: digit, Src: image.White, Face: face}
	adv := d.MeasureString("7")
	d.Dot = fixed.Point26_6{X: (fixed.I(28) - adv) / 2, Y: fixed.I(24)}
	d.DrawString("7")

	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	bg := color.NRGBA{0x22, 0x26, 0x30, 0xff}
	radius := 40
	for y := range size {
		for x := range size {
			if inRounded(x, y, radius) {
				img.Set(x, y, bg)
			}
		}
	}
	const cell, off = 7, (size - 28*7) / 2
	for y := range 28 {
		for x := range 28 {
			v := digit.GrayAt(x, y).Y
			c := color.NRGBA{v, v, v, 0xff}
			if v == 0 {
				c = color.NRGBA{0x10, 0x12, 0x18, 0xff}
			}
			draw.Draw(img, image.Rect(off+x*cell, off+y*cell, off+x*cell+cell-1, off+y*cell+cell-1), image.NewUniform(c), image.Point{}, draw.Src)
		}
	}
	badge := image.Rect(size-84, size-84, size-24, size-24)
	draw.Draw(img, badge, image.NewUniform(color.NRGBA{0xf0, 0x8c, 0x1e, 0xff}), image.Point{}, draw.Src)
	small, _ := opentype.NewFace(f, &opentype.FaceOptions{Size: 48, DPI: 72, Hinting: font.HintingNone})
	bd := font.Drawer{Dst: img, Src: image.NewUniform(color.NRGBA{0x22, 0x26, 0x30, 0xff}), Face: small}
	bd.Dot = fixed.Point26_6{X: fixed.I(badge.Min.X) + (fixed.I(60)-bd.MeasureString("7"))/2, Y: fixed.I(badge.Max.Y - 12)}
	bd.DrawString("7")

	out, err := os.Create("icons/icon.png")
	if err != nil {
		log.Fatal(err)
	}
	defer out.Close()
	if err := png.Encode(out, img); err != nil {
		log.Fatal(err)
	}
}

func inRounded(x, y, r int) bool {
	cx, cy := x, y
	switch {
	case x < r:
		cx = r
	case x >= size-r:
		cx = size - r - 1
	}
	switch {
	case y < r:
		cy = r
	case y >= size-r:
		cy = size - r - 1
	}
	dx, dy := x-cx, y-cy
	return dx*dx+dy*dy <= r*r
}
