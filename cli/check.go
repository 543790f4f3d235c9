package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"idxlabel/export"
	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
	"idxlabel/pairfile"
	"idxlabel/report"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/suspect/health"
	"idxlabel/suspect/neardup"
	"idxlabel/suspect/scancache"
)

// checkHelp is `idxlabel check --help`: what the command does and what its columns mean.
const checkHelp = `usage: idxlabel check [--kinds label,outlier,duplicate,leak] [--against IMAGES2 [LABELS2]]
                      [--top N] [--report DIR] [--confusion FILE.csv] [--map FILE.csv]
                      [--force] [--threshold S] [--no-cache]
                      [--seed N] [--seeds S] [--folds K] [--epochs E] IMAGES [LABELS]

Checks a dataset's health and prints CSV on stdout, header kind,index,other,label,suggested,score:
one row per finding, each kind's rows most severe first (kinds in the order label, outlier,
duplicate, leak). index and other are 0-based sample numbers in file order; label is index's
given label and suggested the cross-validated CNN's most probable class for it (both empty when
unknown). Progress and a summary go to stderr; Ctrl+C stops cleanly.

Without LABELS, the label file named as MNIST names its pairs beside IMAGES is used when it
exists (t10k-images-idx3-ubyte.gz → t10k-labels-idx1-ubyte.gz), as the app finds it.

kinds (default: every kind that applies: label needs LABELS, leak needs --against):
  label      a sample whose given label the CNN doubts (as idxlabel suspects ranks them).
             score: 1 − the out-of-fold probability of the given label (0–1).
  outlier    a sample unlike every class: not a digit (a letter, a symbol, noise, a blank
             image, a filled shape, an inverted scan, two digits in one image).
             score: Σ over three detectors (pixel statistics, pixel descriptors, CNN
             features) of ln(1 + z), z the robust z-score of the sample's mean distance to
             its 10 nearest neighbours (0 when not above the median); on MNIST real digits
             stay below 6, planted non-digits reach 4–12. Every sample has one: see --top.
  duplicate  two samples of IMAGES that are the same image up to small changes (an exact
             copy, a 1–2 pixel shift, mild noise, a change of intensity); other is the
             second sample (index < other).
             score: the cosine similarity of the two images' pixels at their best alignment
             (0 and ±1 pixel, and ±1 around the shift that aligns their centres of mass);
             1 = identical up to shift and intensity. Pairs from --threshold up are listed.
  leak       a sample of IMAGES that is such a copy of a sample of IMAGES2 (other, its number
             there): how a test set is checked against its training set. score as duplicate.

options:
  --kinds LIST     the kinds to run, comma-separated
  --against IMAGES2 [LABELS2]
                   the other set for leak (same image size, not IMAGES itself); LABELS2, when
                   it follows and is a label file (1-D, or N×K with K ≤ 16), labels the other
                   copies in the report
  --top N|all      rows per kind, most severe first (default 100; at least 1, or all)
  --report DIR     also write a health report to the folder DIR: index.html and PNG images
                   (counts, contact sheets of each kind's top findings, the class histogram,
                   and with the label kind the confusion matrix and the 2-D map),
                   readable offline; an existing DIR is replaced only with --force, and
                   only if it is an earlier report (an empty folder is written into)
  --confusion FILE.csv
                   also write the confusion matrix: rows the given labels, columns the CNN's
                   out-of-fold predicted classes, counts; header given,<class>,<class>… (class
                   names when the dataset has them). Needs the label kind (its scan) and
                   labelled samples
  --map FILE.csv   also write the 2-D map: index,x,y for every sample, placed so that samples
                   the CNN sees as alike sit together (a neighbour-graph layout of its
                   features). Needs the label kind (its scan) and labelled samples
  --force          replace the --report, --confusion and --map outputs if they exist (never
                   a file of a pair open for editing or whose journal holds unsaved edits)
  --threshold S    duplicate and leak: the similarity from which a pair is listed
                   (default 0.99: on MNIST 5 natural train/test pairs, none within the test set)
  --seed N, --seeds S, --folds K, --epochs E
                   the CNN scan, as for idxlabel suspects (default: seed 1, 2 seeds × 3 folds,
                   the epochs for the size); one scan serves the label and outlier kinds.
                   Before it starts, stderr says about how long it will take (an estimate
                   from the samples, the settings and this machine's speed, timed in 0.3 s)
  --no-cache       run the CNN scan even when IMAGES.idxlabel-scan beside IMAGES holds one
                   of these pixels with these settings. Without it that kept scan is used
                   (its probabilities scored against the labels as they are now: a label
                   changed since is checked; a class added since, or labelled samples
                   twice or half as many as it learnt from, scans again), and a scan
                   that ran is kept there for next time (replacing the one before; where the
                   folder cannot be written, or is read-only by its permissions, stderr says
                   so and the check goes on)
                   Above 180,000 labelled samples each fold model learns from 120,000 of
                   the other folds' samples (drawn with the seed); every sample is still
                   held out and scored once per seed

exit status: 0 done, 1 a file could not be read or written, 2 a usage error.
`

