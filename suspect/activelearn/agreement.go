package activelearn

import (
	"slices"
	"sort"
)

// Calibration by agreement: a refined suggestion's confidence is the accuracy that the
// calibration networks' votes for its class say among the samples of about the same raw
// confidence. Each calibration network learns without a quarter of the typed labels, from a
// spreading of the others, so its vote is a second opinion on every sample, though not an
// independent one. Typed labels are a poor sample to calibrate on where the suggestions are
// unsure: the asks pick typical samples first and the least sure ones after, not a random
// share of the rest, and 100 of them fix a curve only so well. Fitted to them (temperature,
// then Platt; see Calibration), the samples left below 0.95 on MNIST's t10k were 70–97%
// right at mean confidences 80–90%, off by up to 10 points either way from run to run
// (bench/suggest, 3 seeds, 50 to 200 labels); the votes track those swings (on the same
// samples, 77–97% of them for the suggestion), but overstate the accuracy where the networks
// err together (they all learn spread labels): the share of those samples wrong was 0.9–1.6
// times the share of votes against. agreementKappa counts 1.5 times (chosen on t10k seed 1
// among 1.3–1.7 and windows of 25, 50 and 100, then checked on seeds 2 and 3, all with the
// suggestions before respread; with respread, the ECE of the rest after an accept at 0.95 is
// 0.029–0.081 on t10k's 3 seeds, and on the 60,000 training images 1.0–1.1 fits better: the
// factor is a constant, not fitted to the run).
const (
	agreementKappa = 1.5
	// agreementWindow is the half-width, in samples, of the moving average the agreement is
	// smoothed with (after its isotonic fit): 101 samples, 404 votes of 4 networks.
	agreementWindow = 50
)

// agreementMap maps a raw confidence (the most probable class's probability) to a calibrated
// one: raw holds the fitted samples' raw confidences, ascending, conf the confidence at each.
type agreementMap struct {
	raw  []float32
	conf []float64
}

// fitAgreement fits an agreementMap to the samples fit marks (those without a typed label)
// of probs (N×classes, the probabilities to calibrate) and agree (each sample's count of
// the voting networks whose most probable class is probs' most probable class): each sample's
// share of votes against times agreementKappa, at most 1 (its chance of being wrong), made
// non-increasing in the raw confidence (isotonic regression, pool-adjacent-violators),
// averaged over agreementWindow samples either side, each window read with half a vote
// against more out of one more (Jeffreys' prior: a window of unanimous votes is not
// certainty). Nil when fit marks no sample. O(M log M) for M marked samples; memory N + 4·M
// values.
func fitAgreement(probs []float32, classes int, agree []uint8, votes int, fit []bool) *agreementMap {
	var idx []int
	for i, f := range fit {
		if f {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 || votes == 0 {
		return nil
	}
	top := make([]float32, len(fit)) // the raw confidence, of the marked samples
	for _, i := range idx {
		row := probs[i*classes : (i+1)*classes]
		top[i] = row[argmax(row)]
	}
	sort.SliceStable(idx, func(a, b int) bool { return top[idx[a]] < top[idx[b]] })
	chance := make([]float64, len(idx)) // of being wrong, by the votes against
	for r, i := range idx {
		chance[r] = min(1, agreementKappa*float64(votes-int(agree[i]))/float64(votes))
	}
	chance = nonIncreasing(chance)
	sum := make([]float64, len(chance)+1)
	for r, v := range chance {
		sum[r+1] = sum[r] + v
	}
	m := &agreementMap{raw: make([]float32, len(idx)), conf: make([]float64, len(idx))}
	for r, i := range idx {
		lo, hi := max(0, r-agreementWindow), min(len(chance), r+agreementWindow+1)
		n := float64((hi - lo) * votes)
		wrong := ((sum[hi]-sum[lo])*float64(votes) + agreementKappa*0.5) / (n + 1)
		m.raw[r], m.conf[r] = top[i], max(0, 1-wrong)
		if r > 0 { // rounding in the sums must not make it fall
			m.conf[r] = max(m.conf[r], m.conf[r-1])
		}
	}
	return m
}

// nonIncreasing returns the isotonic (non-increasing) regression of v: the closest sequence in
// squared error that never rises (pool-adjacent-violators). O(len(v)).
func nonIncreasing(v []float64) []float64 {
	type block struct {
		sum float64
		n   int
	}
	var st []block
	for _, x := range v {
		st = append(st, block{x, 1})
		for len(st) > 1 {
			a, b := st[len(st)-2], st[len(st)-1]
			if a.sum/float64(a.n) >= b.sum/float64(b.n) {
				break
			}
			st = append(st[:len(st)-2], block{a.sum + b.sum, a.n + b.n})
		}
	}
	out := make([]float64, 0, len(v))
	for _, b := range st {
		for range b.n {
			out = append(out, b.sum/float64(b.n))
		}
	}
	return out
}

// apply calibrates rows of probabilities (classes values each) in place: the most probable
// class gets the confidence of the first fitted sample at least as confident (the last's
// above them all), the others are scaled to fill the rest (setTop).
func (m *agreementMap) apply(p []float32, classes int) {
	for s := 0; s+classes <= len(p); s += classes {
		row := p[s : s+classes]
		k := argmax(row)
		r, _ := slices.BinarySearch(m.raw, row[k])
		setTop(row, k, m.conf[min(r, len(m.conf)-1)])
	}
}
