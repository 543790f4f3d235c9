package annotate

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
)

// DSOptions tunes Panel.DawidSkene; the zero value takes every default.
type DSOptions struct {
	// MaxIterations bounds the EM iterations (default 200).
	MaxIterations int
	// Tolerance: EM stops once no probability of the model (a confusion-matrix cell or a class
	// prior) moves by more in one iteration (default 1e-7).
	Tolerance float64
	// Smoothing is the pseudo-count added to every cell of each annotator's confusion matrix
	// and to every class of the prior before they are normalized (default 1, Laplace's
	// add-one): an annotator who never gave a class gets a small probability of giving it,
	// never 0, so no posterior is 0/0 and no logarithm −∞.
	Smoothing float64
}

// MaxDSClasses is the most classes DawidSkene estimates (its model holds k·C² probabilities
// and each pattern of labels costs k·C per iteration).
const MaxDSClasses = 256

// Estimate is the result of Dawid–Skene's EM: the labels it infers and the annotators' quality.
type Estimate struct {
	Classes []int32 // the classes, as Panel.Classes
	// Votes holds each sample's inferred label, the class of greatest posterior probability
	// (the smaller class on a tie; NoLabel for a sample nobody labelled), with how many
	// annotators gave it and how many labelled the sample.
	Votes []Vote
	// Confidence holds the posterior probability of each sample's label (0 for NoLabel).
	Confidence []float32
	// Accuracy holds each annotator's estimated accuracy: the expected share of its labels
	// that are the true class, under the final posteriors.
	Accuracy []float64
	// Confusion holds each annotator's confusion matrix, C×C row-major: Confusion[a][r·C+c] is
	// the probability that a gives class Classes[c] to a sample of true class Classes[r].
	Confusion [][]float64
	// Prior holds each class's estimated share of the samples.
	Prior []float64
	// Iterations is how many EM iterations ran; Converged whether the last moved no
	// probability by more than the tolerance.
	Iterations int
	Converged  bool
}

// DawidSkene estimates each annotator's confusion matrix and the samples' true labels together
// by expectation–maximization (Dawid & Skene 1979, "Maximum likelihood estimation of observer
// error-rates using the EM algorithm", Applied Statistics 28(1)): the true class of a sample is
// hidden; each annotator gives class c to a sample of true class r with probability π_a(r, c),
// independently of the others. EM starts from the vote shares (every annotator trusted
// alike), then alternates the posterior of each sample's class given the π's and the prior
// (E) with the π's and the prior that maximize the expected likelihood (M), smoothed
// (DSOptions.Smoothing). It works on the distinct patterns of labels (samples labelled alike
// share a posterior), so an iteration costs O(P·k·C) for P patterns; memory O(P·k + N + k·C²).
// The result is deterministic: no randomness, sums in a fixed order. Errors: more than
// MaxDSClasses classes; ctx's error when it is cancelled (checked between iterations).
func (p *Panel) DawidSkene(ctx context.Context, o DSOptions) (*Estimate, error) {
	C, k := len(p.classes), p.k
	if C > MaxDSClasses {
		return nil, fmt.Errorf("annotate: %d classes; Dawid–Skene estimates at most %d", C, MaxDSClasses)
	}
	if o.MaxIterations <= 0 {
		o.MaxIterations = 200
	}
	if o.Tolerance <= 0 {
		o.Tolerance = 1e-7
	}
	if o.Smoothing <= 0 {
		o.Smoothing = 1
	}
	pat := p.patterns()
	est := &Estimate{Classes: p.classes, Votes: make([]Vote, p.n), Confidence: make([]float32, p.n), Accuracy: make([]float64, k)}
	if C == 0 {
		for i := range est.Votes {
			est.Votes[i].Label = NoLabel
		}
		est.Converged = true
		return est, nil
	}
	m := newDSModel(k, C)
	// The first M step, from the vote shares.
	acc := newDSModel(k, C)
	post := make([]float64, C)
	for q := range pat.count {
		row := pat.row(q)
		clear(post)
		var labelled float64
		for _, c := range row {
			if c >= 0 {
				post[c]++
				labelled++
			}
		}
		for j := range post {
			post[j] /= labelled
		}
		acc.add(row, post, pat.count[q])
	}
	m.from(acc, o.Smoothing)
	next := newDSModel(k, C)
	for est.Iterations < o.MaxIterations {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		acc.zero()
		m.logs()
		for q := range pat.count {
			row := pat.row(q)
			m.posterior(row, post)
			acc.add(row, post, pat.count[q])
		}
		next.from(acc, o.Smoothing)
		est.Iterations++
		moved := next.distance(m)
		m, next = next, m
		if moved <= o.Tolerance {
			est.Converged = true
			break
		}
	}
	// The labels, from the final model.
	m.logs()
	label := make([]int32, len(pat.count))
	conf := make([]float32, len(pat.count))
	right := make([]float64, k) // expected labels of a that are the true class
	given := make([]float64, k)
	for q := range pat.count {
		row := pat.row(q)
		m.posterior(row, post)
		best := 0
		for j := range post {
			if post[j] > post[best] {
				best = j
			}
		}
		label[q], conf[q] = int32(best), float32(post[best])
		for a, c := range row {
			if c >= 0 {
				right[a] += pat.count[q] * post[c]
				given[a] += pat.count[q]
			}
		}
	}
	for a := range k {
		est.Accuracy[a] = math.NaN()
		if given[a] > 0 {
			est.Accuracy[a] = right[a] / given[a]
		}
	}
	for i, q := range pat.of {
		if q < 0 {
			est.Votes[i] = Vote{Label: NoLabel}
			continue
		}
		c := label[q]
		v, n := p.votesFor(i, c)
		est.Votes[i] = Vote{Label: p.classes[c], Votes: v, Annotators: n}
		est.Confidence[i] = conf[q]
	}
	est.Prior = m.prior
	for a := range k {
		est.Confusion = append(est.Confusion, m.pi[a*C*C:(a+1)*C*C])
	}
	return est, nil
}

