package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"time"

	"idxlabel/normalize"
	"idxlabel/sample"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/scancache"
	"idxlabel/suspect/similar"
)

// runSimilar prints the k samples of IMAGES most like a query, as CSV index,similarity, most
// similar first: the query is a sample of IMAGES (its number, 0-based; it is left out) or an
// image file (PNG, JPEG, …: taken as it is when it has the samples' size, else through MNIST's
// preprocessing as import does). Samples are compared by the CNN's features when a scan of these
// pixels is kept beside IMAGES (scancache.LoadFor: check's or the window's, whatever its
// settings), else by the duplicate check's pixel descriptors; stderr says which, and how long
// building the index took. An image file is compared by pixel descriptors even then: a kept
// scan has no network to place a new image. IMAGES is opened read-only (no label file needed).
func runSimilar(c *cli, args []string) error {
	fs := c.flags("similar")
	k := fs.Int("k", 100, "how many similar samples to list")
	files, err := c.parse(fs, args, 2, 2)
	if err != nil {
		return err
	}
	if *k < 1 {
		return usagef("similar: --k must be at least 1, not %d", *k)
	}
	imagesPath, query := files[0], files[1]
	ds, err := c.openRead(imagesPath, "")
	if err != nil {
		return err
	}
	defer ds.Close()
	snap := ds.Snapshot()
	if snap.N == 0 {
		return fmt.Errorf("%s: no samples to search", imagesPath)
	}
	// No more can be listed than the set holds; the search allocates for the k asked.
	*k = min(*k, snap.N)
	at, isIndex := -1, false
	if v, err := strconv.Atoi(query); err == nil {
		if v < 0 || v >= snap.N {
			return usagef("similar: sample %d: %s holds samples 0 to %d", v, imagesPath, snap.N-1)
		}
		at, isIndex = v, true
	}
	var px []byte
	if !isIndex {
		if px, err = queryImage(query, snap); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts := similar.Options{}
	cache := imagesPath + scancache.Suffix
	why := "no CNN scan is kept beside " + imagesPath + " (idxlabel check keeps one)"
	if !isIndex {
		why = "an image file is placed among the samples by its pixels"
	} else if e, err := scancache.LoadFor(cache, scancache.PixelsOf(snap), snap.N); err == nil {
		opts.Features, opts.Dim = e.Features, cnn.Features
	} else if !errors.Is(err, scancache.ErrMiss) {
		why = err.Error()
	}
	start := time.Now()
	ix, err := similar.Build(ctx, snap, opts)
	if err != nil {
		return err
	}
	built := time.Since(start)
	var matches []similar.Match
	if isIndex {
		matches, err = ix.Like(ctx, at, *k)
	} else {
		matches, _, err = ix.LikePixels(ctx, px, *k)
	}
	if err != nil {
		return err
	}
	if ix.Space() == similar.CNN {
		fmt.Fprintf(c.stderr, "similar: by the CNN's features (the scan kept in %s); index of %d samples built in %.1f s\n", cache, snap.N, built.Seconds())
	} else {
		fmt.Fprintf(c.stderr, "similar: by pixel descriptors (%s); index of %d samples built in %.1f s\n", why, snap.N, built.Seconds())
	}
	w := bufio.NewWriter(c.stdout)
	fmt.Fprintln(w, "index,similarity")
	for _, m := range matches {
		fmt.Fprintf(w, "%d,%.4f\n", snap.Number(m.Index), m.Similarity)
	}
	return w.Flush()
}

// queryImage reads the image file path as a sample of snap's size (shown H×W, stored as snap
// stores its samples): as it is (grey by luminance) when it has that size, else through MNIST's
// preprocessing (normalize.Sample). Errors name the file: it cannot be read or decoded, is too
// large, or has no ink.
func queryImage(path string, snap sample.Set) ([]byte, error) {
	img, err := normalize.DecodeFile(path)
	if err != nil {
		return nil, err
	}
	h, w := snap.ShownSize()
	var px []byte
	if sz := img.Bounds().Size(); sz.X == w && sz.Y == h {
		px = normalize.Ink(img, normalize.InkLight).Pix
	} else if px, err = normalize.Sample(path, img, normalize.Options{Width: w, Height: h}, true); err != nil {
		return nil, err
	}
	return sample.AppendStored(nil, px, h, w, snap.Transposed), nil
}
