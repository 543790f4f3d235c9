// Command similar measures the similarity search (suspect/similar) on MNIST's test set with 100
// planted near-copies (fixture/planted: exact, shifted by 1 or 2 pixels, noise σ 4, 85%
// intensity; each over another sample, with its source's label): for each seed and each space
// (pixel descriptors, and with -cnn the features of a CNN scan of the planted set, as check and
// the window keep it) it prints the share of the 10 most like each unplanted sample that have its
// label, how many copies come first (queried from the copy and from its source, both ways), the
// build's time and the mean time of a query.
//
// Usage: similar [-seeds 1,2,3] [-cnn] IMAGES LABELS
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"idxlabel/fixture/planted"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/similar"
)

func main() {
	seeds := flag.String("seeds", "1,2,3", "seeds: the plants, the descriptors' sample and the CNN scan")
	withCNN := flag.Bool("cnn", false, "also measure the CNN's features (a scan of the planted set per seed: about 10 s each on 2 idle cores)")
	flag.Parse()
	if flag.NArg() != 2 {
		log.Fatal("usage: similar [-seeds 1,2,3] [-cnn] IMAGES LABELS")
	}
	ds, err := store.Open(flag.Arg(0), flag.Arg(1), store.Options{ReadOnly: true})
	if err != nil {
		log.Fatal(err)
	}
	defer ds.Close()
	d := ds.Snapshot()
	images := make([]byte, 0, d.N*d.Dim())
	labels := make([]byte, d.N)
	for i := range d.N {
		images = append(images, d.Pixels(i)...)
		labels[i] = byte(d.Labels[i])
	}
	fmt.Println("seed | space | same label in the 10 most like | copy first (of 200) | build | query")
	for _, f := range strings.Split(*seeds, ",") {
		seed, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			log.Fatal(err)
		}
		p := planted.Plant(rand.New(rand.NewPCG(seed, 7)), images, labels, d.N, nil, nil, 0, planted.Plan{Duplicates: 100})
		set := sample.Set{N: p.N, H: 28, W: 28, Labels: p.Labels, Pixels: func(i int) []byte { return p.Pixels[i*784 : (i+1)*784] }}
		measure(seed, set, p, similar.Options{Seed: seed})
		if *withCNN {
			res, err := suspect.ScanCNN(context.Background(), set, suspect.CNNOptions{Seed: seed}, nil)
			if err != nil {
				log.Fatal(err)
			}
			measure(seed, set, p, similar.Options{Seed: seed, Features: res.Features, Dim: cnn.Features})
		}
	}
}

// measure builds the index of set with opts and prints its row.
func measure(seed uint64, set sample.Set, p *planted.Set, opts similar.Options) {
	ctx := context.Background()
	start := time.Now()
	ix, err := similar.Build(ctx, set, opts)
	if err != nil {
		log.Fatal(err)
	}
	built := time.Since(start)
	same, all, queries := 0, 0, 0
	start = time.Now()
	for i := range set.N {
		if _, ok := p.Duplicates[i]; ok {
			continue
		}
		m, err := ix.Like(ctx, i, 10)
		if err != nil {
			log.Fatal(err)
		}
		queries++
		for _, x := range m {
			all++
			if set.Labels[x.Index] == set.Labels[i] {
				same++
			}
		}
	}
	per := time.Since(start) / time.Duration(queries)
	first := 0
	for at, src := range p.Duplicates {
		for _, q := range [][2]int{{at, src}, {src, at}} {
			if m, err := ix.Like(ctx, q[0], 1); err == nil && m[0].Index == q[1] {
				first++
			}
		}
	}
	fmt.Printf("%d | %s | %.4f | %d | %.2f s | %.2f ms\n", seed, ix.Space(), float64(same)/float64(all), first, built.Seconds(), float64(per.Microseconds())/1000)
}
