// Command suspects evaluates the suspect ranking on the real MNIST test set (or a larger set
// built from it): the scan's time, the leave-one-out k-NN error of its features, the label
// distribution of the top N suspects, and a contact sheet of them (PNG: each tile with its rank,
// label → suggestion and score) for judging by eye how many are really mislabelled.
//
// Usage: go run ./bench/suspects [-n 10000] [-k 10] [-top 100] [-sheet top100.png] T10K_IMAGES T10K_LABELS
package main

import (
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"log"
	"os"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"idxlabel/internal/mnisttest"
	"idxlabel/suspect"
)

func main() {
	n := flag.Int("n", 10000, "samples (more than 10,000: shifted copies of t10k are added)")
	k := flag.Int("k", 10, "neighbours")
	top := flag.Int("top", 100, "suspects to list and draw")
	sheet := flag.String("sheet", "", "write a contact sheet of the top suspects to this PNG")
	flag.Parse()
	if flag.NArg() != 2 {
		log.Fatal("usage: suspects [-n N] [-k K] [-top N] [-sheet out.png] T10K_IMAGES T10K_LABELS")
	}
	images, labels, err := mnisttest.ReadPair(flag.Arg(0), flag.Arg(1))
	if err != nil {
		log.Fatal(err)
	}
	if *n != images.Dims[0] {
		if images, labels, err = mnisttest.Shifted(images, labels, *n); err != nil {
			log.Fatal(err)
		}
	}
	ls := make([]int, *n)
	for i := range ls {
		ls[i] = int(labels.Data[i])
	}
	data := suspect.Data{N: *n, Dim: 784, Labels: ls, Pixels: func(i int) []byte { return images.Data[i*784 : (i+1)*784] }}
	start := time.Now()
	res, err := suspect.Scan(context.Background(), data, suspect.Options{K: *k}, nil)
	if err != nil {
		log.Fatal(err)
	}
	took := time.Since(start)
	wrong, above := 0, 0
	for _, s := range res.Suspects {
		if s.Suggested != s.Label {
			wrong++
		}
		if s.Score >= 0.5 {
			above++
		}
	}
	hist := make([]int, 10)
	for _, s := range res.Suspects[:*top] {
		if s.Label >= 0 && s.Label < 10 {
			hist[s.Label]++
		}
	}
	fmt.Printf("%d samples scanned in %.2f s; leave-one-out %d-NN error %.2f%%; %d with score ≥ 0.5; %d near-duplicate pairs\n",
		*n, took.Seconds(), *k, 100*float64(wrong)/float64(len(res.Suspects)), above, len(res.Duplicates))
	fmt.Printf("labels of the top %d (0–9): %v\n", *top, hist)
	for r, s := range res.Suspects[:min(*top, 40)] {
		fmt.Printf("  %2d. sample %5d  label %d → %d  score %.2f\n", r, s.Index, s.Label, s.Suggested, s.Score)
	}
	if *sheet != "" {
		if err := drawSheet(*sheet, res.Suspects[:*top], data.Pixels); err != nil {
			log.Fatal(err)
		}
	}
}

// drawSheet draws the suspects 10 to a row, each enlarged ×3 with "rank label>suggested score".
func drawSheet(path string, list []suspect.Suspect, pixels func(int) []byte) error {
	const cols, scale, cell = 10, 3, 28*3 + 30
	rows := (len(list) + cols - 1) / cols
	img := image.NewRGBA(image.Rect(0, 0, cols*cell, rows*cell))
	draw.Draw(img, img.Rect, image.NewUniform(color.RGBA{40, 40, 40, 255}), image.Point{}, draw.Src)
	for n, s := range list {
		x0, y0 := (n%cols)*cell, (n/cols)*cell
		px := pixels(s.Index)
		for y := range 28 {
			for x := range 28 {
				draw.Draw(img, image.Rect(x0+3+x*scale, y0+3+y*scale, x0+3+(x+1)*scale, y0+3+(y+1)*scale), image.NewUniform(color.Gray{px[y*28+x]}), image.Point{}, draw.Src)
			}
		}
		d := font.Drawer{Dst: img, Src: image.NewUniform(color.RGBA{255, 220, 120, 255}), Face: basicfont.Face7x13, Dot: fixed.P(x0+3, y0+28*scale+18)}
		d.DrawString(fmt.Sprintf("%d %d>%d %.1f", n, s.Label, s.Suggested, s.Score))
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
