// Command savemem measures a save that rewrites the images: it opens an IDX pair for editing
// (store.Open), deletes one sample and saves, printing the time each step took and, from
// /proc/self/status (Linux), the peak resident memory (VmHWM) of the opening and of the save
// alone (the peak is reset between them through /proc/self/clear_refs), and the resident memory
// (VmRSS) after each, and after the save once the Go runtime has returned freed memory to the
// system (debug.FreeOSMemory); each also as a multiple of the image data's size (the images
// file's for a plain file, decoded for gzip). The pair is rewritten in place (use a copy). Build the pair with
// bench/mkpair (-n 2500000: a 1.96 GB images file).
//
// Usage: savemem [-labels] IMAGES LABELS
// With -labels it relabels one sample instead: a save that writes the label file alone.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"idxlabel/idx"
	"idxlabel/store"
)

func main() {
	labelsOnly := flag.Bool("labels", false, "relabel one sample instead of deleting one (a labels-only save)")
	flag.Parse()
	if flag.NArg() != 2 {
		log.Fatal("usage: savemem [-labels] IMAGES LABELS")
	}
	f, err := idx.OpenFile(flag.Arg(0))
	if err != nil {
		log.Fatal(err)
	}
	size := float64(f.Header.DataSize())
	f.Close()
	start := time.Now()
	d, err := store.Open(flag.Arg(0), flag.Arg(1), store.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	opened := time.Since(start)
	report("opened", opened, size)
	resetPeak()
	if *labelsOnly {
		err = d.Relabel([]int{0}, (d.Label(0)+1)%10)
	} else {
		err = d.Delete([]int{0})
	}
	if err != nil {
		log.Fatal(err)
	}
	start = time.Now()
	if err := d.Save(nil); err != nil {
		log.Fatal(err)
	}
	report("saved", time.Since(start), size)
	debug.FreeOSMemory()
	fmt.Printf("after FreeOSMemory: RSS %s (%.2f× the image data of %s)\n", mb(status("VmRSS")), status("VmRSS")/size, mb(size))
}

// report prints a step's time, the peak resident memory since the last resetPeak and the
// resident memory now, each also as a multiple of the image data's size.
func report(step string, took time.Duration, size float64) {
	peak, rss := status("VmHWM"), status("VmRSS")
	fmt.Printf("%s in %.1f s: peak RSS %s (%.2f×), RSS now %s (%.2f×)\n", step, took.Seconds(), mb(peak), peak/size, mb(rss), rss/size)
}

// status returns a field of /proc/self/status in bytes (0 where there is none).
func status(field string) float64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			var kb float64
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), &kb)
			return kb * 1024
		}
	}
	return 0
}

// resetPeak resets VmHWM to the resident memory now (Linux: "5" written to clear_refs).
func resetPeak() {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		log.Printf("cannot reset the peak (%v): the save's peak includes the opening's", err)
	}
}

func mb(b float64) string { return fmt.Sprintf("%.0f MB", b/1e6) }
