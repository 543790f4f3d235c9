// Command savelatency measures how long a window's reads of the dataset wait while a save runs
// (issue 11 §3): it builds an N-sample gzip pair from the real t10k files, opens it, deletes
// one sample (so the save rewrites and renumbers everything), and saves it while another
// goroutine reads a sample every millisecond, as the grid and detail panel do (SampleAt). It
// prints the save's time and the longest and 99th-percentile wait of a read. An edit made during
// the save is refused at once (store.ErrSaving) rather than waiting for the disk.
//
// Usage: savelatency [-n 60000] T10K_IMAGES T10K_LABELS
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"time"

	"idxlabel/fixture/mnisttest"
	"idxlabel/pairfile"
	"idxlabel/store"
)

func main() {
	n := flag.Int("n", 60000, "samples")
	flag.Parse()
	if flag.NArg() != 2 {
		log.Fatal("usage: savelatency [-n N] T10K_IMAGES T10K_LABELS")
	}
	images, labels, err := mnisttest.ReadPair(flag.Arg(0), flag.Arg(1))
	if err != nil {
		log.Fatal(err)
	}
	big, bigLabels, err := mnisttest.Shifted(images, labels, *n)
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "savelatency")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ip, lp := filepath.Join(dir, "big-images-idx3-ubyte.gz"), filepath.Join(dir, "big-labels-idx1-ubyte.gz")
	if err := pairfile.WritePair(ip, lp, big, bigLabels); err != nil {
		log.Fatal(err)
	}
	ds, err := store.Open(ip, lp, store.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer ds.Close()
	if err := ds.Delete([]int{0}); err != nil {
		log.Fatal(err)
	}

	var done atomic.Bool
	waits := make(chan []time.Duration)
	refused := make(chan error, 1)
	go func() {
		var w []time.Duration
		edited := false
		for k := 0; !done.Load(); k++ {
			t0 := time.Now()
			ds.SampleAt(ds.Gen(), k%*n)
			w = append(w, time.Since(t0))
			if !edited && k == 50 {
				refused <- ds.Relabel([]int{1}, 3)
				edited = true
			}
			time.Sleep(time.Millisecond)
		}
		waits <- w
	}()
	t0 := time.Now()
	err = ds.Save(nil)
	took := time.Since(t0)
	done.Store(true)
	w := <-waits
	if err != nil {
		log.Fatal(err)
	}
	slices.Sort(w)
	fmt.Printf("save of %d gzip samples: %d ms; %d reads during it: longest wait %.2f ms, 99th percentile %.3f ms\n",
		*n, took.Milliseconds(), len(w), float64(w[len(w)-1].Microseconds())/1000, float64(w[len(w)*99/100].Microseconds())/1000)
	if e := <-refused; errors.Is(e, store.ErrSaving) {
		fmt.Println("an edit during the save was refused at once: " + e.Error())
	} else {
		fmt.Printf("an edit during the save returned %v\n", e)
	}
}
