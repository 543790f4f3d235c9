// Command agree writes K annotators' label files of N samples for measuring `idxlabel agree`:
// a true class per sample drawn uniformly from 10, and each annotator giving it with its
// accuracy (else another class, uniformly), leaving a share of the samples unlabelled (int32
// files then, −2147483648 for none; ubyte otherwise). It prints the files' paths, one a line.
//
// Usage: agree [-n 1000000] [-acc 0.97,0.95,0.9,0.85,0.8] [-missing 0] [-seed 1] OUT_DIR
// writes OUT_DIR/annotator-1 … OUT_DIR/annotator-K and OUT_DIR/truth.
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"

	"idxlabel/idx"
	"idxlabel/sample"
)

func main() {
	n := flag.Int("n", 1_000_000, "samples")
	accs := flag.String("acc", "0.97,0.95,0.9,0.85,0.8", "each annotator's accuracy, comma-separated (one file each)")
	missing := flag.Float64("missing", 0, "share of each annotator's samples left unlabelled")
	seed := flag.Uint64("seed", 1, "seed")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: agree [-n N] [-acc A,B,...] [-missing F] [-seed S] OUT_DIR")
	}
	dir := flag.Arg(0)
	rng := rand.New(rand.NewPCG(*seed, 2024))
	truth := make([]int64, *n)
	for i := range truth {
		truth[i] = int64(rng.IntN(10))
	}
	write := func(name string, labels []int64) {
		t := idx.UByte
		for _, l := range labels {
			if l == sample.NoLabel {
				t = idx.Int32
				break
			}
		}
		a, err := idx.New(t, len(labels))
		if err != nil {
			log.Fatal(err)
		}
		for i, l := range labels {
			a.SetInt(i, l)
		}
		p := filepath.Join(dir, name)
		if err := idx.WriteFile(p, a); err != nil {
			log.Fatal(err)
		}
		fmt.Println(p)
	}
	write("truth", truth)
	for k, s := range strings.Split(*accs, ",") {
		acc, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			log.Fatalf("-acc %q: %v", *accs, err)
		}
		labels := make([]int64, *n)
		for i, t := range truth {
			switch {
			case rng.Float64() < *missing:
				labels[i] = sample.NoLabel
			case rng.Float64() < acc:
				labels[i] = t
			default:
				labels[i] = (t + 1 + int64(rng.IntN(9))) % 10
			}
		}
		write(fmt.Sprintf("annotator-%d", k+1), labels)
	}
}
