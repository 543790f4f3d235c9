// Command mkpair writes an N-sample IDX pair built from the real t10k files (the t10k samples
// and shifted copies, as the Go tests and benchmarks build them: mnisttest.Shifted), for the
// comparison and GUI benchmark scripts.
//
// Usage: mkpair [-n 60000] [-gz] T10K_IMAGES T10K_LABELS OUT_PREFIX
// writes OUT_PREFIX-images-idx3-ubyte and OUT_PREFIX-labels-idx1-ubyte (".gz" with -gz).
package main

import (
	"flag"
	"log"

	"idxlabel/fixture/mnisttest"
	"idxlabel/store"
)

func main() {
	n := flag.Int("n", 60000, "samples")
	gz := flag.Bool("gz", false, "write gzip files")
	flag.Parse()
	if flag.NArg() != 3 {
		log.Fatal("usage: mkpair [-n N] [-gz] T10K_IMAGES T10K_LABELS OUT_PREFIX")
	}
	images, labels, err := mnisttest.ReadPair(flag.Arg(0), flag.Arg(1))
	if err != nil {
		log.Fatal(err)
	}
	bigImages, bigLabels, err := mnisttest.Shifted(images, labels, *n)
	if err != nil {
		log.Fatal(err)
	}
	suffix := ""
	if *gz {
		suffix = ".gz"
	}
	prefix := flag.Arg(2)
	if err := store.WritePair(prefix+"-images-idx3-ubyte"+suffix, prefix+"-labels-idx1-ubyte"+suffix, bigImages, bigLabels); err != nil {
		log.Fatal(err)
	}
}
