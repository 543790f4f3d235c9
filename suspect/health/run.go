package health

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"

	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/neardup"
	"idxlabel/suspect/nn"
	"idxlabel/suspect/outlier"
)

// Options tune Run. The zero value runs every kind that applies with the defaults.
type Options struct {
	// Kinds to run (nil: every kind that applies: Label and Outlier's CNN features only with
	// labels, Leak only with another set).
	Kinds []Kind
	// Scan is a finished CNN scan of the same samples to reuse (its Suspects, Probs and
	// Features); nil runs suspect.ScanCNN with CNN when a kind needs it.
	Scan *suspect.CNNResult
	CNN  suspect.CNNOptions
	// ScanCNN runs the CNN scan when Scan is nil and a kind needs it (nil: suspect.ScanCNN):
	// where a caller puts the scan cache in front of it (scancache.Scanner).
	ScanCNN func(ctx context.Context, d sample.Set, opts suspect.CNNOptions, progress func(suspect.Progress)) (*suspect.CNNResult, error)
	// Threshold is the similarity at or above which Duplicate and Leak report a pair (default
	// neardup.DefaultThreshold).
	Threshold float64
	// Top bounds the findings kept per kind, most severe first (0: all).
	Top     int
	Workers int // goroutines (default runtime.NumCPU())
	// Index tunes the neighbour indexes (nn.NewIndex; exact below nn.ExactBelow samples).
	Index nn.IndexOptions
}

// Progress reports how far a run is: the kind being computed, its stage, and the share of
// that stage done (0–1). During the CNN scan (Kind Label, Stage "scan") CNN holds the scan's
// own report.
type Progress struct {
	Kind  Kind
	Stage string
	Done  float64
	CNN   *suspect.Progress
}

// Result is a run's outcome.
type Result struct {
	Kinds    []Kind             // the kinds run, in list order
	Findings map[Kind][]Finding // each kind's findings, most severe first (at most Options.Top)
	// Flagged counts each kind's findings that pass its bar (Finding.Flagged), however many
	// Top keeps.
	Flagged map[Kind]int
	Scan    *suspect.CNNResult // the CNN scan used (nil when none ran)
}

// FlagLabel is the Label score from which a sample counts as flagged when its suggestion is
// another class (Finding.Flagged): the model gives its given label a probability of one half or
// less (suspect.DoubtScore).
const FlagLabel = suspect.DoubtScore

// FlagOutlier is the Outlier score at or above which a sample counts as flagged. On MNIST's
// t10k with 30 planted non-digits (six seeds) it flagged 22–26 of them and 0–2 real digits; on
// the real t10k 2 samples (bench/check/README.md): a bar for "surely not a digit", not for
// "worth a look" (the ranking is).
const FlagOutlier = 6.0

// ErrNoLabels: the Label kind was asked for a set without labels.
var ErrNoLabels = errors.New("the label kind needs labels (a label file)")

// ErrNoOther: the Leak kind was asked without another set.
var ErrNoOther = errors.New("the leak kind needs another set to check against")

