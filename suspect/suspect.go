package suspect

import (
	"context"
	"fmt"
	"runtime"
	"slices"

	"idxlabel/sample"
	"idxlabel/suspect/nn"
)

// Options tune the scan. The zero value takes the defaults.
type Options struct {
	K          int    // neighbours per sample (default 10)
	Dims       int    // principal components kept (default 50)
	PCASamples int    // samples the principal axes are estimated from (default 5,000)
	Workers    int    // goroutines (default runtime.NumCPU())
	Seed       uint64 // for the PCA sample (default fixed, so runs repeat)
}

func (o Options) withDefaults() Options {
	if o.K <= 0 {
		o.K = 10
	}
	if o.Dims <= 0 {
		o.Dims = 50
	}
	if o.PCASamples <= 0 {
		o.PCASamples = 5000
	}
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	if o.Seed == 0 {
		o.Seed = 2049
	}
	return o
}

// Suspect is one sample's verdict.
type Suspect struct {
	Index     int // sample index, 0-based in file order
	Label     int // its label
	Suggested int // the label most of its neighbours have (its own when they agree)
	// Score estimates the probability that Label is wrong, 0–1. kNN: the distance-weighted share
	// of neighbours that disagree; CNN: 1 − the out-of-fold probability of Label.
	Score float64
	// Support ranks ties in Score, higher first. kNN: the distance-weighted share of neighbours
	// that have Suggested; CNN: the highest probability of a class other than Label.
	Support float64
	// Confidence is how sure the method is of Suggested, 0–1. kNN: Support; CNN: its probability.
	Confidence float64
}

// DoubtScore is the Score from which a Suspect whose suggestion is another class counts as a
// likely label error (Doubted): its label is more probably wrong than right.
const DoubtScore = 0.5

// Doubted reports whether s is a likely label error: Score at least DoubtScore and a suggestion
// other than its label. A sample whose label is still its most probable class, or tied with
// the most probable, though below one half (three classes near a third each), is not doubted:
// the method has no other label to offer, only uncertainty. This is the one rule that decides
// which samples a review of suspects lists.
func (s Suspect) Doubted() bool { return s.Score >= DoubtScore && s.Suggested != s.Label }

// Result is a scan's outcome.
type Result struct {
	Suspects   []Suspect // every labelled sample, most suspicious first (ties: lower index first)
	neighbours *nn.Graph
}

// Neighbours returns sample i's nearest other samples, nearest first.
func (r *Result) Neighbours(i int) []int {
	var out []int
	idx, _ := r.neighbours.Of(i)
	for _, j := range idx {
		if j >= 0 {
			out = append(out, int(j))
		}
	}
	return out
}

// Scan ranks every labelled sample by how likely its label is wrong (near-duplicates are
// suspect/neardup's).
// progress (may be nil) is called from the scan's goroutines with a stage name and the share
// done (0–1). Errors: fewer than 2 samples, pixels of the wrong length, the context's error when
// cancelled, or a PCA that does not converge.
func Scan(ctx context.Context, d sample.Set, opts Options, progress func(stage string, done float64)) (*Result, error) {
	opts = opts.withDefaults()
	if d.N < 2 {
		return nil, fmt.Errorf("suspects need at least 2 samples, the dataset has %d", d.N)
	}
	if len(d.Labels) != d.N {
		return nil, fmt.Errorf("%d labels for %d samples", len(d.Labels), d.N)
	}
	if got := len(d.Pixels(0)); got != d.Dim() {
		return nil, fmt.Errorf("samples have %d pixels, not %d", got, d.Dim())
	}
	report := func(stage string, f float64) {
		if progress != nil {
			progress(stage, f)
		}
	}
	report("principal components", 0)
	p, err := fitPCA(ctx, d, opts.Dims, opts.PCASamples, opts.Seed)
	if err != nil {
		return nil, err
	}
	feats, err := p.project(ctx, d, opts.Workers, func(done float64) { report("projecting", done) })
	if err != nil {
		return nil, err
	}
	k := min(opts.K, d.N-1)
	nb, err := nn.Among(ctx, nn.Vectors{Data: feats, N: d.N, Dim: p.dims}, nil, k,
		nn.Options{Workers: opts.Workers, Progress: func(f float64) { report("neighbours", f) }})
	feats = nil
	if err != nil {
		return nil, err
	}
	res := &Result{neighbours: nb, Suspects: vote(d.Labels, nb)}
	report("done", 1)
	return res, nil
}

// vote scores every labelled sample from its neighbours' labels, weighting each neighbour by
// 1/(1+distance/median distance) so close neighbours count more, and sorts most suspicious first
// (equal scores: the more neighbours agree on another label, the more suspicious).
func vote(labels []int, nb *nn.Graph) []Suspect {
	// The median nearest-neighbour distance sets the scale of the weights.
	firsts := make([]float32, 0, len(labels))
	for i := range labels {
		if _, dist := nb.Of(i); dist[0] < 1e30 {
			firsts = append(firsts, dist[0])
		}
	}
	slices.Sort(firsts)
	scale := float64(1)
	if len(firsts) > 0 && firsts[len(firsts)/2] > 0 {
		scale = float64(firsts[len(firsts)/2])
	}
	out := make([]Suspect, 0, len(labels))
	votes := map[int]float64{}
	for i, l := range labels {
		if l == sample.NoLabel {
			continue
		}
		clear(votes)
		var total float64
		idx, dist := nb.Of(i)
		for m, j := range idx {
			if j < 0 || labels[j] == sample.NoLabel {
				continue
			}
			w := 1 / (1 + float64(dist[m])/scale)
			votes[labels[j]] += w
			total += w
		}
		s := Suspect{Index: i, Label: l, Suggested: l}
		best := votes[l]
		for c, v := range votes {
			if v > best || v == best && c < s.Suggested && c != l && v > votes[l] {
				best, s.Suggested = v, c
			}
		}
		if total > 0 {
			s.Score = 1 - votes[l]/total
			s.Support = votes[s.Suggested] / total
			s.Confidence = s.Support
		}
		out = append(out, s)
	}
	sortSuspects(out)
	return out
}

func cmpDesc(a, b float64) int {
	if a > b {
		return -1
	}
	return 1
}
