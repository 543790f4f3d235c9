package main

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"idxlabel/store"
	"idxlabel/suspect"
)

func main() {
	ds, _ := store.Open("../shared/data/mnist/t10k-images-idx3-ubyte.gz", "../shared/data/mnist/t10k-labels-idx1-ubyte.gz", store.Options{})
	snap := ds.Snapshot()
	res, _ := suspect.Scan(context.Background(), suspect.Data{N: len(snap.Indices), Dim: snap.Dim, Pixels: snap.Pixels, Labels: snap.Labels}, suspect.Options{}, nil)
	const cols, scale, cell = 10, 3, 28*3 + 30
	img := image.NewRGBA(image.Rect(0, 0, cols*cell, 10*cell))
	draw.Draw(img, img.Rect, image.NewUniform(color.RGBA{40, 40, 40, 255}), image.Point{}, draw.Src)
	for n, s := range res.Suspects[:100] {
		x0, y0 := (n%cols)*cell, (n/cols)*cell
		px := snap.Pixels(s.Index)
		for y := range 28 {
			for x := range 28 {
				v := px[y*28+x]
				for dy := range scale {
					for dx := range scale {
						img.Set(x0+x*scale+dx+3, y0+y*scale+dy+3, color.Gray{v})
					}
				}
			}
		}
		d := font.Drawer{Dst: img, Src: image.NewUniform(color.RGBA{255, 220, 120, 255}), Face: basicfont.Face7x13, Dot: fixed.P(x0+3, y0+28*scale+18)}
		d.DrawString(fmt.Sprintf("%d %d>%d %.1f", n, s.Label, s.Suggested, s.Score))
		fmt.Printf("%d:%d:%d>%d ", n, s.Index, s.Label, s.Suggested)
	}
	f, _ := os.Create("/tmp/sheet.png")
	png.Encode(f, img)
	f.Close()
	hist := map[int]int{}
	for _, s := range res.Suspects[:100] {
		hist[s.Label]++
	}
	fmt.Println("\nlabel histogram of top 100:", hist)
}