// Run checks d (and against, for Leak; may be nil) and returns each kind's findings. A CNN scan
// it runs keeps each group of near-copies (neardup.Within, found first whatever the kinds) in
// one fold, so their out-of-fold probabilities are out of fold (opts.CNN.Groups, when set,
// wins). The
// quick kinds run first and are handed to found (may be nil) as soon as each is done, before
// the CNN scan starts: Duplicate, Leak, then Label and Outlier. Pairs handed over before the
// scan have Suggested sample.NoLabel; the Result's have the scan's suggestions. Run never changes a
// slice once it has handed it to found. progress (may be nil) is called
// from Run's goroutines, one call at a time. Growth: the CNN scan's, and near-linear in N for
// the others (nn.Index). Errors: ErrNoLabels, ErrNoOther, samples of different sizes, the
// models' errors, or the context's error when cancelled.
func Run(ctx context.Context, d sample.Set, against *sample.Set, opts Options, progress func(Progress), found func(Kind, []Finding)) (*Result, error) {
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	opts.Index.Workers = opts.Workers
	labelled := slices.ContainsFunc(d.Labels, func(l int) bool { return l != sample.NoLabel })
	kinds := opts.Kinds
	if kinds == nil {
		for _, k := range Kinds {
			if (k != Label || labelled) && (k != Leak || against != nil) {
				kinds = append(kinds, k)
			}
		}
	}
	switch {
	case slices.Contains(kinds, Label) && !labelled:
		return nil, ErrNoLabels
	case slices.Contains(kinds, Leak) && against == nil:
		return nil, ErrNoOther
	}
	report := func(k Kind, stage string) func(float64) {
		return func(f float64) {
			if progress != nil {
				progress(Progress{Kind: k, Stage: stage, Done: f})
			}
		}
	}
	res := &Result{Kinds: kinds, Findings: map[Kind][]Finding{}, Flagged: map[Kind]int{}, Scan: opts.Scan}
	deliver := func(k Kind, list []Finding, flagged int) {
		if opts.Top > 0 && len(list) > opts.Top {
			list = list[:opts.Top]
		}
		res.Findings[k], res.Flagged[k] = list, flagged
		if found != nil {
			found(k, list)
		}
	}
	needScan := slices.Contains(kinds, Label) || slices.Contains(kinds, Outlier) && labelled
	// The pixel descriptors serve the duplicates (also the groups of near-copies a scan keeps
	// in one fold), the leakage and the outliers.
	var basis *neardup.Basis
	var desc *neardup.Descriptors
	if slices.ContainsFunc(kinds, func(k Kind) bool { return k != Label }) || needScan && opts.Scan == nil {
		first := Outlier // the first kind that uses them, in run order
		if !slices.Contains(kinds, Outlier) {
			first = Label
		}
		for _, k := range []Kind{Leak, Duplicate} {
			if slices.Contains(kinds, k) {
				first = k
			}
		}
		var err error
		if basis, err = neardup.FitBasis(ctx, d, 1); err != nil {
			return nil, err
		}
		if desc, err = basis.Describe(ctx, d, opts.Workers, report(first, "describe")); err != nil {
			return nil, err
		}
	}
	pairOpts := func(k Kind) neardup.Options {
		return neardup.Options{Threshold: opts.Threshold, Workers: opts.Workers, Index: opts.Index,
			Progress: func(stage string, f float64) { report(k, stage)(f) }}
	}
	// suggested is filled once a scan exists; pairs found before it get sample.NoLabel.
	suggested := func(i int) int { return sample.NoLabel }
	setScan := func(s *suspect.CNNResult) {
		res.Scan = s
		nc := len(s.Classes)
		suggested = func(i int) int {
			p := s.Probs[i*nc : (i+1)*nc]
			best := 0
			for c := range p {
				if p[c] > p[best] {
					best = c
				}
			}
			return s.Classes[best]
		}
	}
	if s := opts.Scan; s != nil {
		if len(s.Classes) == 0 || len(s.Probs) != d.N*len(s.Classes) || len(s.Features) != d.N*cnn.Features {
			return nil, fmt.Errorf("the scan given is not of these %d samples", d.N)
		}
		setScan(s)
	}
	label := func(i int) int {
		if d.Labels == nil {
			return sample.NoLabel
		}
		return d.Labels[i]
	}
	pairs := func(k Kind, list []neardup.Pair) []Finding {
		out := make([]Finding, len(list))
		for m, p := range list {
			out[m] = Finding{Kind: k, Index: p.A, Other: p.B, Label: label(p.A), Suggested: suggested(p.A), Score: p.Similarity, Uniqueness: p.Uniqueness}
		}
		return out
	}
	var groups []int32 // the near-copies' groups, for the scan's folds
	if slices.Contains(kinds, Duplicate) || needScan && opts.Scan == nil {
		k := Duplicate
		if !slices.Contains(kinds, Duplicate) {
			k = Label
		}
		list, err := neardup.Within(ctx, d, desc, pairOpts(k))
		if err != nil {
			return nil, err
		}
		groups = neardup.GroupIDs(list, d.N)
		if k == Duplicate {
			deliver(Duplicate, pairs(Duplicate, list), len(list))
		}
	}
	if slices.Contains(kinds, Leak) {
		od, err := basis.Describe(ctx, *against, opts.Workers, report(Leak, "describe"))
		if err != nil {
			return nil, fmt.Errorf("the other set: %w", err)
		}
		list, err := neardup.Across(ctx, d, desc, *against, od, pairOpts(Leak))
		if err != nil {
			return nil, err
		}
		deliver(Leak, pairs(Leak, list), len(list))
	}
	// The outliers' pixel detectors run before the scan, so that the descriptors (N×48) can go
	// before the scan's features (N×128) are made: the two are never held at once.
	var scorer *outlier.Scorer
	if slices.Contains(kinds, Outlier) {
		var err error
		if scorer, err = outlier.NewScorer(d.N, outlier.Options{Workers: opts.Workers, Index: opts.Index,
			Progress: func(stage string, f float64) { report(Outlier, stage)(f) }}); err != nil {
			return nil, err
		}
		if err := scorer.AddStats(ctx, d); err != nil {
			return nil, err
		}
		if err := scorer.AddEmbedding(ctx, desc.Vectors); err != nil {
			return nil, err
		}
	}
	basis, desc = nil, nil
	if needScan && res.Scan == nil {
		cnnOpts := opts.CNN
		if cnnOpts.Groups == nil {
			cnnOpts.Groups = groups
		}
		scan := opts.ScanCNN
		if scan == nil {
			scan = suspect.ScanCNN
		}
		s, err := scan(ctx, d, cnnOpts, func(p suspect.Progress) {
			if progress != nil {
				progress(Progress{Kind: Label, Stage: "scan", Done: p.Done, CNN: &p})
			}
		})
		if err != nil {
			return nil, err
		}
		setScan(s)
		// The pairs delivered before the scan get its suggestions in the result.
		// (new slices: found's callers may still be reading the old ones).
		for _, k := range []Kind{Duplicate, Leak} {
			list := slices.Clone(res.Findings[k])
			for m := range list {
				list[m].Suggested = suggested(list[m].Index)
			}
			res.Findings[k] = list
		}
	}
	if slices.Contains(kinds, Label) {
		list := make([]Finding, len(res.Scan.Suspects))
		flagged := 0
		for m, s := range res.Scan.Suspects {
			list[m] = Finding{Kind: Label, Index: s.Index, Other: -1, Label: s.Label, Suggested: s.Suggested, Score: s.Score}
			if list[m].Flagged() {
				flagged++
			}
		}
		deliver(Label, list, flagged)
	}
	if slices.Contains(kinds, Outlier) {
		if res.Scan != nil {
			if err := scorer.AddEmbedding(ctx, nn.Vectors{Data: res.Scan.Features, N: d.N, Dim: cnn.Features}); err != nil {
				return nil, err
			}
		}
		score := scorer.Scores()
		order := outlier.Rank(score)
		list := make([]Finding, len(order))
		flagged := 0
		for m, i := range order {
			list[m] = Finding{Kind: Outlier, Index: i, Other: -1, Label: label(i), Suggested: suggested(i), Score: score[i]}
			if list[m].Flagged() {
				flagged++
			}
		}
		deliver(Outlier, list, flagged)
	}
	return res, nil
}
