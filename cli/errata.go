package cli

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"idxlabel/annotate"
	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
)

// runErrata writes to stdout the errata file of the corrections from OLD_LABELS to NEW_LABELS
// of IMAGES: a first comment line naming the images file's SHA-256 and sample count, then CSV
// index,sha256,old,new,votes,note, one row a sample whose label differs (sha256: of its stored
// bytes; a label the sample has not, −2147483648, is written empty). --votes takes each row's
// votes ("V/A") from agree --votes where its label is the new one; --note puts a note (one line
// of text) on every row. stderr gets a summary. Exit status: 0 written, 2 a usage error or
// anything that stopped it (failure).
func runErrata(c *cli, args []string) error {
	fs := c.flags("errata")
	note := fs.String("note", "", "a note (one line of text, at most 1000 bytes) on every row: who corrected, how")
	votesFile := fs.String("votes", "", "take each row's votes from VOTES_CSV, the CSV index,label,votes,annotators of agree --votes")
	files, err := c.parse(fs, args, 3, 3)
	if err != nil {
		return err
	}
	if err := annotate.CheckNote(*note); err != nil {
		return usagef("errata: --note: %v", err)
	}
	return failure(errata(c, files[0], files[1], files[2], *votesFile, *note))
}

func errata(c *cli, images, oldFile, newFile, votesFile, note string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	hs, _, err := hashImageFile(ctx, images)
	if err != nil {
		return err
	}
	n := len(hs.Samples)
	var cols [2][]int32
	for k, f := range []string{oldFile, newFile} {
		_, col, err := readLabelColumn(f)
		if err != nil {
			return err
		}
		if len(col) != n {
			return fmt.Errorf("%s has %d labels, but %s has %d images: the counts must match", f, len(col), images, n)
		}
		cols[k] = col
	}
	var votes []annotate.Vote
	if votesFile != "" {
		f, _, err := atomicfile.OpenRegular(votesFile)
		if err != nil {
			return err
		}
		votes, err = annotate.ReadVotes(bufio.NewReader(f), votesFile, n)
		f.Close()
		if err != nil {
			return err
		}
	}
	e, err := annotate.MakeErrata(hs, cols[0], cols[1], votes, note)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(c.stdout, 1<<16)
	if err := e.WriteCSV(w, filepath.Base(images)); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "errata: %s of %s; images sha256 %s\n", plural(len(e.Rows), "correction"), plural(n, "sample"), hs.File)
	if votes != nil {
		without := 0
		for _, r := range e.Rows {
			if r.Votes == "" {
				without++
			}
		}
		if without > 0 {
			fmt.Fprintf(c.stderr, "errata: %s: the new label is not %s's label for the sample, so the votes are left empty\n", plural(without, "row"), votesFile)
		}
	}
	return nil
}

// runApplyErrata applies the errata file ERRATA to LABELS, the labels of IMAGES, and writes the
// result to OUT_LABELS (LABELS' dtype and shape, only column 0 changed; atomically, by
// claimOutputs' rule). A row applies only where the sample's pixels hash to its sha256 and its
// label is its old label (annotate.Apply); a row that does not is left out and listed on stderr
// with its reason. The labels LABELS' accepted marks name (pairfile.AcceptedFile: accepted
// suggestions, pseudo-labels) stay marked in OUT_LABELS' own (labelMarks, keepMarks), but where
// a row applied: its label is the errata's decision now, a person's, no longer a pseudo-label.
// Exit status: 0 every row applied, 1 a row was left out (OUT_LABELS holds the rows that
// applied), 2 a usage error or anything that stopped it (failure).
func runApplyErrata(c *cli, args []string) error {
	fs := c.flags("apply-errata")
	force := fs.Bool("force", false, forceUsage)
	files, err := c.parse(fs, args, 4, 4)
	if err != nil {
		return err
	}
	return failure(applyErrata(c, files[0], files[1], files[2], files[3], *force))
}