// checkGCPercent is the heap growth (percent of the live heap) at which the Go collector runs
// during a check, unless GOGC says otherwise: the runtime's 100 lets the heap reach twice what
// is live, and a check of 1,000,000 samples holds about 2 GB live (the pixels, the CNN's
// features and a neighbour index's copy of them). Its large arrays hold no pointers, so a
// collection costs little: at 25 the peak stays near 1.25× the live heap (bench/README.md).
const checkGCPercent = 25

// runCheck runs the dataset health check (package suspect/health) on IMAGES [LABELS] and prints
// its findings as CSV; see checkHelp.
func runCheck(c *cli, args []string) error {
	args, against, err := splitAgainst(args)
	if err != nil {
		return err
	}
	fs := c.flags("check")
	kinds := fs.String("kinds", "", "")
	top := topFlag(100)
	fs.Var(&top, "top", "")
	reportDir := fs.String("report", "", "")
	confusionOut := fs.String("confusion", "", "")
	mapOut := fs.String("map", "", "")
	threshold := fs.Float64("threshold", neardup.DefaultThreshold, "")
	seed := fs.Uint64("seed", 1, "")
	folds := fs.Int("folds", 3, "")
	seeds := fs.Int("seeds", 2, "")
	epochs := fs.Int("epochs", 0, "")
	force := fs.Bool("force", false, "")
	noCache := fs.Bool("no-cache", false, "")
	files, err := c.parseHelp(fs, args, 1, 2, checkHelp)
	if err != nil {
		return err
	}
	if len(files) == 1 { // the label file beside the images, found as the window finds it
		if l := pairfile.FindLabels(files[0]); l != "" {
			files = append(files, l)
			fmt.Fprintf(c.stderr, "idxlabel: labels: %s (found beside the images)\n", l)
		}
	}
	opts, err := checkOptions(fs, *kinds, int(top), *threshold, *folds, *epochs, *seeds)
	if err != nil {
		return err
	}
	opts.CNN = suspect.CNNOptions{Folds: *folds, Epochs: *epochs, Seed: *seed, Seeds: *seeds}
	if len(files) < 2 && containsKind(opts.Kinds, health.Label) {
		return usagef("check: the label kind needs a label file: idxlabel check IMAGES LABELS")
	}
	if against == nil && containsKind(opts.Kinds, health.Leak) {
		return usagef("check: the leak kind needs --against IMAGES2")
	}
	if against != nil && sameExisting(against[0], files[0]) {
		return usagef("check: --against %s is the checked image file %s: leakage compares two sets", against[0], files[0])
	}
	var outputs []string
	for _, o := range []string{*reportDir, *confusionOut, *mapOut} {
		if o != "" {
			outputs = append(outputs, o)
		}
	}
	labelRuns := len(files) == 2 && (opts.Kinds == nil || containsKind(opts.Kinds, health.Label))
	if (*confusionOut != "" || *mapOut != "") && !labelRuns {
		return usagef("check: --confusion and --map need the label kind (its CNN scan) and a label file")
	}
	if len(outputs) > 0 { // refused now, not after the scan
		may := func(out string) error {
			if out == *reportDir {
				_, err := export.ReportAt(out)
				return err
			}
			return pairfile.FileOutput(out)
		}
		claim, err := claimOutputs(append(append([]string{}, files...), against...), outputs, *force, may)
		var locked *pairfile.LockedError
		if errors.As(err, &locked) && locked.Writing && *reportDir != "" && locked.Path == filepath.Clean(*reportDir) {
			who := "another idxlabel"
			if locked.PID > 0 {
				who += fmt.Sprintf(" (process %d on %s)", locked.PID, locked.Host)
			}
			return fmt.Errorf("%s: %s is writing a report there: wait for it to finish, or choose another folder", *reportDir, who)
		}
		if err != nil {
			return err
		}
		defer claim.Release()
	}
	ds, err := openCheckSet(c, files)
	if err != nil {
		return err
	}
	defer ds.Close()
	set := ds.Snapshot()
	if (*confusionOut != "" || *mapOut != "") && !set.Labelled() {
		return fmt.Errorf("%s: no sample has a label, and --confusion and --map need the CNN scan, which learns from labelled samples", files[1])
	}
	var other *store.Dataset
	var otherData *sample.Set
	if against != nil {
		if other, err = openCheckSet(c, against); err != nil {
			return err
		}
		defer other.Close()
		h, w := ds.Size()
		if oh, ow := other.Size(); oh != h || ow != w {
			return usagef("check: --against %s has %d×%d images, %s has %d×%d: leakage compares images of one size", against[0], oh, ow, files[0], h, w)
		}
		od := other.Snapshot()
		otherData = &od
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	opts.ScanCNN = cachedScan(c.stderr, files[0], !*noCache)
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(checkGCPercent))
	}
	start := time.Now()
	res, err := health.Run(ctx, set, otherData, opts, checkProgress(c.stderr), nil)
	if err != nil {
		return fmt.Errorf("%s: %w", files[0], err)
	}
	var otherIndex []int
	if otherData != nil {
		otherIndex = otherData.Index
	}
	if err := writeCheckCSV(c.stdout, res, set.Index, otherIndex); err != nil {
		return err
	}
	took := time.Since(start)
	views, err := checkViews(ctx, c.stderr, res, set, *reportDir != "" || *mapOut != "")
	if err != nil {
		return err
	}
	// The report first: it is the only write that Ctrl+C cancels, so once it is in place
	// nothing stops before the CSV files are written too.
	if *reportDir != "" {
		in := report.Input{Set: set, Other: otherData, Result: res, Views: views, Images: files[0],
			Against: against, Began: start, Took: took}
		if len(files) > 1 {
			in.Labels = files[1]
		}
		r, err := report.Build(in)
		if err == nil {
			err = report.Write(ctx, *reportDir, r)
		}
		if err != nil {
			return err
		}
	}
	for _, out := range []string{*confusionOut, *mapOut} {
		if out != "" { // what a check killed while writing out left beside it
			atomicfile.RemoveStale(out, atomicfile.StaleAge)
		}
	}
	if (*confusionOut != "" && views.Confusion == nil) || (*mapOut != "" && views.XY == nil) {
		return fmt.Errorf("%s: the CNN scan did not run, so there is no confusion matrix or map to write", files[0])
	}
	if *confusionOut != "" {
		if err := atomicfile.WriteFile(*confusionOut, func(w io.Writer) error { return report.WriteConfusionCSV(w, views.Confusion, ds.ClassName) }); err != nil {
			return err
		}
	}
	if *mapOut != "" {
		if err := atomicfile.WriteFile(*mapOut, func(w io.Writer) error { return report.WriteMapCSV(w, views.XY) }); err != nil {
			return err
		}
	}
	var counts []string
	for _, k := range res.Kinds {
		counts = append(counts, fmt.Sprintf("%d %s", res.Flagged[k], k))
	}
	fmt.Fprintf(c.stderr, "idxlabel: checked %d samples in %.1f s: flagged %s\n", set.N, took.Seconds(), strings.Join(counts, ", "))
	return nil
}

