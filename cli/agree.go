package cli

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"slices"
	"strconv"

	"idxlabel/annotate"
	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
	"idxlabel/pairfile"
)

// runAgree compares two or more label files of the same images, one an annotator's: stdout gets
// CSV index,<name_1>,<name_2>,… of every sample whose labels differ (the names are the files'
// base names; a sample an annotator left unlabelled, −2147483648, has its field empty); stderr
// the summary (samples each labelled, raw agreement, Cohen's κ for two files, Fleiss' κ over
// the samples every annotator labelled, each pair's Cohen's κ for three or more, and per class
// the specific agreement and the class most confused with it). --consensus writes the majority
// labels (more than half of the annotators who labelled a sample agree; −2147483648 otherwise),
// or with --weighted Dawid–Skene's, with the class names of the first input that has them
// beside it (keepNames); --votes writes CSV index,label,votes,annotators for every
// sample. Outputs follow claimOutputs' rule. Exit status: 0 all agree, 1 some disagree, 2 a
// usage error or anything that stopped it (failure).
func runAgree(c *cli, args []string) error {
	fs := c.flags("agree")
	consensus := fs.String("consensus", "", "write the consensus labels to OUT_LABELS (IDX, the first input's dtype when it holds them; int32 when a sample has none: −2147483648)")
	votes := fs.String("votes", "", "write CSV index,label,votes,annotators for every sample to OUT_CSV")
	weighted := fs.Bool("weighted", false, "consensus by Dawid–Skene's EM (each annotator's confusion matrix and the labels estimated together) instead of the majority; prints each annotator's estimated accuracy")
	force := fs.Bool("force", false, forceUsage)
	files, err := c.parse(fs, args, 2, -1)
	if err != nil {
		return err
	}
	return failure(agree(c, files, *consensus, *votes, *weighted, *force))
}

