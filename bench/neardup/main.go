// Command neardup measures the near-duplicate and leakage search (suspect/neardup) on real
// MNIST: the pairs it lists within t10k, within the training set and between them (with
// -sheet, a contact sheet PNG of them: each pair side by side, its similarity and uniqueness
// below), and its recall of planted copies: for each seed, 40 copies of t10k digits and 40 of
// training digits planted into t10k (internal/planted), and 40 copies of training 1s, the
// crowded class whose natural neighbours sit closest to a copy.
//
// Usage: go run ./bench/neardup [-seeds 101,102,103] [-sheet pairs.png] [-mnist DIR]
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
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"idxlabel/fixture/mnisttest"
	"idxlabel/fixture/planted"
	"idxlabel/sample"
	"idxlabel/suspect/neardup"
)

func main() {
	seeds := flag.String("seeds", "101,102,103,201,202,203", "planting seeds (comma-separated)")
	sheet := flag.String("sheet", "", "write the natural pairs' contact sheet to this PNG")
	dir := flag.String("mnist", os.Getenv("IDXLABEL_MNIST"), "the MNIST folder (default ../shared/data/mnist)")
	flag.Parse()
	if *dir == "" {
		*dir = "../shared/data/mnist"
	}
	test, testLabels, err := mnisttest.ReadPair(*dir+"/"+mnisttest.TestImages, *dir+"/"+mnisttest.TestLabels)
	if err != nil {
		log.Fatal(err)
	}
	train, trainLabels, err := mnisttest.ReadPair(*dir+"/"+mnisttest.TrainImages, *dir+"/"+mnisttest.TrainLabels)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	td, rd := data(test.Data), data(train.Data)
	basis, err := neardup.FitBasis(ctx, rd, 1)
	if err != nil {
		log.Fatal(err)
	}
	describe := func(d sample.Set) *neardup.Descriptors {
		desc, err := basis.Describe(ctx, d, 0, nil)
		if err != nil {
			log.Fatal(err)
		}
		return desc
	}
	tdesc, rdesc := describe(td), describe(rd)
	var rows []row
	list := func(what string, pairs []neardup.Pair, a, b []byte, la, lb []byte) {
		fmt.Printf("%s: %d pairs\n", what, len(pairs))
		for _, p := range pairs {
			fmt.Printf("  %5d (%d) – %5d (%d)  similarity %.4f  uniqueness %.2f\n", p.A, la[p.A], p.B, lb[p.B], p.Similarity, p.Uniqueness)
			rows = append(rows, row{what, p, px(a, p.A), px(b, p.B)})
		}
	}
	within, err := neardup.Within(ctx, td, tdesc, neardup.Options{})
	if err != nil {
		log.Fatal(err)
	}
	list("duplicates within t10k", within, test.Data, test.Data, testLabels.Data, testLabels.Data)
	leaks, err := neardup.Across(ctx, td, tdesc, rd, rdesc, neardup.Options{})
	if err != nil {
		log.Fatal(err)
	}
	list("leaks t10k -> train", leaks, test.Data, train.Data, testLabels.Data, trainLabels.Data)
	inTrain, err := neardup.Within(ctx, rd, rdesc, neardup.Options{})
	if err != nil {
		log.Fatal(err)
	}
	list("duplicates within train", inTrain, train.Data, train.Data, trainLabels.Data, trainLabels.Data)
	var ones []int
	for i, l := range trainLabels.Data {
		if l == 1 {
			ones = append(ones, i)
		}
	}
	for _, f := range strings.Split(*seeds, ",") {
		seed, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			log.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 2049))
		p := planted.Plant(rng, test.Data, testLabels.Data, 10000, train.Data, trainLabels.Data, 60000, planted.Plan{Duplicates: 40, Leaks: 40})
		// 40 more leaks: copies of training 1s over samples not yet planted.
		used := map[int]bool{}
		for at, src := range p.Duplicates {
			used[at], used[src] = true, true
		}
		for at := range p.Leaks {
			used[at] = true
		}
		ones1 := map[int]int{}
		for k := 0; len(ones1) < 40; k++ {
			at := rng.IntN(10000)
			if used[at] {
				continue
			}
			used[at] = true
			src := ones[rng.IntN(len(ones))]
			copy(p.Pixels[at*784:(at+1)*784], planted.Copy(rng, px(train.Data, src), planted.CopyKinds[k%len(planted.CopyKinds)]))
			ones1[at] = src
		}
		d := sample.Set{N: p.N, H: 28, W: 28, Pixels: func(i int) []byte { return px(p.Pixels, i) }}
		desc := describe(d)
		dups, err := neardup.Within(ctx, d, desc, neardup.Options{})
		if err != nil {
			log.Fatal(err)
		}
		lk, err := neardup.Across(ctx, d, desc, rd, rdesc, neardup.Options{})
		if err != nil {
			log.Fatal(err)
		}
		group := map[int]int{} // sample → its group's first sample
		for _, q := range dups {
			group[q.A], group[q.B] = q.A, q.A
		}
		foundDup := 0
		for at, src := range p.Duplicates {
			if g, ok := group[at]; ok && group[src] == g {
				foundDup++
			}
		}
		byA := map[int]neardup.Pair{}
		for _, q := range lk {
			byA[q.A] = q
		}
		lowest := 1.0
		count := func(m map[int]int) int {
			n := 0
			for at, src := range m {
				if q, ok := byA[at]; ok && q.B == src {
					n++
					lowest = min(lowest, q.Uniqueness)
				}
			}
			return n
		}
		fl := count(p.Leaks)
		fmt.Printf("  lowest uniqueness of a planted leak found: %.2f", lowest)
		lowest = 1
		f1 := count(ones1)
		fmt.Printf("; of a copy of a training 1: %.2f\n", lowest)
		if len(rows) < 200 {
			shown := 0
			for at := range 10000 { // the first seed's copies of training 1s, in sample order
				if src, ok := ones1[at]; ok && shown < 8 {
					q := byA[at]
					rows = append(rows, row{"planted copies of training 1s, as found (first seed)", q, px(p.Pixels, at), px(train.Data, src)})
					shown++
				}
			}
		}
		fmt.Printf("seed %d: copies %d/40 grouped with their source (%d pairs listed); leaks %d/40, of training 1s %d/40 (%d leaks listed)\n",
			seed, foundDup, len(dups), fl, f1, len(lk))
	}
	if *sheet != "" {
		if err := writeSheet(*sheet, rows); err != nil {
			log.Fatal(err)
		}
	}
}

