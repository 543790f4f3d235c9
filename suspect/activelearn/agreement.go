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
// times the share of votes against. How many times depends on how strong the voters are
// (agreementKappa).
const (
	// agreementWindow is the half-width, in samples, of the moving average the agreement is
	// smoothed with (after its isotonic fit): 101 samples, 303 votes of 3 networks.
	agreementWindow = 50
)

// The factor of the votes against (see agreementKappa) for calibration networks that draw one
// pass over the samples or fewer, and two passes or more.
const (
	kappaOnePass = 0.8
	kappaTwoPass = 0.9
)

// agreementKappa returns how many times its share of votes against a sample's chance of being
// wrong is read as, for calibration networks that each draw passes times as many samples as
// the dataset holds (calibrationDraws / N). A weaker voter votes against more right
// suggestions, so the factor falls with the passes. Measured on MNIST with Refine's two chains
// and its calibrationVoters networks (bench/suggest: the ECE of the rest after an accept at
// 0.95; the curve at 200 labels and five rounds of --ask 20): with two passes (t10k), best 0.9
// on seeds 1 and 2 (sum of the 4 runs 0.173; seed 3's two runs, the check, 0.016 and 0.048);
// with one pass (the 60,000 training images, seed 1: the curve at 200 labels and five rounds
// of 20, the two runs measured, so chosen on them) best 0.8 (0.034 and 0.018; 0.7 gave 0.032
// and 0.037, 0.9 0.044 and 0.019). Linear in between; below one pass (above about 100,000
// samples, where a chain's draws stop growing) the one-pass factor, not measured there.
func agreementKappa(passes float64) float64 {
	t := min(1, max(0, passes-1))
	return (1-t)*kappaOnePass + t*kappaTwoPass // exact at both ends
}

// calibrationDraws returns the samples each calibration network draws for n samples, given a
// chain network's draws: half as many, at least 1 (recordDraws may set them when measuring).
func calibrationDraws(draws, n int) int {
	if d := recordDraws(n); d > 0 {
		return d
	}
	return max(1, draws/2)
}

// agreementMap maps a raw confidence (the most probable class's probability) to a calibrated
// one: raw holds the fitted samples' raw confidences, ascending, conf the confidence at each.
type agreementMap struct {
	raw  []float32
	conf []float64
}

// fitAgreement fits an agreementMap to the samples fit marks (those without a typed label)
// of probs (N×classes, the probabilities to calibrate) and agree (each sample's count of
// the voting networks whose most probable class is probs' most probable class): each sample's
// share of votes against times kappa (see agreementKappa), at most 1 (its chance of being wrong), made
// non-increasing in the raw confidence (isotonic regression, pool-adjacent-violators),
// averaged over agreementWindow samples either side, each window read with half a vote
// against more out of one more (Jeffreys' prior: a window of unanimous votes is not
// certainty). Nil when fit marks no sample. O(M log M) for M marked samples; memory N + 4·M
// values.
func fitAgreement(probs []float32, classes int, agree []uint8, votes int, fit []bool, kappa float64) *agreementMap {
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
	against := make([]uint8, len(idx)) // votes against, in the order of the raw confidence
	m := &agreementMap{raw: make([]float32, len(idx))}
	for r, i := range idx {
		against[r] = uint8(votes - int(agree[i]))
		m.raw[r] = top[i]
	}
	m.conf = agreementCurve(against, votes, kappa)
	return m
}

// agreementCurve returns the calibrated confidence of each of M samples sorted by their raw
// confidence, ascending, from their votes against (of votes): each one's share of votes
// against times kappa, at most 1, made non-increasing (nonIncreasing), averaged over
// agreementWindow samples either side with half a vote against more out of one more, 1 less
// that, never falling. O(M).
func agreementCurve(against []uint8, votes int, kappa float64) []float64 {
	chance := make([]float64, len(against)) // of being wrong, by the votes against
	for r, a := range against {
		chance[r] = min(1, kappa*float64(a)/float64(votes))
	}
	chance = nonIncreasing(chance)
	sum := make([]float64, len(chance)+1)
	for r, v := range chance {
		sum[r+1] = sum[r] + v
	}
	conf := make([]float64, len(chance))
	for r := range chance {
		lo, hi := max(0, r-agreementWindow), min(len(chance), r+agreementWindow+1)
		n := float64((hi - lo) * votes)
		wrong := ((sum[hi]-sum[lo])*float64(votes) + kappa*0.5) / (n + 1)
		conf[r] = max(0, 1-wrong)
		if r > 0 { // rounding in the sums must not make it fall
			conf[r] = max(conf[r], conf[r-1])
		}
	}
	return conf
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
