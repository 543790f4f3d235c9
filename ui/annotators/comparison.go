package annotators

import (
	"fmt"
	"math"
	"slices"

	"idxlabel/annotate"
	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
)

// Comparison is the open labels compared with other annotators' labels of the same N samples:
// the annotators' names (Names[0] names the open labels), the other annotators' columns, read
// once and never changed (read-only: the window edits only its own labels), and the samples
// where the labels differed when it was made (Order, increasing). A sample's majority is not
// kept: it is counted from its votes as they are (Vote), the open label as adjudicated being one.
// Memory: 4 bytes a sample for each other annotator, 8 bytes a disagreement (the list is made
// once, O(N·k)); nothing of it changes per key.
type Comparison struct {
	Names  []string
	Others [][]int32
	N      int
	Order  []int
}

// Compare compares open (the window's labels, one a sample: annotate.NoLabel for none) with
// others (each one annotator's column of as many labels) and returns the comparison and its
// figures. openName names the open labels. O(N·k·log k) time. Errors: annotate.NewPanel's
// (columns of other lengths, *annotate.CountError).
func Compare(open []int32, openName string, others []annotate.Column) (*Comparison, Figures, error) {
	cols := append([]annotate.Column{{Name: openName, Labels: open}}, others...)
	p, err := annotate.NewPanel(cols)
	if err != nil {
		return nil, Figures{}, err
	}
	cmp := &Comparison{N: len(open)}
	for _, c := range cols {
		cmp.Names = append(cmp.Names, c.Name)
	}
	for _, c := range others {
		cmp.Others = append(cmp.Others, c.Labels)
	}
	cmp.Order = p.Disagreements()
	return cmp, figuresOf(p, [2]int{0, 1}), nil
}

// With returns the comparison of open with these annotators and the one more (an annotator
// added: its list made again). Errors: Compare's.
func (cmp *Comparison) With(open []int32, more annotate.Column) (*Comparison, Figures, error) {
	others := make([]annotate.Column, 0, len(cmp.Others)+1)
	for a, l := range cmp.Others {
		others = append(others, annotate.Column{Name: cmp.Names[a+1], Labels: l})
	}
	return Compare(open, cmp.Names[0], append(others, more))
}

// Label returns annotator a's label of sample i (a ≥ 1: Others[a−1]; annotator 0, the open
// labels, is the window's to read).
func (cmp *Comparison) Label(i, a int) int32 { return cmp.Others[a-1][i] }

// Vote returns sample i's majority (annotate.MajorityOf's rule) over its votes now: open, the
// open label as it is now (adjudicated or not: an adjudication is the open annotator's vote;
// annotate.NoLabel for none), and every other annotator's label. O(k log k) for k annotators.
func (cmp *Comparison) Vote(i int, open int32) annotate.Vote {
	labels := make([]int32, 0, 1+len(cmp.Others))
	labels = append(labels, open)
	for _, col := range cmp.Others {
		labels = append(labels, col[i])
	}
	return annotate.MajorityOf(labels)
}

// Figures returns the agreement of the annotators with the open labels as they are now (open,
// one a sample; they change as the person adjudicates), and the confusion matrix of the
// annotators pair (two numbers of annotators, 0 the open labels). O(N·k·log k + C²) time,
// 4·N·k bytes.
func (cmp *Comparison) Figures(open []int32, pair [2]int) (Figures, error) {
	cols := []annotate.Column{{Name: cmp.Names[0], Labels: open}}
	for a, l := range cmp.Others {
		cols = append(cols, annotate.Column{Name: cmp.Names[a+1], Labels: l})
	}
	p, err := annotate.NewPanel(cols)
	if err != nil {
		return Figures{}, err
	}
	return figuresOf(p, pair), nil
}

// Renumbered returns the comparison after a save that renumbered the samples (to maps each old
// number to the new one, −1 for a sample the save left out): the other annotators' labels of
// the samples kept, the list without those left out. O(N).
func (cmp *Comparison) Renumbered(to []int) *Comparison {
	out := &Comparison{Names: cmp.Names}
	kept := 0
	for i := 0; i < cmp.N && i < len(to); i++ {
		if to[i] >= 0 {
			kept++
		}
	}
	out.N = kept
	for _, col := range cmp.Others {
		nc := make([]int32, kept)
		for i := 0; i < cmp.N && i < len(to); i++ {
			if k := to[i]; k >= 0 && k < kept {
				nc[k] = col[i]
			}
		}
		out.Others = append(out.Others, nc)
	}
	for _, i := range cmp.Order {
		if i < len(to) && to[i] >= 0 && to[i] < kept {
			out.Order = append(out.Order, to[i])
		}
	}
	return out
}

// Figures are the annotators' agreement: the summary of every annotator's labels (raw agreement,
// Cohen's κ for two, Fleiss' κ for more, the samples they are over), each other annotator's
// agreement with the open labels (WithOpen[a−1] for annotator a: its Observed is the share of
// the samples both labelled given one class, its Value Cohen's κ), and the confusion matrix of
// two annotators (Pair: rows Pair[0]'s labels, columns Pair[1]'s; Table nil when it has more
// than annotate.MaxConfusionClasses classes).
type Figures struct {
	Summary  annotate.Summary
	WithOpen []annotate.Kappa
	Pair     [2]int
	Table    *annotate.Confusion
}

// figuresOf is p's figures, with the confusion matrix of pair (annotators of p; 0 the open labels).
func figuresOf(p *annotate.Panel, pair [2]int) Figures {
	f := Figures{Summary: p.Summary(), Pair: pair}
	for a := 1; a < p.K(); a++ {
		f.WithOpen = append(f.WithOpen, p.Cohen(0, a))
	}
	if pair[0] >= 0 && pair[1] >= 0 && pair[0] < p.K() && pair[1] < p.K() {
		f.Table, _ = p.Confusion(pair[0], pair[1]) // nil past MaxConfusionClasses: no chart
	}
	return f
}

// Line is the figures in a few words for the status bar: "2 annotators: 97.31% agree (9,731 of
// 10,000), Cohen's κ 0.9620 over 10,000 samples": the raw agreement over the samples two or more
// labelled, then Cohen's κ of two over the samples both labelled, or Fleiss' κ of three or more
// over the samples every one labelled.
func (f Figures) Line() string {
	s := f.Summary
	k := len(s.Labelled)
	kind, kappa := "Cohen's", s.Cohen
	if k > 2 {
		kind, kappa = "Fleiss'", s.Fleiss
	}
	return fmt.Sprintf("%d annotators: %s agree (%s), %s κ %s over %s",
		k, percent(s.Raw), numfmt.Sprintf("%d of %d", s.Agreeing, s.Compared), kind, three(kappa.Value), numfmt.Plural(kappa.N, "sample"))
}

// percent writes a share as "97.31%" ("–" for NaN: nothing to compare): two decimals, so 5
// disagreements among 10,000 samples read 99.95%, not 100.0%.
func percent(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.2f%%", 100*x)
}

// three writes κ to four decimals (a few disagreements among 10,000 samples still show) ("–" for NaN: undefined).
func three(x float64) string {
	if math.IsNaN(x) {
		return "–"
	}
	return fmt.Sprintf("%.4f", x)
}

// nameFor is the name an annotator's file path is shown by: its base name as the window shows
// a file's name (clip.Name), or the path (clip.Printable) when an annotator already compared has
// that name (as `idxlabel agree` names clashing files).
func nameFor(taken []string, path string) string {
	b := clip.Name(path)
	if slices.Contains(taken, b) {
		return clip.Printable(path)
	}
	return b
}
