package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"

	"idxlabel/suspect"
	"idxlabel/suspect/scancache"
)

// runSuspects ranks the samples of a pair by how likely their label is wrong and prints CSV,
// most suspicious first: "index,label,suggested,score" (indices 0-based in file order; score the
// estimated probability that the label is wrong). --method cnn (the default) ranks by the
// out-of-fold probabilities of cross-validated CNNs (suspect.ScanCNN: --seeds cross-validations
// of --folds folds, blended with a vote of each sample's neighbours in the networks' features),
// printing its progress per seed, fold and epoch on stderr; --method knn by the labels of the
// k nearest neighbours (suspect.Scan, seconds). The CNN scan goes through the scan cache beside
// IMAGES as check's does (cachedScan: the same key, --no-cache). A summary goes to stderr.
// Interrupt (Ctrl+C)
// cancels the scan. Near-duplicates are `idxlabel check --kinds duplicate`'s: --duplicates says
// so.
func runSuspects(c *cli, args []string) error {
	fs := c.flags("suspects")
	method := fs.String("method", string(suspect.MethodCNN), "cnn (cross-validated network) or knn (nearest neighbours)")
	top := topFlag(100)
	fs.Var(&top, "top", "print the N most suspicious samples (1 or more), or all")
	dups := fs.Bool("duplicates", false, "") // moved to idxlabel check --kinds duplicate: not listed
	k := fs.Int("k", 10, "knn: neighbours per sample (1–100)")
	seed := fs.Uint64("seed", 1, "cnn: seed of every random choice (the same seed gives the same ranking); seeds S, S+1, … deal the folds")
	folds := fs.Int("folds", 3, "cnn: cross-validation folds (2–50)")
	seeds := fs.Int("seeds", 2, "cnn: cross-validations averaged, each dealing its own folds (1–10; each costs a scan)")
	epochs := fs.Int("epochs", 0, "cnn: epochs per fold (default: 14 up to about 26,000 samples, fewer above: 6 for 60,000)")
	noCache := fs.Bool("no-cache", false, "cnn: scan even when IMAGES"+scancache.Suffix+" holds a scan of these pixels with these settings (as check --no-cache); without it that scan is used, scored against the labels as they are now, and a scan that ran is kept there")
	files, err := c.parse(fs, args, 2, 2)
	if err != nil {
		return err
	}
	if *dups {
		return usagef("suspects: --duplicates moved: near-duplicates are idxlabel check --kinds duplicate IMAGES")
	}
	if err := checkSuspectsFlags(fs, suspect.Method(*method), *k, *folds, *epochs, *seeds); err != nil {
		return err
	}
	ds, err := c.openRead(files[0], files[1])
	if err != nil {
		return err
	}
	defer ds.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	snap := ds.Snapshot()
	out := bufio.NewWriter(c.stdout)
	defer out.Flush()
	if suspect.Method(*method) == suspect.MethodKNN {
		res, err := suspect.Scan(ctx, snap, suspect.Options{K: *k}, nil)
		if err != nil {
			return fmt.Errorf("%s: %w", files[1], err)
		}
		writeSuspects(out, res.Suspects, snap.Index, int(top))
		fmt.Fprintf(c.stderr, "idxlabel: scanned %d samples in %.1f s (k-NN): %d likely label errors (most neighbours disagreeing, another class suggested)\n",
			snap.N, time.Since(start).Seconds(), countDoubted(res.Suspects))
		return nil
	}
	var last [2]int
	scan := cachedScan(c.stderr, files[0], !*noCache)
	res, err := scan(ctx, snap, suspect.CNNOptions{Folds: *folds, Epochs: *epochs, Seed: *seed, Seeds: *seeds}, func(p suspect.Progress) {
		if at := [2]int{p.Fold, p.Epoch}; at != last {
			last = at
			// p.Fold counts the fold models of every seed: seed 1's folds, then seed 2's.
			fmt.Fprintf(c.stderr, "idxlabel: seed %d/%d, fold %d/%d, epoch %d/%d: %.0f%% done, %s left\n",
				(p.Fold-1) / *folds + 1, *seeds, (p.Fold-1)%*folds+1, *folds, p.Epoch, p.Epochs, 100*p.Done, p.Left.Round(time.Second))
		}
	})
	if err != nil {
		return fmt.Errorf("%s: %w", files[1], err)
	}
	writeSuspects(out, res.Suspects, snap.Index, int(top))
	fmt.Fprintf(c.stderr, "idxlabel: scanned %d samples in %.1f s (CNN, %d × %d folds): out-of-fold error %.2f%%, %d likely label errors (p(label) at most 0.5, another class suggested), %d unlabelled\n",
		snap.N, time.Since(start).Seconds(), *seeds, *folds, 100*res.Error, countDoubted(res.Suspects), len(res.Unlabelled))
	return nil
}

// Upper bounds of --k, --folds and --seeds. The kNN scan keeps an N×k neighbour list per worker
// and compares every pair once per neighbour slot it fills, and the CNN scan holds a training
// list of N samples per fold and trains once per fold and seed, so all grow without a useful
// gain: --k 5000 on t10k took 826 MB and over 5 minutes, --folds 10000 870 MB and an estimated
// 57 hours.
const (
	maxK     = 100
	maxFolds = 50
	maxSeeds = 10
)

// checkSuspectsFlags reports option values that make no sense as usage errors: an unknown
// method, k outside 1–maxK, folds outside 2–maxFolds, seeds outside 1–maxSeeds, or
// epochs below 1 when given.
func checkSuspectsFlags(fs *flag.FlagSet, method suspect.Method, k, folds, epochs, seeds int) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case method != suspect.MethodCNN && method != suspect.MethodKNN:
		return usagef("suspects: --method must be cnn or knn, not %q", method)
	case k < 1:
		return usagef("suspects: --k must be at least 1, not %d", k)
	case k > maxK:
		return usagef("suspects: --k must be at most %d, not %d", maxK, k)
	case folds < 2:
		return usagef("suspects: --folds must be at least 2, not %d", folds)
	case folds > maxFolds:
		return usagef("suspects: --folds must be at most %d, not %d", maxFolds, folds)
	case seeds < 1:
		return usagef("suspects: --seeds must be at least 1, not %d", seeds)
	case seeds > maxSeeds:
		return usagef("suspects: --seeds must be at most %d, not %d", maxSeeds, seeds)
	case set["epochs"] && epochs < 1:
		return usagef("suspects: --epochs must be at least 1, not %d", epochs)
	}
	return nil
}

// writeSuspects prints the CSV of the top suspects (all when top is 0), with file indices.
func writeSuspects(w *bufio.Writer, list []suspect.Suspect, indices []int, top int) {
	fmt.Fprintln(w, "index,label,suggested,score")
	for n, s := range list {
		if top > 0 && n >= top {
			break
		}
		fmt.Fprintf(w, "%d,%d,%d,%.3f\n", indices[s.Index], s.Label, s.Suggested, s.Score)
	}
}

// countDoubted counts the likely label errors of s (suspect.Suspect.Doubted: most of the
// evidence against the label, and a class other than it suggested).
func countDoubted(s []suspect.Suspect) int {
	n := 0
	for _, x := range s {
		if x.Doubted() {
			n++
		}
	}
	return n
}