// splitAgainst takes --against IMAGES2 [LABELS2] out of args (the flag package takes one value
// per flag): LABELS2 is the argument after IMAGES2 when it is not an option and its IDX header
// is a label file's (isLabelFile). Errors: --against without a file, or given twice.
func splitAgainst(args []string) (rest, against []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "against" {
			rest = append(rest, a)
			continue
		}
		if against != nil {
			return nil, nil, usagef("check: --against is given twice")
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil, nil, usagef("check: --against needs IMAGES2 [LABELS2]")
			}
			i++
			value = args[i]
		}
		against = []string{value}
		if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && isLabelFile(args[i+1]) {
			against = append(against, args[i+1])
			i++
		}
	}
	return rest, against, nil
}

// isLabelFile reports whether path's IDX header (only the header is read) is a label file's:
// integers, 1-D, or 2-D with at most 16 columns (QMNIST's N×8). Anything unreadable is not.
func isLabelFile(path string) bool {
	h, err := idx.ReadHeaderFile(path)
	if err != nil || h.Type == idx.Float32 || h.Type == idx.Float64 {
		return false
	}
	return len(h.Dims) == 1 || len(h.Dims) == 2 && h.Dims[1] <= 16
}

// checkOptions turns the flags into health.Options, or a usage error naming the problem.
func checkOptions(fs *flag.FlagSet, kinds string, top int, threshold float64, folds, epochs, seeds int) (health.Options, error) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var opts health.Options
	if kinds != "" || set["kinds"] {
		k, err := health.ParseKinds(kinds)
		if err != nil {
			return opts, usagef("check: --kinds: %v", err)
		}
		opts.Kinds = k
	}
	switch {
	case !(threshold > 0 && threshold <= 1):
		return opts, usagef("check: --threshold must be above 0 and at most 1, not %v", threshold)
	case folds < 2:
		return opts, usagef("check: --folds must be at least 2, not %d", folds)
	case folds > maxFolds:
		return opts, usagef("check: --folds must be at most %d, not %d", maxFolds, folds)
	case set["epochs"] && epochs < 1:
		return opts, usagef("check: --epochs must be at least 1, not %d", epochs)
	case seeds < 1 || seeds > maxSeeds:
		return opts, usagef("check: --seeds must be 1–%d, not %d", maxSeeds, seeds)
	}
	opts.Top, opts.Threshold = top, threshold
	return opts, nil
}

