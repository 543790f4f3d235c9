// Command suspects evaluates the suspect rankings on real MNIST files (or a larger set tiled
// from them): for the CNN scan (the default) and the k-NN scan, the scan's wall and CPU time,
// peak RSS, and out-of-fold (CNN) or leave-one-out (k-NN) error; with -plant, how many planted
// label errors rank in the top N for each N of -at and how many of those have their original
// label suggested; the label distribution of the top suspects and a contact sheet of them (PNG:
// each tile with its rank, label → suggestion and score) for judging by eye.
//
// Usage: go run ./bench/suspects [-n N] [-method cnn|knn|both] [-plant 100] [-plantseed 5]
// [-at 100,200] [-seed 1] [-seeds 0] [-folds 0] [-epochs 0] [-neighbours 0] [-shifts]
// [-top 100] [-sheet top100.png] [-cpuprofile FILE] IMAGES LABELS
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
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"idxlabel/fixture/mnisttest"
	"idxlabel/sample"
	"idxlabel/suspect"
)

func main() {
	n := flag.Int("n", 0, "samples (0: the file's; more: shifted copies of the file's samples are added)")
	k := flag.Int("k", 10, "k-NN: neighbours")
	method := flag.String("method", "cnn", "cnn, knn or both")
	plant := flag.Int("plant", 0, "flip this many random labels to a random other class and report how many are found")
	plantSeed := flag.Uint64("plantseed", 5, "seed of the planted flips")
	at := flag.String("at", "100,200", "with -plant: report the planted errors in the top N for each of these N")
	seed := flag.Uint64("seed", 1, "CNN: seed")
	seeds := flag.Int("seeds", 0, "CNN: seeds whose out-of-fold probabilities are averaged (0: default)")
	folds := flag.Int("folds", 0, "CNN: folds (0: default)")
	epochs := flag.Int("epochs", 0, "CNN: epochs per fold (0: the default for the size)")
	neighbours := flag.Int("neighbours", 0, "CNN: neighbours of the feature vote (0: default, -1: none)")
	shifts := flag.Bool("shifts", false, "CNN: average each held-out prediction over 9 one-pixel shifts")
	workers := flag.Int("workers", 0, "CNN: folds trained at once (0: default)")
	top := flag.Int("top", 100, "suspects to list and draw")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the scans to this file")
	sheet := flag.String("sheet", "", "write a contact sheet of the top suspects to this PNG (with -method both: <name>-cnn.png and <name>-knn.png)")
	flag.Parse()
	if flag.NArg() != 2 {
		log.Fatal("usage: suspects [flags] IMAGES LABELS (-h lists the flags)")
	}
	var cuts []int
	for f := range strings.SplitSeq(*at, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || c < 1 {
			log.Fatalf("-at: %q is not a positive number", f)
		}
		cuts = append(cuts, c)
	}
	images, labels, err := mnisttest.ReadPair(flag.Arg(0), flag.Arg(1))
	if err != nil {
		log.Fatal(err)
	}
	if *n == 0 {
		*n = images.Dims[0]
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
	planted := map[int]int{} // sample → its true label
	if *plant > 0 {
		rng := rand.New(rand.NewPCG(*plantSeed, *plantSeed))
		for len(planted) < *plant {
			i := rng.IntN(*n)
			if _, ok := planted[i]; !ok {
				planted[i] = ls[i]
				ls[i] = (ls[i] + 1 + rng.IntN(9)) % 10
			}
		}
	}
	data := sample.Set{N: *n, H: 28, W: 28, Labels: ls, Pixels: func(i int) []byte { return images.Data[i*784 : (i+1)*784] }}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	methods := []string{*method}
	if *method == "both" {
		methods = []string{"knn", "cnn"}
	}
	for _, m := range methods {
		start, cpu0 := time.Now(), mnisttest.CPUTime()
		var list []suspect.Suspect
		var errRate float64
		var what string
		heapPeak, _ := mnisttest.PeakHeap(func() error {
			switch m {
			case "knn":
				res, err := suspect.Scan(context.Background(), data, suspect.Options{K: *k}, nil)
				if err != nil {
					log.Fatal(err)
				}
				list, what = res.Suspects, fmt.Sprintf("leave-one-out %d-NN error", *k)
				wrong := 0
				for _, s := range list {
					if s.Suggested != s.Label {
						wrong++
					}
				}
				errRate = float64(wrong) / float64(len(list))
			case "cnn":
				last := time.Time{}
				opts := suspect.CNNOptions{Seed: *seed, Seeds: *seeds, Folds: *folds, Epochs: *epochs, Workers: *workers, Neighbours: *neighbours, Shifts: *shifts}
				res, err := suspect.ScanCNN(context.Background(), data, opts, func(p suspect.Progress) {
					if time.Since(last) > 10*time.Second {
						last = time.Now()
						fmt.Fprintf(os.Stderr, "  model %d/%d epoch %d/%d: %.0f%% done, %s left\n", p.Fold, p.Folds, p.Epoch, p.Epochs, 100*p.Done, p.Left.Round(time.Second))
					}
				})
				if err != nil {
					log.Fatal(err)
				}
				list, errRate, what = res.Suspects, res.Error, "out-of-fold error (blended)"
				fmt.Printf("cnn: out-of-fold error of the networks %.2f%% (each seed alone:", 100*res.CNNError)
				for _, e := range res.SeedErrors {
					fmt.Printf(" %.2f%%", 100*e)
				}
				fmt.Printf("); model temperature %.3f\n", res.Model.Temperature())
			default:
				log.Fatalf("unknown method %q", m)
			}
			return nil
		})
		took, cpu := time.Since(start), mnisttest.CPUTime()-cpu0
		fmt.Printf("%s: %d samples scanned in %.1f s wall, %.1f s CPU; %s %.2f%%; heap peak %.1f MB beyond the %.1f MB of pixels; process peak RSS %.0f MB\n",
			m, *n, took.Seconds(), cpu.Seconds(), what, 100*errRate, float64(heapPeak)/(1<<20), float64(*n*784)/(1<<20), mnisttest.PeakRSS())
		if len(planted) > 0 {
			reportPlanted(m, list, planted, cuts)
		}
		hist := make([]int, 10)
		for _, s := range list[:*top] {
			if s.Label >= 0 && s.Label < 10 {
				hist[s.Label]++
			}
		}
		fmt.Printf("%s: labels of the top %d (0–9): %v\n", m, *top, hist)
		for r, s := range list[:min(*top, 40)] {
			fmt.Printf("  %2d. sample %5d  label %d → %d  score %.3f\n", r, s.Index, s.Label, s.Suggested, s.Score)
		}
		if *sheet != "" {
			path := *sheet
			if len(methods) > 1 {
				path = strings.TrimSuffix(path, ".png") + "-" + m + ".png"
			}
			if err := drawSheet(path, list[:*top], data.Pixels); err != nil {
				log.Fatal(err)
			}
		}
	}
}

// reportPlanted prints how many planted errors rank in the top N for each cut-off N, and how
// many of those have the original label suggested.
func reportPlanted(name string, list []suspect.Suspect, planted map[int]int, cuts []int) {
	fmt.Printf("%s: planted %d errors:", name, len(planted))
	for _, c := range cuts {
		in, restored := 0, 0
		for _, s := range list[:min(c, len(list))] {
			if orig, ok := planted[s.Index]; ok {
				in++
				if s.Suggested == orig {
					restored++
				}
			}
		}
		fmt.Printf(" %d in the top %d (%d restored);", in, c, restored)
	}
	fmt.Println()
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
		d.DrawString(fmt.Sprintf("%d %d>%d %.2f", n, s.Label, s.Suggested, s.Score))
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