func applyErrata(c *cli, errataFile, images, labels, out string, force bool) error {
	inputs, outputs := []string{errataFile, images, labels}, []string{out, namesFileFor(out)}
	claim, err := claimOutputs(inputs, outputs, force, nil)
	if err != nil {
		return err
	}
	defer claim.Release()
	names, namesFile := c.findNames(labels)
	if namesFile != "" {
		if err := checkOutputs(append(inputs, namesFile), outputs); err != nil {
			return err
		}
	}
	f, _, err := atomicfile.OpenRegular(errataFile)
	if err != nil {
		return err
	}
	e, err := annotate.ReadErrata(bufio.NewReader(f), errataFile)
	f.Close()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	hs, _, err := hashImageFile(ctx, images)
	if err != nil {
		return err
	}
	arr, col, err := readLabelColumn(labels)
	if err != nil {
		return err
	}
	if len(col) != len(hs.Samples) {
		return fmt.Errorf("%s has %d labels, but %s has %d images: the counts must match", labels, len(col), images, len(hs.Samples))
	}
	imagesCRC, marks := c.labelMarks(labels, arr) // before any row changes arr
	switch {
	case !e.HasImages:
		fmt.Fprintf(c.stderr, "apply-errata: %s does not name the images it was made for; each row is matched by its sample's pixels\n", errataFile)
	case e.Images == hs.File:
		fmt.Fprintf(c.stderr, "apply-errata: %s was made for these very images (sha256 %s)\n", errataFile, hs.File)
	default:
		made := ""
		if e.Samples >= 0 {
			made = fmt.Sprintf(", %d samples", e.Samples)
		}
		fmt.Fprintf(c.stderr, "apply-errata: %s was made for other images (sha256 %s%s); %s is %s, %d samples: each row is matched by its sample's pixels\n",
			errataFile, e.Images, made, images, hs.File, len(hs.Samples))
	}
	lo, hi, _ := arr.Type.IntRange()
	fits := func(l int32) bool { return int64(l) >= lo && int64(l) <= hi }
	outcomes := annotate.Apply(e, hs.Samples, col, fits)
	stride := arr.Stride()
	applied, moved := 0, 0
	var left []annotate.Outcome
	var corrected []int // the samples a row applied to: their labels are the errata's now
	for _, o := range outcomes {
		if !o.Applied() {
			left = append(left, o)
			continue
		}
		arr.SetInt(o.At*stride, int64(o.Row.New))
		corrected = append(corrected, o.At)
		applied++
		if o.Moved {
			moved++
		}
	}
	atomicfile.RemoveStale(out, atomicfile.StaleAge)
	if err := idx.WriteFile(out, arr); err != nil {
		return err
	}
	claim.Replaced(out) // the accepted marks of the labels it replaced: only now
	if err := c.keepMarks(claim, out, arr, imagesCRC, withoutSamples(marks, corrected)); err != nil {
		return err
	}
	if err := c.keepNames(out, names); err != nil {
		return err
	}
	by := ""
	if moved > 0 {
		by = fmt.Sprintf(" (%d found by their pixels at another index)", moved)
	}
	fmt.Fprintf(c.stderr, "apply-errata: applied %d of %s%s → %s\n", applied, plural(len(outcomes), "row"), by, out)
	if len(left) == 0 {
		return nil
	}
	why := map[annotate.Reason]int{}
	for _, o := range left {
		why[o.Reason]++
	}
	var counts []string
	for r := annotate.Applied + 1; r <= annotate.DoesNotFit; r++ {
		if why[r] > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", why[r], r))
		}
	}
	fmt.Fprintf(c.stderr, "apply-errata: %s left out (%s):\n", plural(len(left), "row"), strings.Join(counts, ", "))
	for _, o := range left {
		fmt.Fprintf(c.stderr, "  %s:%d: %s\n", errataFile, o.Row.Line, o)
	}
	return errReported
}

// withoutSamples returns marks (ascending) without the samples in drop (any order). Memory: a
// set of drop; time O(len(marks) + len(drop)).
func withoutSamples(marks, drop []int) []int {
	if len(drop) == 0 {
		return marks
	}
	gone := make(map[int]bool, len(drop))
	for _, i := range drop {
		gone[i] = true
	}
	var out []int
	for _, i := range marks {
		if !gone[i] {
			out = append(out, i)
		}
	}
	return out
}
