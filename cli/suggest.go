package cli

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"idxlabel/internal/atomicfile"
	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/pairfile"
	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/activelearn"
	"idxlabel/suspect/scancache"
)

// suggestHelp is `idxlabel suggest --help`.
const suggestHelp = `usage: idxlabel suggest [--ask N] [--fast] [--accepted CSV] [--per-class P] [--seed S] [--no-cache] IMAGES [LABELS]

Labelling from scratch: which samples to label next, and a label for every other one.
A sample without a label (no label file, or -2147483648 in an int32 label file, which is how
idxlabel saves samples not yet labelled) is unlabelled. Without LABELS, the label file named as
MNIST names its pairs beside IMAGES is used when it exists (t10k-images-idx3-ubyte.gz →
t10k-labels-idx1-ubyte.gz); without one every sample is unlabelled.

The first call on a set of images learns features from the pixels alone (a map of the images,
its clusters, and a network taught to tell the clusters apart: about 15 s of CPU per 10,000
28×28 images, an estimate is printed first) and keeps them beside the images (IMAGES plus
.idxlabel-space); every call after, whatever the labels, reads them in a moment.

  --ask N         print CSV with the header index, then the N unlabelled samples whose labels
                  would help most now, most useful first (one 0-based index a line, in file
                  order's numbering). With few labels these are typical samples of the
                  clusters that hold no label yet (with no labels at all, one of each of the N
                  largest clusters); later the samples whose suggestion is least sure.
  (none)          print CSV index,suggested,confidence for every unlabelled sample, most
                  confident first: the suggested label and the calibrated probability (0–1)
                  that it is right, from networks fine-tuned on the labels (seconds). Needs
                  labels of at least 2 classes.
  --fast          the first suggestions only: the labels spread over the kept features'
                  neighbours (a fraction of a second), less right than the networks'.
  --accepted CSV  a CSV file whose column index lists the samples whose labels in LABELS are
                  suggestions accepted without a look (e.g. the rows of an earlier suggest you
                  accepted): they are not learnt from (they hold nothing the suggestions did
                  not) nor used to calibrate, and are not suggested again. Without it, the
                  suggestions the window accepted are read from LABELS plus .idxlabel-accepted,
                  which its save keeps (ignored, with a warning, when LABELS changed since).
  --per-class P   instead of the suggestions, print CSV class,suggested,accepted,expected_wrong:
                  for each class, its suggestions, how many are at confidence P (0–1) or more,
                  and how many of those are expected wrong (the sum of 1 − confidence).
  --seed S        every random choice (default 1): the same files and seed give the same output.
  --no-cache      compute the features again even when kept ones fit the images.

The loop: ask, type the asked labels into the label file, ask again; then accept the
suggestions. Progress goes to stderr; Ctrl+C stops (exit 130) without output.

exit status: 0 done, 1 a file could not be read (or too few labels to suggest), 2 a usage
error, 130 interrupted.
`