// row is one pair of the contact sheet.
type row struct {
	what string
	p    neardup.Pair
	a, b []byte
}

func data(images []byte) sample.Set {
	return sample.Set{N: len(images) / 784, H: 28, W: 28, Pixels: func(i int) []byte { return px(images, i) }}
}

func px(a []byte, i int) []byte { return a[i*784 : (i+1)*784] }

// writeSheet draws each pair at 3× (white ink on black), side by side, in columns of 4 pairs,
// with "A–B" and "s 0.9912 u 0.35" below; a header line per section.
func writeSheet(path string, rows []row) error {
	const z, cellW, cellH, cols = 3, 2*28*3 + 12, 28*3 + 30, 4
	lines := 0
	var last string
	for k, r := range rows {
		if r.what != last || k%cols == 0 {
			lines++
		}
		if r.what != last {
			lines++ // the header
			last = r.what
		}
	}
	img := image.NewRGBA(image.Rect(0, 0, cols*cellW, lines*cellH+cellH))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.RGBA{40, 40, 48, 255}), image.Point{}, draw.Src)
	text := func(x, y int, s string) {
		d := font.Drawer{Dst: img, Src: image.White, Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
		d.DrawString(s)
	}
	tile := func(x0, y0 int, p []byte) {
		for y := range 28 {
			for x := range 28 {
				v := p[y*28+x]
				for dy := range z {
					for dx := range z {
						img.Set(x0+x*z+dx, y0+y*z+dy, color.Gray{v})
					}
				}
			}
		}
	}
	y, col := 0, cols
	last = ""
	for _, r := range rows {
		if r.what != last {
			if col != cols {
				y += cellH
			}
			text(4, y+18, r.what)
			y += 24
			col, last = 0, r.what
		} else if col == cols {
			y += cellH
			col = 0
		}
		x := col * cellW
		tile(x+2, y, r.a)
		tile(x+2+28*z+4, y, r.b)
		text(x+2, y+28*z+12, fmt.Sprintf("%d-%d", r.p.A, r.p.B))
		text(x+2, y+28*z+25, fmt.Sprintf("s %.4f u %.2f", r.p.Similarity, r.p.Uniqueness))
		col++
	}
	img = img.SubImage(image.Rect(0, 0, cols*cellW, y+cellH)).(*image.RGBA)
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
