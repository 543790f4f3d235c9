package main

import (
	"bufio"
	"context"
	"fmt"
	"time"

	"idxlabel/store"
	"idxlabel/suspect"
)

// runSuspects ranks the samples of a pair by how likely their label is wrong and prints CSV,
// most suspicious first: "index,label,suggested,score" (indices 0-based in file order), or with
// --duplicates the near-duplicate pairs "index_a,index_b,distance" (RMS pixel difference),
// exact duplicates with different labels first. A summary goes to stderr.
func runSuspects(c *cli, args []string) error {
	fs := c.flags("suspects")
	top := fs.Int("top", 100, "print the N most suspicious samples (0: all)")
	dups := fs.Bool("duplicates", false, "print near-duplicate pairs instead")
	k := fs.Int("k", 10, "neighbours per sample")
	files, err := c.parse(fs, args, 2, 2)
	if err != nil {
		return err
	}
	ds, err := store.Open(files[0], files[1], store.Options{})
	if err != nil {
		return err
	}
	defer ds.Close()
	start := time.Now()
	snap := ds.Snapshot()
	res, err := suspect.Scan(context.Background(), suspect.Data{N: len(snap.Indices), Dim: snap.Dim, Pixels: snap.Pixels, Labels: snap.Labels}, suspect.Options{K: *k}, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", files[1], err)
	}
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	if *dups {
		fmt.Fprintln(w, "index_a,index_b,distance")
		for n, d := range res.Duplicates {
			if *top > 0 && n >= *top {
				break
			}
			fmt.Fprintf(w, "%d,%d,%.2f\n", snap.Indices[d.A], snap.Indices[d.B], d.Distance)
		}
	} else {
		fmt.Fprintln(w, "index,label,suggested,score")
		for n, s := range res.Suspects {
			if *top > 0 && n >= *top {
				break
			}
			fmt.Fprintf(w, "%d,%d,%d,%.3f\n", snap.Indices[s.Index], s.Label, s.Suggested, s.Score)
		}
	}
	fmt.Fprintf(c.stderr, "idxlabel: scanned %d samples in %.1f s: %d with most neighbours disagreeing, %d near-duplicate pairs\n",
		ds.Len(), time.Since(start).Seconds(), countAbove(res.Suspects, 0.5), len(res.Duplicates))
	return nil
}

func countAbove(s []suspect.Suspect, score float64) int {
	n := 0
	for _, x := range s {
		if x.Score > score {
			n++
		}
	}
	return n
}