// dsPatterns are a panel's distinct rows of labels: row q of codes (k of them, −1 none) was
// given to count[q] samples; of[i] is sample i's pattern, −1 when nobody labelled it.
type dsPatterns struct {
	k     int
	codes []int32
	count []float64
	of    []int32
}

func (d *dsPatterns) row(q int) []int32 { return d.codes[q*d.k : (q+1)*d.k] }

// patterns groups the panel's samples by their row of labels, in order of first appearance.
func (p *Panel) patterns() *dsPatterns {
	d := &dsPatterns{k: p.k, of: make([]int32, p.n)}
	ids := map[string]int32{}
	key := make([]byte, 4*p.k)
	for i := range p.n {
		row := p.row(i)
		labelled := false
		for _, c := range row {
			labelled = labelled || c >= 0
		}
		if !labelled {
			d.of[i] = -1
			continue
		}
		for a, c := range row {
			binary.LittleEndian.PutUint32(key[4*a:], uint32(c))
		}
		q, ok := ids[string(key)] // no allocation for a lookup
		if !ok {
			q = int32(len(d.count))
			ids[string(key)] = q
			d.codes = append(d.codes, row...)
			d.count = append(d.count, 0)
		}
		d.count[q]++
		d.of[i] = q
	}
	return d
}

// dsModel is Dawid–Skene's parameters, or (as an accumulator) the expected counts they are
// estimated from: pi[a·C·C + r·C + c] for annotator a giving c to true class r, prior[r].
type dsModel struct {
	k, C  int
	pi    []float64
	prior []float64
	logPi []float64 // logs: logPi[a·C·C + c·C + r], given class first so one label's row is contiguous
	logPr []float64
}

func newDSModel(k, C int) *dsModel {
	return &dsModel{k: k, C: C, pi: make([]float64, k*C*C), prior: make([]float64, C)}
}

func (m *dsModel) zero() {
	clear(m.pi)
	clear(m.prior)
}

// add accumulates a pattern of labels (row) given to w samples with posterior post.
func (m *dsModel) add(row []int32, post []float64, w float64) {
	C := m.C
	for r, t := range post {
		m.prior[r] += w * t
	}
	for a, c := range row {
		if c < 0 {
			continue
		}
		base := a*C*C + int(c)
		for r, t := range post {
			m.pi[base+r*C] += w * t
		}
	}
}

// from sets m to the smoothed, normalized counts of acc (the M step).
func (m *dsModel) from(acc *dsModel, alpha float64) {
	C := m.C
	var total float64
	for _, v := range acc.prior {
		total += v + alpha
	}
	for r, v := range acc.prior {
		m.prior[r] = (v + alpha) / total
	}
	for a := range m.k {
		for r := range C {
			row := acc.pi[a*C*C+r*C : a*C*C+(r+1)*C]
			var sum float64
			for _, v := range row {
				sum += v + alpha
			}
			out := m.pi[a*C*C+r*C : a*C*C+(r+1)*C]
			for c, v := range row {
				out[c] = (v + alpha) / sum
			}
		}
	}
}

// logs computes the logarithms posterior reads.
func (m *dsModel) logs() {
	C := m.C
	if m.logPi == nil {
		m.logPi = make([]float64, len(m.pi))
		m.logPr = make([]float64, C)
	}
	for r, v := range m.prior {
		m.logPr[r] = math.Log(v)
	}
	for a := range m.k {
		for r := range C {
			for c := range C {
				m.logPi[a*C*C+c*C+r] = math.Log(m.pi[a*C*C+r*C+c])
			}
		}
	}
}

// posterior writes into post the probability of each true class given a pattern of labels
// (the E step; m.logs called since m last changed).
func (m *dsModel) posterior(row []int32, post []float64) {
	C := m.C
	copy(post, m.logPr)
	for a, c := range row {
		if c < 0 {
			continue
		}
		l := m.logPi[a*C*C+int(c)*C : a*C*C+(int(c)+1)*C]
		for r := range post {
			post[r] += l[r]
		}
	}
	top := math.Inf(-1)
	for _, v := range post {
		top = max(top, v)
	}
	var sum float64
	for r, v := range post {
		post[r] = math.Exp(v - top)
		sum += post[r]
	}
	for r := range post {
		post[r] /= sum
	}
}

// distance returns the largest difference between two models' probabilities.
func (m *dsModel) distance(o *dsModel) float64 {
	var d float64
	for i, v := range m.pi {
		d = max(d, math.Abs(v-o.pi[i]))
	}
	for i, v := range m.prior {
		d = max(d, math.Abs(v-o.prior[i]))
	}
	return d
}
