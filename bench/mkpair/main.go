// Command mkpair writes an N-sample IDX pair built from the real t10k files (the t10k samples
// and shifted copies, as the Go tests and benchmarks build them: mnisttest.Shifted), for the
// comparison and GUI benchmark scripts; with -augment σ, as an augmented dataset (each later
// copy shifted by up to a pixel with Gaussian noise of σ grey levels: mnisttest.Augmented); with
// -float32, images of float32 values in [0, 1] (each pixel / 255), four times the bytes, for
// measuring a dtype whose display pixels are not its data; with -digits, N generated digits
// instead (demo.Digits, seed 1: every label right), for the scripts that run without the real
// files.
//
// Usage: mkpair [-n 60000] [-gz] [-augment σ] [-float32] T10K_IMAGES T10K_LABELS OUT_PREFIX
// or mkpair -digits [-n N] [-gz] OUT_PREFIX
// writes OUT_PREFIX-images-idx3-ubyte and OUT_PREFIX-labels-idx1-ubyte (".gz" with -gz).
package main

import (
	"flag"
	"log"

	"idxlabel/demo"
	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
	"idxlabel/pairfile"
)

func main() {
	n := flag.Int("n", 60000, "samples")
	gz := flag.Bool("gz", false, "write gzip files")
	augment := flag.Float64("augment", 0, "σ of the noise of augmented copies shifted by up to a pixel (0: shifted copies, mnisttest.Shifted)")
	float := flag.Bool("float32", false, "write float32 images in [0, 1] (pixel / 255)")
	digits := flag.Bool("digits", false, "write N generated digits (demo.Digits, seed 1) instead")
	flag.Parse()
	suffix := ""
	if *gz {
		suffix = ".gz"
	}
	if *digits {
		if flag.NArg() != 1 {
			log.Fatal("usage: mkpair -digits [-n N] [-gz] OUT_PREFIX")
		}
		images, labels, err := demo.Digits(*n, 1)
		if err == nil {
			err = pairfile.WritePair(flag.Arg(0)+"-images-idx3-ubyte"+suffix, flag.Arg(0)+"-labels-idx1-ubyte"+suffix, images, labels)
		}
		if err != nil {
			log.Fatal(err)
		}
		return
	}
	if flag.NArg() != 3 {
		log.Fatal("usage: mkpair [-n N] [-gz] [-augment σ] [-float32] T10K_IMAGES T10K_LABELS OUT_PREFIX")
	}
	images, labels, err := mnisttest.ReadPair(flag.Arg(0), flag.Arg(1))
	if err != nil {
		log.Fatal(err)
	}
	bigImages, bigLabels, err := mnisttest.Shifted(images, labels, *n)
	if *augment > 0 {
		bigImages, bigLabels, err = mnisttest.Augmented(images, labels, *n, 1, *augment)
	}
	if err != nil {
		log.Fatal(err)
	}
	if *float {
		f, err := idx.New(idx.Float32, bigImages.Dims...)
		if err != nil {
			log.Fatal(err)
		}
		for i, p := range bigImages.Data {
			f.SetFloat(i, float64(p)/255)
		}
		bigImages = f
	}
	prefix := flag.Arg(2)
	if err := pairfile.WritePair(prefix+"-images-idx3-ubyte"+suffix, prefix+"-labels-idx1-ubyte"+suffix, bigImages, bigLabels); err != nil {
		log.Fatal(err)
	}
}