// runSuggest prints the samples to label next (--ask N), a suggested label for every
// unlabelled sample, or the suggestions' count per class at a threshold (package
// suspect/activelearn, its space kept beside the images by suspect/scancache); see suggestHelp.
func runSuggest(c *cli, args []string) error {
	fs := c.flags("suggest")
	ask := fs.Int("ask", -1, "")
	seed := fs.Uint64("seed", 1, "")
	fast := fs.Bool("fast", false, "")
	accepted := fs.String("accepted", "", "")
	perClass := fs.Float64("per-class", -1, "")
	noCache := fs.Bool("no-cache", false, "")
	files, err := c.parseHelp(fs, args, 1, 2, suggestHelp)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case set["ask"] && *ask < 1:
		return usagef("suggest: --ask must be at least 1, not %d", *ask)
	case *seed == 0:
		return usagef("suggest: --seed must be at least 1")
	case set["per-class"] && !(*perClass >= 0 && *perClass <= 1):
		return usagef("suggest: --per-class must be a confidence from 0 to 1, not %v", *perClass)
	case set["ask"] && (set["fast"] || set["per-class"]):
		return usagef("suggest: --ask prints the samples to label; --fast and --per-class are about suggestions")
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
	indices := data.Index
	opts := activelearn.Options{Seed: *seed, Progress: suggestProgress(c.stderr)}
	if *accepted != "" {
		if opts.Accepted, err = readAccepted(*accepted, data); err != nil {
			return err
		}
	} else if opts.Accepted = ds.AcceptedIn(data); opts.Accepted != nil {
		n := 0
		for _, a := range opts.Accepted {
			if a {
				n++
			}
		}
		fmt.Fprintf(c.stderr, "idxlabel: %s are accepted suggestions (kept beside the labels in %s): learnt as pseudo-labels (--accepted names others)\n",
			numfmt.Plural(n, "label"), filepath.Base(pairfile.AcceptedFile(files[1])))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	space, err := keptSpace(ctx, c.stderr, files[0], data, opts, !*noCache)
	if err != nil {
		return fmt.Errorf("%s: %w", files[0], err)
	}
	labelled, typed := 0, 0
	for i, l := range data.Labels {
		if l != sample.NoLabel {
			labelled++
			if opts.Accepted == nil || !opts.Accepted[i] {
				typed++
			}
		}
	}
	out := bufio.NewWriter(c.stdout)
	if set["ask"] {
		list, err := space.Ask(ctx, data.Labels, *ask, opts)
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
	first := time.Now()
	sugg, err := space.Suggest(ctx, data.Labels, opts)
	if err != nil {
		return fmt.Errorf("%s: %w", files[0], err)
	}
	firstTook := time.Since(first)
	if !*fast {
		if sugg, err = space.Refine(ctx, data, data.Labels, opts); err != nil {
			return fmt.Errorf("%s: %w", files[0], err)
		}
	}
	if set["per-class"] {
		fmt.Fprintln(out, "class,suggested,accepted,expected_wrong")
		for _, a := range sugg.Acceptance(*perClass) {
			fmt.Fprintf(out, "%d,%d,%d,%.1f\n", a.Label, a.Suggested, a.Accepted, a.Wrong)
		}
	} else {
		fmt.Fprintln(out, "index,suggested,confidence")
		for _, s := range sugg.List {
			fmt.Fprintf(out, "%d,%d,%.4f\n", indices[s.Index], s.Label, s.Confidence)
		}
	}
	if err := out.Flush(); err != nil {
		return err
	}
	took := time.Since(start).Seconds()
	if len(sugg.List) == 0 {
		fmt.Fprintf(c.stderr, "idxlabel: %d samples, all labelled: nothing to suggest (%.1f s)\n", data.N, took)
		return nil
	}
	var sure float64
	for _, s := range sugg.List {
		sure += s.Confidence
	}
	how := "calibrated on typed labels held out"
	if sugg.Refined {
		how = "calibrated on the agreement of networks each without a quarter of the typed labels"
	}
	if !sugg.Calibrated {
		how = fmt.Sprintf("not calibrated: fewer than %d typed labels", activelearn.MinCalibration)
	}
	fmt.Fprintf(c.stderr, "idxlabel: %d samples, %d labelled (%d typed): suggested %d in %.1f s, the first suggestions in %.1f s (expected right: %.1f%%; %s)\n",
		data.N, labelled, typed, len(sugg.List), took, firstTook.Seconds(), 100*sure/float64(len(sugg.List)), how)
	return nil
}

// keptSpace returns the labelling space of data (the images at path): read from the file
// beside the images when it fits them and read is set, else computed (saying first about how
// long it will take, by suspect.CalibrateCNN's measure of this machine now) and kept there.
func keptSpace(ctx context.Context, w io.Writer, path string, data sample.Set, opts activelearn.Options, read bool) (*activelearn.Space, error) {
	sp := scancache.Spaces{Path: path + scancache.SpaceSuffix, Read: read, Write: true,
		Note: func(text string) { fmt.Fprintf(w, "idxlabel: suggest: %s\n", text) },
		Starting: func(ctx context.Context, d sample.Set) {
			if rate, err := suspect.CalibrateCNN(ctx); err == nil {
				fmt.Fprintf(w, "idxlabel: suggest: learning features of %d samples from their pixels: about %s (an estimate, from this machine's speed now; once, kept in %s)\n",
					d.N, activelearn.EstimateSpace(d.N, rate).Round(time.Second), path+scancache.SpaceSuffix)
			}
		}}
	start := time.Now()
	space, out, err := sp.Space(ctx, data, opts)
	if err != nil {
		return nil, err
	}
	if out.Cached {
		fmt.Fprintf(w, "idxlabel: suggest: features read from %s in %.1f s\n", sp.Path, time.Since(start).Seconds())
	} else {
		fmt.Fprintf(w, "idxlabel: suggest: features learnt in %.1f s\n", time.Since(start).Seconds())
	}
	return space, nil
}

// readAccepted reads the CSV file at path (a header naming a column index, then one sample a
// row, numbered as the output of suggest numbers them) into one mark per sample of data.
// Errors (naming the file): not a regular file, no index column, a line longer than
// maxAcceptedLine, a value that is not a sample's number, a sample listed twice or one without a
// label. The file is read within 64 MiB, a line at a time, and a message quotes at most 40
// characters of it.
func readAccepted(path string, data sample.Set) ([]bool, error) {
	f, _, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var at map[int]int // a sample's number → its position (nil: the same)
	if data.Index != nil {
		at = make(map[int]int, data.N)
		for k := range data.N {
			at[data.Number(k)] = k
		}
	}
	r := csv.NewReader(bufio.NewReader(&boundedLines{r: io.LimitReader(f, 64<<20), max: maxAcceptedLine}))
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: no header: %w", path, err)
	}
	col := -1
	for k, h := range head {
		if strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")) == "index" {
			col = k
		}
	}
	if col < 0 {
		return nil, fmt.Errorf("%s: no column named index in the header %q", path, clip.Text(strings.Join(head, ",")))
	}
	marks := make([]bool, data.N)
	for row := 2; ; row++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if col >= len(rec) {
			return nil, fmt.Errorf("%s: row %d has no index", path, row)
		}
		v, err := strconv.Atoi(strings.TrimSpace(rec[col]))
		k, ok := v, v >= 0 && v < data.N
		if at != nil {
			k, ok = at[v]
		}
		switch {
		case err != nil || !ok:
			return nil, fmt.Errorf("%s: row %d: %q is not a sample of the images", path, row, clip.Text(rec[col]))
		case marks[k]:
			return nil, fmt.Errorf("%s: row %d: sample %d is listed twice", path, row, v)
		case data.Labels[k] == sample.NoLabel:
			return nil, fmt.Errorf("%s: row %d: sample %d is listed as accepted but has no label", path, row, v)
		}
		marks[k] = true
	}
	return marks, nil
}

// maxAcceptedLine is the longest line readAccepted reads (64 KiB: a row of suggest's output is
// a few dozen bytes).
const maxAcceptedLine = 64 << 10

// boundedLines passes r's bytes through and fails at the first line longer than max bytes, so a
// CSV reader never gathers a record larger than that.
type boundedLines struct {
	r         io.Reader
	max, line int
}

func (b *boundedLines) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	for _, c := range p[:n] {
		if c == '\n' {
			b.line = 0
		} else if b.line++; b.line > b.max {
			return 0, fmt.Errorf("a line longer than %d bytes: not a CSV of sample numbers", b.max)
		}
	}
	return n, err
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