func agree(c *cli, files []string, consensusOut, votesOut string, weighted, force bool) error {
	var outputs []string
	if consensusOut != "" {
		outputs = append(outputs, consensusOut, namesFileFor(consensusOut))
	}
	if votesOut != "" {
		outputs = append(outputs, votesOut)
	}
	var classNames map[int]string
	var claim *pairfile.Claim
	if len(outputs) > 0 {
		var err error
		if claim, err = claimOutputs(files, outputs, force, nil); err != nil {
			return err
		}
		defer claim.Release()
		var namesFile string
		if consensusOut != "" {
			classNames, namesFile = c.findNames(files...)
		}
		if namesFile != "" {
			if err := checkOutputs(append(slices.Clone(files), namesFile), outputs); err != nil {
				return err
			}
		}
	}
	names := annotatorNames(files)
	cols := make([]annotate.Column, len(files))
	var firstType idx.DType
	for k, f := range files {
		a, col, err := readLabelColumn(f)
		if err != nil {
			return err
		}
		if k == 0 {
			firstType = a.Type
		} else if len(col) != len(cols[0].Labels) {
			return fmt.Errorf("%s has %d labels, %s has %d: annotators label the same images, one label a sample", f, len(col), files[0], len(cols[0].Labels))
		}
		cols[k] = annotate.Column{Name: names[k], Labels: col}
	}
	p, err := annotate.NewPanel(cols)
	if err != nil {
		return err
	}
	cols = nil // the panel holds its own copy
	if weighted && len(p.Classes()) > annotate.MaxDSClasses {
		return usagef("agree --weighted: the files hold %d classes; Dawid–Skene estimates at most %d (its model holds a C×C matrix per annotator)", len(p.Classes()), annotate.MaxDSClasses)
	}
	differ, err := writeDisagreements(c.stdout, p)
	if err != nil {
		return err
	}
	printSummary(c.stderr, p, p.Summary(), differ)
	var result []annotate.Vote
	if weighted {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
		defer stop()
		est, err := p.DawidSkene(ctx, annotate.DSOptions{})
		if err != nil {
			return err
		}
		printEstimate(c.stderr, p, est)
		result = est.Votes
	} else if len(outputs) > 0 {
		result = p.Majority()
	}
	if consensusOut != "" {
		if err := writeConsensus(c.stderr, consensusOut, result, firstType, weighted); err != nil {
			return err
		}
		// The accepted marks of the labels it replaced go, only now; none are written: a
		// consensus label is the annotators' vote, not a model's suggestion accepted.
		claim.Replaced(consensusOut)
		if err := c.keepNames(consensusOut, classNames); err != nil {
			return err
		}
	}
	if votesOut != "" {
		atomicfile.RemoveStale(votesOut, atomicfile.StaleAge)
		err := atomicfile.WriteFile(votesOut, func(w io.Writer) error {
			bw := bufio.NewWriterSize(w, 1<<16)
			if err := annotate.WriteVotes(bw, result); err != nil {
				return err
			}
			return bw.Flush()
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(c.stderr, "votes: %s\n", votesOut)
	}
	if differ > 0 {
		return errReported
	}
	return nil
}

// writeDisagreements writes the CSV of the samples whose labels differ and returns how many.
func writeDisagreements(out io.Writer, p *annotate.Panel) (int, error) {
	w := bufio.NewWriterSize(out, 1<<16)
	cw := csv.NewWriter(w)
	cw.Write(append([]string{"index"}, p.Names()...))
	cw.Flush()
	differ := 0
	line := make([]byte, 0, 256)
	for i := range p.N() {
		if !p.Disagrees(i) {
			continue
		}
		differ++
		line = strconv.AppendInt(line[:0], int64(i), 10)
		for a := range p.K() {
			line = append(line, ',')
			if l := p.Label(i, a); l != annotate.NoLabel {
				line = strconv.AppendInt(line, int64(l), 10)
			}
		}
		line = append(line, '\n')
		w.Write(line)
	}
	return differ, w.Flush()
}

// maxPairs is the most annotators whose pairs' Cohen's κ printSummary lists (45 pairs): each pair
// costs a pass over the samples.
const maxPairs = 10

// printSummary writes agree's summary to w.
func printSummary(w io.Writer, p *annotate.Panel, s annotate.Summary, differ int) {
	names := p.Names()
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	fmt.Fprintf(w, "agree: %d annotators, %d samples\n", p.K(), s.N)
	for a, n := range names {
		fmt.Fprintf(w, "  %-*s  %d labelled\n", width, n, s.Labelled[a])
	}
	if s.Unlabelled > 0 {
		fmt.Fprintf(w, "  %d samples labelled by no one\n", s.Unlabelled)
	}
	if s.Compared == 0 {
		fmt.Fprintln(w, "raw agreement: no sample was labelled by two annotators")
	} else {
		fmt.Fprintf(w, "raw agreement: %s (%d of the %d samples labelled by two or more have one label; %d disagree)\n",
			percent(s.Raw), s.Agreeing, s.Compared, differ)
	}
	if p.K() == 2 && s.Cohen.N == 0 {
		fmt.Fprintln(w, "Cohen's κ: no sample was labelled by both annotators")
	} else if p.K() == 2 {
		fmt.Fprintf(w, "Cohen's κ: %s over the %d samples both labelled (observed %s, by chance %s)\n",
			kappaText(s.Cohen.Value), s.Cohen.N, percent(s.Cohen.Observed), percent(s.Cohen.Expected))
	} else {
		if s.Fleiss.N == 0 {
			fmt.Fprintln(w, "Fleiss' κ: no sample was labelled by every annotator")
		} else {
			fmt.Fprintf(w, "Fleiss' κ: %s over the %d samples every annotator labelled (observed %s, by chance %s)\n",
				kappaText(s.Fleiss.Value), s.Fleiss.N, percent(s.Fleiss.Observed), percent(s.Fleiss.Expected))
		}
		printPairs(w, p, width)
	}
	if len(p.Classes()) > annotate.MaxClassFigures {
		fmt.Fprintf(w, "per class: not listed for more than %d classes (%d given)\n", annotate.MaxClassFigures, len(p.Classes()))
	} else if len(s.Classes) > 0 {
		fmt.Fprintln(w, "per class: its labels, agreement (when one annotator gives it, how often another gives it too), the class most confused with it (annotator pairs)")
		for _, ca := range s.Classes {
			if ca.Given == 0 {
				continue // given only where no one else labelled the sample
			}
			conf := "never confused"
			if ca.Confused != annotate.NoLabel {
				conf = fmt.Sprintf("most confused with %d (%d)", ca.Confused, ca.ConfusedPairs)
			}
			fmt.Fprintf(w, "  %d: %s, agreement %s, %s\n", ca.Class, plural(int(ca.Given), "label"), percent(ca.Agreement), conf)
		}
	}
	if differ > 0 {
		fmt.Fprintf(w, "%d samples with differing labels listed on stdout\n", differ)
	}
}

// printPairs writes each pair's Cohen's κ (names padded to width), or, for more than maxPairs
// annotators, that they are not listed.
func printPairs(w io.Writer, p *annotate.Panel, width int) {
	names := p.Names()
	if p.K() > maxPairs {
		fmt.Fprintf(w, "Cohen's κ of each pair: not listed for more than %d annotators (%d pairs)\n", maxPairs, p.K()*(p.K()-1)/2)
		return
	}
	fmt.Fprintln(w, "Cohen's κ of each pair (over the samples both labelled):")
	for a := range p.K() {
		for b := a + 1; b < p.K(); b++ {
			if k := p.Cohen(a, b); k.N == 0 {
				fmt.Fprintf(w, "  %-*s  %-*s  no sample labelled by both\n", width, names[a], width, names[b])
			} else {
				fmt.Fprintf(w, "  %-*s  %-*s  %s over %d\n", width, names[a], width, names[b], kappaText(k.Value), k.N)
			}
		}
	}
}

// printEstimate writes what Dawid–Skene found to w.
func printEstimate(w io.Writer, p *annotate.Panel, est *annotate.Estimate) {
	state := "converged"
	if !est.Converged {
		state = "stopped before converging"
	}
	fmt.Fprintf(w, "weighted consensus (Dawid–Skene EM, %d iterations, %s); each annotator's estimated accuracy:\n", est.Iterations, state)
	width := 0
	for _, n := range p.Names() {
		width = max(width, len(n))
	}
	for a, n := range p.Names() {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, percent(est.Accuracy[a]))
	}
}

// writeConsensus writes the consensus labels to out atomically: rank 1, the dtype t of the first
// input when it holds every label, else the narrowest that does (int32 whenever a sample has no
// label, which int32 stores as −2147483648).
func writeConsensus(w io.Writer, out string, votes []annotate.Vote, t idx.DType, weighted bool) error {
	lo, hi := int64(0), int64(0)
	none := 0
	for _, v := range votes {
		if v.Label == annotate.NoLabel {
			none++
		}
		lo, hi = min(lo, int64(v.Label)), max(hi, int64(v.Label))
	}
	if a, b, _ := t.IntRange(); lo < a || hi > b || (none > 0 && t != idx.Int32) {
		for _, cand := range []idx.DType{idx.UByte, idx.SByte, idx.Int16, idx.Int32} {
			if a, b, _ := cand.IntRange(); a <= lo && hi <= b {
				t = cand
				break
			}
		}
	}
	arr, err := idx.New(t, len(votes))
	if err != nil {
		return err
	}
	for i, v := range votes {
		arr.SetInt(i, int64(v.Label))
	}
	atomicfile.RemoveStale(out, atomicfile.StaleAge)
	if err := idx.WriteFile(out, arr); err != nil {
		return err
	}
	how := "majority"
	if weighted {
		how = "weighted"
	}
	fmt.Fprintf(w, "consensus (%s): %d of %d samples labelled, %d without one → %s (%s)\n", how, len(votes)-none, len(votes), none, out, arr.Header)
	return nil
}

// percent formats a share as a percentage with two decimals ("n/a" for NaN).
func percent(v float64) string {
	if math.IsNaN(v) {
		return "n/a"
	}
	return strconv.FormatFloat(100*v, 'f', 2, 64) + "%"
}

// kappaText formats κ with four decimals, or says why it is undefined.
func kappaText(v float64) string {
	if math.IsNaN(v) {
		return "undefined (every label is one class: chance explains all agreement)"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}
