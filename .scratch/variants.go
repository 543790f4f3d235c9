package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"idxlabel/store"
	"idxlabel/suspect"
)

func main() {
	k, _ := strconv.Atoi(os.Args[1])
	ds, _ := store.Open("../shared/data/mnist/t10k-images-idx3-ubyte.gz", "../shared/data/mnist/t10k-labels-idx1-ubyte.gz", store.Options{})
	snap := ds.Snapshot()
	res, _ := suspect.Scan(context.Background(), suspect.Data{N: len(snap.Indices), Dim: snap.Dim, Pixels: snap.Pixels, Labels: snap.Labels}, suspect.Options{K: k}, nil)
	for n, s := range res.Suspects[:40] {
		fmt.Printf("%d:%d:%d>%d:%.2f:%.2f ", n, s.Index, s.Label, s.Suggested, s.Score, s.Support)
	}
	wrong := 0
	for _, s := range res.Suspects {
		if s.Suggested != s.Label {
			wrong++
		}
	}
	fmt.Printf("\nk=%d leave-one-out kNN error %.2f%%\n", k, 100*float64(wrong)/float64(len(res.Suspects)))
}
