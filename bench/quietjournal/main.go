// Command quietjournal leaves beside a pair what a window killed after edits that cancel out
// leaves: it opens IMAGES LABELS for editing (store.Open), types another label over sample
// INDEX's, then its own label back (two journal records, synced), and exits without closing
// the dataset, so the journal (and the unsaved-edits marker beside the images) stay behind and
// the pair's lock goes with the process. A writer with --force over the pair then judges the
// journal (store.JournalChangesNothing), which bench/quietjournal/run.sh measures.
//
// Usage: quietjournal [-index I] IMAGES LABELS
package main

import (
	"flag"
	"fmt"
	"log"
	"os"

	"idxlabel/store"
)

func main() {
	index := flag.Int("index", 7, "the sample whose label is typed over, then typed back")
	flag.Parse()
	if flag.NArg() != 2 {
		log.Fatal("usage: quietjournal [-index I] IMAGES LABELS")
	}
	d, err := store.Open(flag.Arg(0), flag.Arg(1), store.Options{})
	if err != nil {
		log.Fatal(err)
	}
	if *index < 0 || *index >= d.Len() {
		log.Fatalf("-index %d: the pair holds %d samples", *index, d.Len())
	}
	was := d.Label(*index)
	for _, l := range []int{(was + 1) % 10, was} {
		if err := d.Relabel([]int{*index}, l); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("sample %d: %d typed over its %d, then %d back; the journal is left\n", *index, (was+1)%10, was, was)
	os.Exit(0) // no Close: as if the window were killed
}
