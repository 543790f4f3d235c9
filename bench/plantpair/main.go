// Command plantpair writes a small MNIST-shaped pair with planted near-duplicates, for the
// real-window test of the health check (scripts/checkdup.sh):
//
//	go run ./bench/plantpair [-n N] [-copies K] [-seed S] [-from IMAGES LABELS] OUT_IMAGES OUT_LABELS
//
// It takes the first N samples (default 1,000) of the pair given with -from (t10k, say), or of
// the generated demo digits (demo, 300) when none is given, writes K copies of some of
// them (planted.Plant: exact, shifted, noisy, fainter) over others, and writes the result as an
// uncompressed IDX pair (N×28×28 and N ubyte). It prints one line per copy on stdout:
// "copy,source", sample numbers in the pair written.
package main

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"idxlabel/demo"
	"idxlabel/fixture/planted"
	"idxlabel/idx"
	"idxlabel/pairfile"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "plantpair:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("plantpair", flag.ContinueOnError)
	n := fs.Int("n", 1000, "samples in the pair written")
	copies := fs.Int("copies", 4, "near-duplicates planted")
	seed := fs.Uint64("seed", 11, "the planting's random seed")
	from := fs.String("from", "", "the image file to take the samples from (its label file follows as the next argument); default: the demo digits")
	if err := fs.Parse(args); err != nil {
		return err
	}
	rest := fs.Args()
	var images, labels *idx.Array
	var err error
	if *from != "" {
		if len(rest) != 3 {
			return errors.New("usage: plantpair -from IMAGES LABELS OUT_IMAGES OUT_LABELS")
		}
		if images, err = idx.ReadFile(*from); err == nil {
			labels, err = idx.ReadFile(rest[0])
		}
		rest = rest[1:]
	} else {
		if len(rest) != 2 {
			return errors.New("usage: plantpair [-from IMAGES LABELS] OUT_IMAGES OUT_LABELS")
		}
		images, labels, err = demo.Arrays()
	}
	if err != nil {
		return err
	}
	if len(images.Dims) != 3 || images.Dims[1] != planted.Side || images.Dims[2] != planted.Side || images.Type != idx.UByte ||
		len(labels.Dims) != 1 || labels.Type != idx.UByte || labels.Dims[0] != images.Dims[0] {
		return errors.New("the samples must be N×28×28 ubyte images with N ubyte labels")
	}
	count := min(*n, images.Dims[0])
	if *copies < 0 || 2**copies > count {
		return fmt.Errorf("%d copies do not fit %d samples", *copies, count)
	}
	rng := rand.New(rand.NewPCG(*seed, 1))
	p := planted.Plant(rng, images.Data, labels.Data, count, nil, nil, 0, planted.Plan{Duplicates: *copies})
	outImages, err := idx.New(idx.UByte, count, planted.Side, planted.Side)
	if err != nil {
		return err
	}
	copy(outImages.Data, p.Pixels)
	outLabels, err := idx.New(idx.UByte, count)
	if err != nil {
		return err
	}
	for i, l := range p.Labels {
		outLabels.Data[i] = byte(l)
	}
	if err := pairfile.WritePair(rest[0], rest[1], outImages, outLabels); err != nil {
		return err
	}
	for at, src := range p.Duplicates {
		fmt.Printf("%d,%d\n", at, src)
	}
	return nil
}
