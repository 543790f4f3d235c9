// Command map measures the 2-D map on real IDX files: the CNN scan (suspect.ScanCNN) of the
// pairs given, concatenated in order, then the layout of its features (embed.Map), each timed,
// and the map's 10-nearest-neighbour label agreement (embed.NeighbourAgreement), next to a 2-D
// PCA of the features and of the pixels for reference (up to 10,000 samples). With -n larger than the samples, the
// scan's features are tiled to n samples (each copy with 5% noise) to time the layout of a
// large dataset (a pool laid out, the rest placed by their neighbours), and the agreement is
// measured on 10,000 evenly spaced samples. It also writes the confusion matrix and the map
// as CSV (-csv) and as PNG in both themes (-png).
//
// Usage: go run ./bench/map [-n N] [-pool P] [-seed S] [-csv PREFIX] [-png PREFIX]
// [-save PREFIX | -load PREFIX] IMAGES LABELS [IMAGES2 LABELS2 …]
package main

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"image"
	"image/png"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/metrics"
	"time"

	"idxlabel/fixture/mnisttest"
	"idxlabel/plot"
	"idxlabel/report"
	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/confusion"
	"idxlabel/suspect/embed"
	"idxlabel/suspect/nn"
)

func main() {
	n := flag.Int("n", 0, "tile the scan's features to this many samples (0: as scanned)")
	pool := flag.Int("pool", 0, "embed.MapOptions.Pool (0: the default)")
	seed := flag.Uint64("seed", 1, "seed of the scan and of the layout")
	csvOut := flag.String("csv", "", "write PREFIX-confusion.csv and PREFIX-map.csv")
	pngOut := flag.String("png", "", "write PREFIX-{map,confusion}-{light,dark}.png")
	save := flag.String("save", "", "save the scan's probabilities and features to PREFIX-{probs,features}.f32")
	load := flag.String("load", "", "read the scan's outputs saved with -save instead of scanning")
	flag.Parse()
	if flag.NArg() < 2 || flag.NArg()%2 != 0 {
		log.Fatal("usage: map [-n N] [-pool P] [-seed S] [-csv PREFIX] [-png PREFIX] [-save PREFIX | -load PREFIX] IMAGES LABELS [IMAGES2 LABELS2 …]")
	}
	var pixels []byte
	var labels []int
	for a := 0; a < flag.NArg(); a += 2 {
		im, lb, err := mnisttest.ReadPair(flag.Arg(a), flag.Arg(a+1))
		if err != nil {
			log.Fatal(err)
		}
		pixels = append(pixels, im.Data...)
		for _, l := range lb.Data {
			labels = append(labels, int(l))
		}
	}
	ctx := context.Background()
	total := len(labels)
	var probs, feats []float32
	classes := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	if *load != "" {
		probs, feats = readF32(*load+"-probs.f32"), readF32(*load+"-features.f32")
		if len(feats) != total*cnn.Features || len(probs) != total*len(classes) {
			log.Fatalf("%s: outputs of another dataset", *load)
		}
	} else {
		d := sample.Set{N: total, H: 28, W: 28, Labels: labels, Pixels: func(i int) []byte { return pixels[i*784 : (i+1)*784] }}
		start := time.Now()
		res, err := suspect.ScanCNN(ctx, d, suspect.CNNOptions{Seed: *seed}, nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("scan: %d samples in %.1f s, out-of-fold error %.2f%%, heap in use %d MB\n", total, time.Since(start).Seconds(), 100*res.Error, heapInUse()>>20)
		probs, feats, classes = res.Probs, res.Features, res.Classes
		if *save != "" {
			writeF32(*save+"-probs.f32", probs)
			writeF32(*save+"-features.f32", feats)
		}
	}
	mapLabels := labels
	if *n > total {
		feats, mapLabels = tile(feats, labels, *n)
		runtime.GC()
	}
	size := len(mapLabels)
	start := time.Now()
	xy, err := embed.Map(ctx, nn.Vectors{Data: feats, N: size, Dim: cnn.Features}, embed.MapOptions{Pool: *pool, Options: embed.Options{Seed: *seed}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("map: %d samples in %.1f s, heap in use %d MB\n", size, time.Since(start).Seconds(), heapInUse()>>20)
	var queries []int // all samples up to 70,000; 10,000 evenly spaced above
	if size > 70000 {
		for k := range 10000 {
			queries = append(queries, k*size/10000)
		}
	}
	agree := func(name string, xy []float32, q []int) {
		a, err := embed.NeighbourAgreement(ctx, xy, mapLabels, 10, q, 0)
		if err != nil {
			log.Fatal(err)
		}
		what := "all samples"
		if q != nil {
			what = fmt.Sprintf("%d samples", len(q))
		}
		fmt.Printf("10-NN label agreement, %s, %s: %.2f%%\n", name, what, 100*a)
	}
	agree("map", xy, queries)
	if total > 10000 && size == total {
		last := make([]int, 10000) // the last 10,000: t10k when it is given last
		for k := range last {
			last[k] = total - 10000 + k
		}
		agree("map", xy, last)
	}
	if size <= 10000 { // the baselines copy the pixels as float32: not at larger sizes
		pf, err := embed.Project(nn.Vectors{Data: feats, N: size, Dim: cnn.Features})
		if err != nil {
			log.Fatal(err)
		}
		agree("2-D PCA of the features", pf, nil)
		pix := make([]float32, len(pixels))
		for i, v := range pixels {
			pix[i] = float32(v)
		}
		pp, err := embed.Project(nn.Vectors{Data: pix, N: total, Dim: 784})
		if err != nil {
			log.Fatal(err)
		}
		agree("2-D PCA of the pixels", pp, nil)
	}
	if *csvOut != "" || *pngOut != "" {
		outputs(xy, labels, probs, classes, *csvOut, *pngOut)
	}
}

// outputs writes the confusion matrix and the map as CSV and PNG (the scanned samples only).
func outputs(xy []float32, labels []int, probs []float32, classes []int, csvOut, pngOut string) {
	m, err := confusion.New(labels, probs, classes)
	if err != nil {
		log.Fatal(err)
	}
	xy = xy[:2*len(labels)]
	if csvOut != "" {
		write(csvOut+"-confusion.csv", func(f *os.File) error { return report.WriteConfusionCSV(f, m, nil) })
		write(csvOut+"-map.csv", func(f *os.File) error { return report.WriteMapCSV(f, xy) })
	}
	if pngOut == "" {
		return
	}
	pm, err := plot.NewMap(xy)
	if err != nil {
		log.Fatal(err)
	}
	colour := make([]uint16, len(labels))
	var marked []plot.Marked
	for i, l := range labels {
		colour[i] = uint16(l)
		if p, _ := m.Predicted(i); p != l {
			marked = append(marked, plot.Marked{Index: i, Marks: plot.Suspect})
		}
	}
	keys := append(plot.ClassKeys(classes, nil), plot.Key{Marks: plot.Suspect, Text: "suspect"})
	for name, s := range map[string]plot.Style{"light": plot.Light(), "dark": plot.Dark()} {
		start := time.Now()
		img := pm.Image(1000, 800, plot.Layer{Colour: colour, Palette: plot.Palette(len(classes)), Marked: marked}, keys, s)
		fmt.Printf("map image (%s): %.1f ms\n", name, float64(time.Since(start).Microseconds())/1000)
		savePNG(pngOut+"-map-"+name+".png", img)
		savePNG(pngOut+"-confusion-"+name+".png", plot.NewConfusion(m, plot.ConfusionOptions{Figures: true, Style: s}).Draw())
	}
}

// tile returns n samples' features and labels: sample i is scanned sample i mod N, copies
// after the first with 5% multiplicative Gaussian noise (fixed seed), so no two are equal.
func tile(feats []float32, labels []int, n int) ([]float32, []int) {
	src := len(labels)
	out := make([]float32, n*cnn.Features)
	ls := make([]int, n)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		s := i % src
		ls[i] = labels[s]
		for c := range cnn.Features {
			v := feats[s*cnn.Features+c]
			if i >= src {
				v += float32(rng.NormFloat64()) * 0.05 * (v + 0.1)
			}
			out[i*cnn.Features+c] = v
		}
	}
	return out, ls
}

// heapInUse returns the bytes of live and not yet swept heap objects now.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func readF32(path string) []float32 {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func writeF32(path string, v []float32) {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		log.Fatal(err)
	}
}

func write(path string, f func(*os.File) error) {
	out, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	if err := f(out); err != nil {
		log.Fatal(err)
	}
	if err := out.Close(); err != nil {
		log.Fatal(err)
	}
}

func savePNG(path string, img image.Image) {
	write(path, func(f *os.File) error { return png.Encode(f, img) })
}
