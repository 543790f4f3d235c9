package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"idxlabel/pairfile"
	"idxlabel/sample"
	"idxlabel/suspect/activelearn"
)

// suggestHelp is `idxlabel suggest --help`.
const suggestHelp = `usage: idxlabel suggest [--ask N] [--seed S] IMAGES [LABELS]

Labelling from scratch: which samples to label next, and a label for every other one.
A sample without a label (no label file, or -2147483648 in an int32 label file, which is how
idxlabel saves samples not yet labelled) is unlabelled. Without LABELS, the label file named as
MNIST names its pairs beside IMAGES is used when it exists (t10k-images-idx3-ubyte.gz →
t10k-labels-idx1-ubyte.gz); without one every sample is unlabelled.

  --ask N   print CSV with the header index, then the N unlabelled samples whose labels would
            help most now, most useful first (one 0-based index a line, in file order's
            numbering). With few labels these are typical samples of clusters that hold no label
            yet; later the samples whose suggestion is least sure. Works with no labels at all:
            that is where a person starts.
  (none)    print CSV index,suggested,confidence for every unlabelled sample, most confident
            first: the suggested label and the calibrated probability (0–1) that it is right.
            Needs labels of at least 2 classes.
  --seed S  every random choice (default 1): the same files and seed give the same output.

The loop: ask, type the asked labels into the label file, ask again; then accept the
suggestions. Progress goes to stderr; Ctrl+C stops (exit 130) without output.

exit status: 0 done, 1 a file could not be read (or too few labels to suggest), 2 a usage
error, 130 interrupted.
`

// runSuggest prints the samples to label next (--ask N) or a suggested label for every
// unlabelled sample (package suspect/activelearn); see suggestHelp.
func runSuggest(c *cli, args []string) error {
	fs := c.flags("suggest")
	ask := fs.Int("ask", -1, "")
	seed := fs.Uint64("seed", 1, "")
	files, err := c.parseHelp(fs, args, 1, 2, suggestHelp)
	if err != nil {
		return err
	}
	asked := false
	fs.Visit(func(f *flag.Flag) { asked = asked || f.Name == "ask" })
	if asked && *ask < 1 {
		return usagef("suggest: --ask must be at least 1, not %d", *ask)
	}
	if *seed == 0 {
		return usagef("suggest: --seed must be at least 1")
	}
	if len(files) == 1 {
		if l := pairfile.FindLabels(files[0]); l != "" {
			files = append(files, l)
			fmt.Fprintf(c.stderr, "idxlabel: labels: %s (found beside the images)\n", l)
		}
	}
	ds, err := openCheckSet(c, files)
	if err != nil {
		return err
	}
	defer ds.Close()
	data := ds.Snapshot()
	indices := ds.Snapshot().Index
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	opts := activelearn.Options{Seed: *seed, Progress: suggestProgress(c.stderr)}
	labelled := 0
	for _, l := range data.Labels {
		if l != sample.NoLabel {
			labelled++
		}
	}
	out := bufio.NewWriter(c.stdout)
	if asked {
		list, err := activelearn.Ask(ctx, data, *ask, opts)
		if err != nil {
			return fmt.Errorf("%s: %w", files[0], err)
		}
		fmt.Fprintln(out, "index")
		for _, i := range list {
			fmt.Fprintln(out, indices[i])
		}
		if err := out.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(c.stderr, "idxlabel: %d samples, %d labelled: asked for %d in %.1f s\n", data.N, labelled, len(list), time.Since(start).Seconds())
		return nil
	}
	list, err := activelearn.Suggest(ctx, data, opts)
	if err != nil {
		return fmt.Errorf("%s: %w", files[0], err)
	}
	fmt.Fprintln(out, "index,suggested,confidence")
	var sure float64
	for _, s := range list {
		fmt.Fprintf(out, "%d,%d,%.4f\n", indices[s.Index], s.Label, s.Confidence)
		sure += s.Confidence
	}
	if err := out.Flush(); err != nil {
		return err
	}
	took := time.Since(start).Seconds()
	if len(list) == 0 {
		fmt.Fprintf(c.stderr, "idxlabel: %d samples, all labelled: nothing to suggest (%.1f s)\n", data.N, took)
		return nil
	}
	fmt.Fprintf(c.stderr, "idxlabel: %d samples, %d labelled: suggested %d in %.1f s (expected right: %.1f%%)\n",
		data.N, labelled, len(list), took, 100*sure/float64(len(list)))
	return nil
}

// suggestProgress prints a line on w when the work moves to another stage and every 10% of a
// stage.
func suggestProgress(w io.Writer) func(stage string, done float64) {
	last, step := "", -1
	return func(stage string, done float64) {
		s := int(10 * done)
		if stage == last && s == step {
			return
		}
		if stage != last || s > step {
			fmt.Fprintf(w, "idxlabel: %s %.0f%%\n", stage, 100*done)
		}
		last, step = stage, s
	}
}
