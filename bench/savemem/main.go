// Command savemem measures a save that rewrites the images: it opens an IDX pair for editing
// (store.Open), deletes one sample and saves, printing the time each step took. Run it under
// /usr/bin/time -v for the peak RSS; the pair is rewritten in place (use a copy). Build the pair
// with bench/mkpair (-n 2500000: a 1.96 GB images file).
//
// Usage: savemem IMAGES LABELS
package main

import (
	"fmt"
	"log"
	"os"
	"time"

	"idxlabel/store"
)

func main() {
	if len(os.Args) != 3 {
		log.Fatal("usage: savemem IMAGES LABELS")
	}
	start := time.Now()
	d, err := store.Open(os.Args[1], os.Args[2], store.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	opened := time.Since(start)
	if err := d.Delete([]int{0}); err != nil {
		log.Fatal(err)
	}
	start = time.Now()
	if err := d.Save(nil); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("opened in %.1f s, deleted one sample and saved in %.1f s\n", opened.Seconds(), time.Since(start).Seconds())
}
