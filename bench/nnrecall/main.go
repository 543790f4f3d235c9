// Command nnrecall measures the neighbour index (suspect/nn) on a dataset's own vectors: for
// each space (the pixel descriptors of suspect/neardup, 48 values, by Euclidean distance as the
// duplicates search them and by angle as the outliers do) it builds the index (nn.NewIndex, the
// defaults unless -cells or -probe are given), and prints the build's and a full Among's wall time
// and the recall of the k nearest of random queries against the exact search.
//
// Usage: nnrecall [-queries 2000] [-k 10] [-cells 0] [-probe 0] [-cpuprofile FILE] IMAGES LABELS
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"time"

	"idxlabel/store"
	"idxlabel/suspect/neardup"
	"idxlabel/suspect/nn"
)

func main() {
	nq := flag.Int("queries", 2000, "random queries whose recall is measured")
	k := flag.Int("k", 10, "neighbours per query")
	cells := flag.Int("cells", 0, "the index's cells (0: its default)")
	probe := flag.Int("probe", 0, "the cells a query visits (0: the default)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the builds and searches to this file")
	flag.Parse()
	if flag.NArg() != 2 {
		log.Fatal("usage: nnrecall [-queries N] [-k K] IMAGES LABELS")
	}
	ds, err := store.Open(flag.Arg(0), flag.Arg(1), store.Options{ReadOnly: true})
	if err != nil {
		log.Fatal(err)
	}
	defer ds.Close()
	d := ds.Snapshot()
	ctx := context.Background()
	basis, err := neardup.FitBasis(ctx, d, 1)
	if err != nil {
		log.Fatal(err)
	}
	desc, err := basis.Describe(ctx, d, 0, nil)
	if err != nil {
		log.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	queries := make([]int, *nq)
	for i := range queries {
		queries[i] = rng.IntN(d.N)
	}
	fmt.Printf("%d samples, %d queries, k %d\n", d.N, *nq, *k)
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	for _, sp := range []struct {
		name   string
		v      nn.Vectors
		cosine bool
	}{{"descriptors, Euclidean", desc.Vectors, false}, {"descriptors, angle", desc.Vectors, true}} {
		exact, err := nn.NewIndex(ctx, sp.v, nn.IndexOptions{Cells: 1, Cosine: sp.cosine})
		if err != nil {
			log.Fatal(err)
		}
		want, err := exact.Among(ctx, queries, *k, nn.Options{})
		if err != nil {
			log.Fatal(err)
		}
		t0 := time.Now()
		ix, err := nn.NewIndex(ctx, sp.v, nn.IndexOptions{Cosine: sp.cosine, Cells: *cells, Probe: *probe})
		if err != nil {
			log.Fatal(err)
		}
		built := time.Since(t0)
		t1 := time.Now()
		if _, err := ix.Among(ctx, nil, *k, nn.Options{}); err != nil {
			log.Fatal(err)
		}
		searched := time.Since(t1)
		got, err := ix.Among(ctx, queries, *k, nn.Options{})
		if err != nil {
			log.Fatal(err)
		}
		found, total := 0, 0
		for q := range queries {
			w, _ := want.Of(q)
			g, _ := got.Of(q)
			for _, j := range w {
				if j >= 0 {
					total++
					if slices.Contains(g, j) {
						found++
					}
				}
			}
		}
		fmt.Printf("%-24s %5d cells  build %6.1f s  Among %6.1f s  recall@%d %.4f\n",
			sp.name, ix.Cells(), built.Seconds(), searched.Seconds(), *k, float64(found)/float64(total))
	}
}
