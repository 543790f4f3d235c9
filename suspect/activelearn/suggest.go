package activelearn

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"sync"

	"idxlabel/sample"
	"idxlabel/suspect"
)

// Suggest suggests a label for every sample of d without one (d.Labels, sample.NoLabel for
// none; opts.Accepted marks the labels that are accepted suggestions), most confident first
// (ties: lower index first): Space.Refine on d's space. The space is computed once for a
// dataset's pixels and seed and kept for the calls after (see spaceOf). Errors: those of
// NewSpace and Space.Refine.
func Suggest(ctx context.Context, d sample.Set, opts Options) ([]Suggestion, error) {
	if _, err := learning(d.Labels, d.N, opts.withDefaults()); err != nil {
		return nil, err
	}
	s, err := spaceOf(ctx, d, opts)
	if err != nil {
		return nil, err
	}
	r, err := s.Refine(ctx, d, d.Labels, opts)
	if err != nil {
		return nil, err
	}
	return r.List, nil
}

// spaces holds the space the last call of Ask or Suggest computed, under the SHA-256 of the
// samples' size, pixels and the seed: the calls of one round (an ask, then suggestions) and
// the rounds after compute it once. One space is kept (O(N·k) memory); a key costs a pass over
// the pixels (about 1 s per 1,000,000 MNIST samples).
var spaces struct {
	sync.Mutex
	key   [32]byte
	space *Space
}

// spaceOf returns d's space with opts: the kept one when its key matches, else a new one
// (NewSpace), kept in its place.
func spaceOf(ctx context.Context, d sample.Set, opts Options) (*Space, error) {
	o := opts.withDefaults()
	h := sha256.New()
	fmt.Fprintf(h, "activelearn space n=%d h=%d w=%d seed=%d\n", d.N, d.H, d.W, o.Seed)
	for i := range d.N {
		h.Write(d.Pixels(i))
	}
	var key [32]byte
	h.Sum(key[:0])
	spaces.Lock()
	s := spaces.space
	hit := s != nil && spaces.key == key
	spaces.Unlock()
	if hit {
		return s, nil
	}
	s, err := NewSpace(ctx, d, opts)
	if err != nil {
		return nil, err
	}
	spaces.Lock()
	spaces.key, spaces.space = key, s
	spaces.Unlock()
	return s, nil
}

// temperature is suspect.FitTemperature on the held-out typed labels y and their probabilities
// p (len(y)×classes), each row first mixed with 2% of the uniform distribution, so that one
// held-out label given a probability near 0 cannot pull the fit to the highest temperature
// (measured on t10k with 20 labels: the spread's fit went to 50, every confidence 0.11). When
// every held-out label is predicted right the likelihood only grows as the probabilities
// sharpen, down to the smallest temperature, so instead the temperature is the one that makes
// their mean confidence (m+½)/(m+1) for m labels (the posterior mean of the accuracy after m
// right of m under Jeffreys' prior, Beta(½, ½); Laplace's rule of succession, (m+1)/(m+2), put
// the suggestions of six generated shapes, every one right, at 94% from 15 held-out labels).
func temperature(p []float32, y []int, classes int) float64 {
	mixed := make([]float32, len(p))
	for i, v := range p {
		mixed[i] = (1-fitFloor)*v + fitFloor/float32(classes)
	}
	t := suspect.FitTemperature(mixed, y, classes)
	for k, c := range y {
		if argmax(p[k*classes:(k+1)*classes]) != c {
			return t
		}
	}
	target := (float64(len(y)) + 0.5) / float64(len(y)+1)
	q := make([]float32, len(p))
	mean := func(t float64) float64 {
		copy(q, p)
		suspect.Temper(q, classes, t)
		var sum float64
		for k := range y {
			row := q[k*classes : (k+1)*classes]
			sum += float64(row[argmax(row)])
		}
		return sum / float64(len(y))
	}
	// The mean confidence falls as the temperature rises: bisect on its logarithm.
	lo, hi := minTemperature, maxTemperature
	for range 40 {
		mid := math.Sqrt(lo * hi)
		if mean(mid) > target {
			lo = mid
		} else {
			hi = mid
		}
	}
	return math.Sqrt(lo * hi)
}

// fitFloor is the share of the uniform distribution mixed into the probabilities a temperature
// is fitted to.
const fitFloor = 0.02

// The range of temperatures searched when every held-out label is right (suspect's bounds).
const (
	minTemperature = 0.05
	maxTemperature = 50.0
)
