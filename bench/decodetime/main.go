// Command decodetime is the Go half of bench/compare.sh: it times idx.ReadFile (and, for plain
// files, os.ReadFile as the baseline) in-process and prints one line per measurement,
// "what file seconds" (the median of -runs runs after two warm-up runs). bench/mkpair writes the
// files it times.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"slices"
	"time"

	"idxlabel/idx"
)

func main() {
	runs := flag.Int("runs", 21, "timed runs per file (the median is printed)")
	flag.Parse()
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
