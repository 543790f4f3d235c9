// Command decodetime is the Go half of bench/compare.sh: it times idx.ReadFile (and, for plain
// files, os.ReadFile as the baseline) in-process and prints one line per measurement,
// "what file seconds" (the median of -runs runs after two warm-up runs). With -make DIR it first
// writes the benchmark files there: the real t10k images raw, and a 60,000-image set built from
// them (shifted copies, as the Go benchmarks build it) raw and gzip.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"idxlabel/idx"
	"idxlabel/internal/mnisttest"
)

func main() {
	makeDir := flag.String("make", "", "write the benchmark files into this folder from the t10k images given as the only argument, then exit")
	runs := flag.Int("runs", 21, "timed runs per file (the median is printed)")
	flag.Parse()
	if *makeDir != "" {
		if err := makeFiles(*makeDir, flag.Arg(0)); err != nil {
			log.Fatal(err)
		}
		return
	}
	for _, name := range flag.Args() {
		gz, err := idx.IsGzipFile(name)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("go-idx %s %.6f\n", name, median(*runs, func() error { _, err := idx.ReadFile(name); return err }))
		if !gz {
			fmt.Printf("go-readfile %s %.6f\n", name, median(*runs, func() error { _, err := os.ReadFile(name); return err }))
		}
	}
}

// median runs f twice to warm up, then runs times more and returns the median in seconds. A
// garbage collection before each timed run (not timed) keeps one run's garbage from being
// collected inside the next, which made single runs vary by 2× on this 2-core machine.
func median(runs int, f func() error) float64 {
	for range 2 {
		if err := f(); err != nil {
			log.Fatal(err)
		}
	}
	times := make([]float64, runs)
	for i := range times {
		runtime.GC()
		start := time.Now()
		if err := f(); err != nil {
			log.Fatal(err)
		}
		times[i] = time.Since(start).Seconds()
	}
	slices.Sort(times)
	return times[runs/2]
}

// makeFiles writes t10k-images-idx3-ubyte (raw) and big60k-images-idx3-ubyte(.gz): 60,000
// images made of the t10k images and shifted copies (mnisttest.Shifted), into dir.
func makeFiles(dir, t10kImages string) error {
	images, err := idx.ReadFile(t10kImages)
	if err != nil {
		return err
	}
	if err := idx.WriteFile(filepath.Join(dir, "t10k-images-idx3-ubyte"), images); err != nil {
		return err
	}
	labels, err := idx.New(idx.UByte, images.Dims[0])
	if err != nil {
		return err
	}
	big, _, err := mnisttest.Shifted(images, labels, 60000)
	if err != nil {
		return err
	}
	if err := idx.WriteFile(filepath.Join(dir, "big60k-images-idx3-ubyte"), big); err != nil {
		return err
	}
	return idx.WriteFile(filepath.Join(dir, "big60k-images-idx3-ubyte.gz"), big)
}