// sameExisting reports whether a and b are one existing file (os.SameFile: through symbolic
// and hard links).
func sameExisting(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

func containsKind(kinds []health.Kind, k health.Kind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// openCheckSet opens IMAGES [LABELS] read-only (cli.openRead: its notices go to stderr).
func openCheckSet(c *cli, files []string) (*store.Dataset, error) {
	labels := ""
	if len(files) > 1 {
		labels = files[1]
	}
	return c.openRead(files[0], labels)
}

// cachedScan returns the CNN scan check and suspects run: through the scan cache beside images
// (scancache.Scanner: read unless read is false, written after a scan), saying on w where the
// scan came from, about how long a scan that runs will take (suspect.EstimateCNN at the rate
// suspect.CalibrateCNN measures, in about 0.3 s), and why the cache was not used or not written.
func cachedScan(w io.Writer, images string, read bool) func(context.Context, sample.Set, suspect.CNNOptions, func(suspect.Progress)) (*suspect.CNNResult, error) {
	sc := scancache.Scanner{Path: images + scancache.Suffix, Read: read, Write: true,
		Note: func(text string) { fmt.Fprintf(w, "idxlabel: %s\n", text) },
		Starting: func(ctx context.Context, d sample.Set, opts suspect.CNNOptions) {
			if rate, err := suspect.CalibrateCNN(ctx); err == nil {
				fmt.Fprintf(w, "idxlabel: CNN scan of %d samples: about %s (an estimate, from this machine's speed now)\n",
					d.N, suspect.EstimateCNN(d, opts, rate).Round(time.Second))
			}
		}}
	return func(ctx context.Context, d sample.Set, opts suspect.CNNOptions, progress func(suspect.Progress)) (*suspect.CNNResult, error) {
		start := time.Now()
		res, out, err := sc.Scan(ctx, d, opts, progress)
		if err == nil && out.Cached {
			fmt.Fprintf(w, "idxlabel: CNN scan read from %s in %.1f s (the pixels and settings have not changed since it ran; --no-cache scans again)\n",
				sc.Path, time.Since(start).Seconds())
		}
		return res, err
	}
}

// checkProgress prints a line on w when the check moves to another kind or stage, and during
// the CNN scan one per 5% of it from 5% (before, the time left measured so far is noise: the
// estimate printed as the scan started stands). At each such move it also gives the system back
// the memory the stage before let go (debug.FreeOSMemory: one collection, cheap, as the check's
// large arrays hold no pointers): the next stage's large arrays rarely fit the freed spans, and
// without it they came on top of them (a 1,000,000-sample check's peak, bench/README.md).
func checkProgress(w io.Writer) func(health.Progress) {
	var last, stage string
	step := -1
	return func(p health.Progress) {
		if at := string(p.Kind) + ": " + p.Stage; at != stage {
			stage = at
			debug.FreeOSMemory()
		}
		if p.CNN != nil {
			if s := int(20 * p.Done); s != step && s > 0 { // below 5% done, the estimate said before it stands
				step = s
				fmt.Fprintf(w, "idxlabel: CNN scan (for label errors and outliers) %.0f%% done (fold %d/%d, epoch %d/%d), about %s left\n",
					100*p.Done, p.CNN.Fold, p.CNN.Folds, p.CNN.Epoch, p.CNN.Epochs, p.CNN.Left.Round(time.Second))
			}
			return
		}
		if at := string(p.Kind) + ": " + p.Stage; at != last {
			last = at
			fmt.Fprintf(w, "idxlabel: %s\n", stageText(p.Kind, p.Stage))
		}
	}
}

// stageText says in words what a stage of the check does (health.Progress's Kind and Stage):
// "duplicates: finding each image's nearest images (the candidate copies)". A stage it does not
// know is said by its name.
func stageText(k health.Kind, stage string) string {
	kind := map[health.Kind]string{health.Label: "label errors", health.Outlier: "outliers", health.Duplicate: "duplicates", health.Leak: "leaks"}[k]
	if kind == "" {
		kind = string(k)
	}
	what := map[string]string{
		"describe":    "describing every image by its pixels (shift-tolerant descriptors)",
		"index":       "indexing the descriptors for the nearest-neighbour search",
		"candidates":  "finding each image's nearest images (the candidate copies)",
		"verify":      "comparing each candidate pair pixel by pixel at its best alignment",
		"statistics":  "measuring each image's pixel statistics against its nearest images",
		"embedding 1": "comparing each image with its nearest images by pixel descriptors",
		"embedding 2": "comparing each image with its nearest images by the CNN's features",
	}[stage]
	if what == "" {
		what = stage
	}
	return kind + ": " + what
}

// writeCheckCSV prints the findings as CSV (kind,index,other,label,suggested,score) with file
// indices: indices maps the checked samples to their numbers in IMAGES, otherIndex those of
// IMAGES2.
func writeCheckCSV(w io.Writer, res *health.Result, indices, otherIndex []int) error {
	out := bufio.NewWriter(w)
	fmt.Fprintln(out, "kind,index,other,label,suggested,score")
	num := func(v int) string {
		if v == sample.NoLabel {
			return ""
		}
		return strconv.Itoa(v)
	}
	for _, k := range res.Kinds {
		for _, f := range res.Findings[k] {
			other := ""
			switch k {
			case health.Duplicate:
				other = strconv.Itoa(indices[f.Other])
			case health.Leak:
				other = strconv.Itoa(otherIndex[f.Other])
			}
			fmt.Fprintf(out, "%s,%d,%s,%s,%s,%.4f\n", k, indices[f.Index], other, num(f.Label), num(f.Suggested), f.Score)
		}
	}
	return out.Flush()
}

// checkViews builds the confusion matrix from the check's scan and, when withMap, lays out the
// 2-D map of its features (saying so on w), with the flagged label errors and outliers marked
// (report.NewScanViews). Errors: NewScanViews'.
func checkViews(ctx context.Context, w io.Writer, res *health.Result, set sample.Set, withMap bool) (report.ScanViews, error) {
	if res.Scan != nil && withMap {
		fmt.Fprintf(w, "idxlabel: map: laying out %d samples\n", set.N)
	}
	return report.NewScanViews(ctx, res, set.Labels, withMap, nil)
}
