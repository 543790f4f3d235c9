// Command suspects evaluates the suspect rankings on the real MNIST test set (or a larger set
// built from it): for the CNN (cross-validated, the default) and the k-NN scan, the scan's time
// and out-of-fold (CNN) or leave-one-out (k-NN) error, with -plant the planted label errors found
// in the top 100 and top 200 and how many suggestions restore the original label, the label
// distribution of the top N, and a contact sheet of them (PNG: each tile with its rank, label →
// suggestion and score) for judging by eye how many are really mislabelled.
//
// Usage: go run ./bench/suspects [-n 10000] [-method cnn|knn|both] [-plant 100] [-seed 1]
// [-folds 5] [-epochs 0] [-top 100] [-sheet top100.png] T10K_IMAGES T10K_LABELS
package main

import (
	"cmp"
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
	"runtime/metrics"
	"slices"
	"strings"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"idxlabel/internal/mnisttest"
	"idxlabel/suspect"
)

func main() {
	n := flag.Int("n", 10000, "samples (more than 10,000: shifted copies of t10k are added)")
	k := flag.Int("k", 10, "k-NN: neighbours")
	method := flag.String("method", "cnn", "cnn, knn or both")
	plant := flag.Int("plant", 0, "flip this many random labels (fixed seed) to another class and report how many are found")
	seed := flag.Uint64("seed", 1, "CNN: seed")
	folds := flag.Int("folds", 5, "CNN: folds")
	epochs := flag.Int("epochs", 0, "CNN: epochs per fold (0: the default for the size)")
	workers := flag.Int("workers", 0, "CNN: folds trained at once (0: default)")
	seeds := flag.Int("seeds", 1, "CNN: seeds whose out-of-fold probabilities are averaged")
	top := flag.Int("top", 100, "suspects to list and draw")
	sheet := flag.String("sheet", "", "write a contact sheet of the top suspects to this PNG (with -method both: <name>-cnn.png and <name>-knn.png)")
	flag.Parse()
	if flag.NArg() != 2 {
		log.Fatal("usage: suspects [-n N] [-method cnn|knn|both] [-plant N] [-seed S] [-folds K] [-epochs E] [-top N] [-sheet out.png] T10K_IMAGES T10K_LABELS")
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
	planted := map[int]int{} // sample → its true label
	if *plant > 0 {
		rng := rand.New(rand.NewPCG(5, 5))
		for len(planted) < *plant {
			i := rng.IntN(*n)
			if _, ok := planted[i]; !ok {
				planted[i] = ls[i]
				ls[i] = (ls[i] + 1 + rng.IntN(9)) % 10
			}
		}
	}
	data := suspect.Data{N: *n, Dim: 784, Labels: ls, Pixels: func(i int) []byte { return images.Data[i*784 : (i+1)*784] }}
	methods := []string{*method}
	if *method == "both" {
		methods = []string{"knn", "cnn"}
	}
	scores := map[string][]suspect.Suspect{}
	for _, m := range methods {
		base := heapBytes()
		peak := base
		stop, stopped := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(stopped)
			for {
				select {
				case <-stop:
					return
				case <-time.After(5 * time.Millisecond):
					peak = max(peak, heapBytes())
				}
			}
		}()
		start := time.Now()
		var list []suspect.Suspect
		var errRate float64
		var what string
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
			res, err := suspect.ScanCNN(context.Background(), data, suspect.CNNOptions{Seed: *seed, Folds: *folds, Epochs: *epochs, Workers: *workers, Seeds: *seeds},
				func(p suspect.Progress) {
					if time.Since(last) > 10*time.Second {
						last = time.Now()
						fmt.Fprintf(os.Stderr, "  fold %d/%d epoch %d/%d: %.0f%% done, %s left\n", p.Fold, p.Folds, p.Epoch, p.Epochs, 100*p.Done, p.Left.Round(time.Second))
					}
				})
			if err != nil {
				log.Fatal(err)
			}
			list, errRate, what = res.Suspects, res.Error, "out-of-fold CNN error"
			if len(res.SeedErrors) > 1 {
				fmt.Printf("cnn: out-of-fold error of each seed alone:")
				for _, e := range res.SeedErrors {
					fmt.Printf(" %.2f%%", 100*e)
				}
				fmt.Println()
			}
		default:
			log.Fatalf("unknown method %q", m)
		}
		took := time.Since(start)
		close(stop)
		<-stopped
		scores[m] = list
		fmt.Printf("%s: %d samples scanned in %.1f s; %s %.2f%%; heap peak %.1f MB beyond the %.1f MB of pixels\n",
			m, *n, took.Seconds(), what, 100*errRate, float64(peak-base)/(1<<20), float64(*n*784)/(1<<20))
		if len(planted) > 0 {
			reportPlanted(m, list, planted)
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
	if scores["cnn"] != nil && scores["knn"] != nil {
		for _, w := range []float64{0.25, 0.5} {
			list := mix(scores["cnn"], scores["knn"], w)
			name := fmt.Sprintf("cnn+%.2f·knn", w)
			if len(planted) > 0 {
				reportPlanted(name, list, planted)
			}
			fmt.Printf("%s: top 100:", name)
			for _, s := range list[:min(100, len(list))] {
				fmt.Printf(" %d", s.Index)
			}
			fmt.Println()
		}
	}
}

// mix ranks by (1−w)·the CNN's score + w·the k-NN's, suggestions and ties (Support) from the CNN.
func mix(cnn, knn []suspect.Suspect, w float64) []suspect.Suspect {
	ks := map[int]float64{}
	for _, s := range knn {
		ks[s.Index] = s.Score
	}
	out := slices.Clone(cnn)
	for i := range out {
		out[i].Score = (1-w)*out[i].Score + w*ks[out[i].Index]
	}
	slices.SortStableFunc(out, func(a, b suspect.Suspect) int {
		switch {
		case a.Score != b.Score:
			return cmp.Compare(b.Score, a.Score)
		case a.Support != b.Support:
			return cmp.Compare(b.Support, a.Support)
		}
		return a.Index - b.Index
	})
	return out
}

// reportPlanted prints how many planted errors rank in the top 100 and 200, and how many of
// those have the original label suggested.
func reportPlanted(name string, list []suspect.Suspect, planted map[int]int) {
	in100, in200, restored := 0, 0, 0
	for r, s := range list[:min(200, len(list))] {
		if orig, ok := planted[s.Index]; ok {
			in200++
			if r < 100 {
				in100++
			}
			if s.Suggested == orig {
				restored++
			}
		}
	}
	fmt.Printf("%s: planted %d errors: %d in the top 100, %d in the top 200, %d of those with the original label suggested\n", name, len(planted), in100, in200, restored)
}

// heapBytes returns the heap's live bytes as marked by the last garbage collection (the
// working set; the bytes of heap objects would also count garbage not yet collected).
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
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
