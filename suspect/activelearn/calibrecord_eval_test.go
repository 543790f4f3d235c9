//go:build calibrecord

package activelearn

import (
	"encoding/gob"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
)

// TestCalibRecords is the offline loop over the records a calibrecord build keeps (see
// calibRecord; bench/suggest/README.md): for every record under the folder
// IDXLABEL_CALIB_RECORDS (of a bench run on MNIST's t10k, 10,000 samples, or on the training
// images or their first N, bench/suggest -n N; of another set with IDXLABEL_CALIB_TRUTH=IMAGES,LABELS
// naming its pair) and every blend in IDXLABEL_CALIB_BLEND (default recorded: the record's
// chain; plain and mass: its spreading and network blended without and with class-mass
// normalisation, refinedBlend; massrows: the masses of the spreading's rows normalised first,
// tried), the unlabelled samples wrong; then for every factor of the votes against in
// IDXLABEL_CALIB_KAPPAS (default 0.7,0.8,…,1.6) fitAgreement as Refine calls it, and the part
// an accept at 0.95 leaves (the unlabelled samples calibrated below 0.95) scored against the
// truth: its size, ECE (10 bins) and accuracy minus mean confidence. IDXLABEL_CALIB_CROSS=X,…
// adds the factor crossKappa cross-fits, the truth's, and the scores at X times the
// cross-fitted one; IDXLABEL_CALIB_VOTERS=V keeps the first V calibration networks of each
// record (fewer voters); IDXLABEL_CALIB_HELD=1 and IDXLABEL_CALIB_TRIAD=1 the factors heldKappa and
// triadKappa fit (the latter from the first factor's rest) and their scores (all three tried,
// not kept). A measuring tool, not a check: it fails only on unreadable records. Seconds per
// record.
func TestCalibRecords(t *testing.T) {
	dir := os.Getenv("IDXLABEL_CALIB_RECORDS")
	if dir == "" {
		t.Skip("IDXLABEL_CALIB_RECORDS names no folder of records")
	}
	kappas := []float64{0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6}
	if s := os.Getenv("IDXLABEL_CALIB_KAPPAS"); s != "" {
		kappas = nil
		for _, f := range strings.Split(s, ",") {
			k, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatal(err)
			}
			kappas = append(kappas, k)
		}
	}
	blends := []string{"recorded"}
	if s := os.Getenv("IDXLABEL_CALIB_BLEND"); s != "" {
		blends = strings.Split(s, ",") // recorded, plain (no class-mass normalisation), mass, massrows
	}
	_, t10k := mnisttest.Load(t)
	_, train := mnisttest.LoadTrain(t)
	truth := map[int][]int{}
	for _, l := range []*idx.Array{t10k, train} {
		v := make([]int, l.Dims[0])
		for i := range v {
			v[i] = int(l.Int(i))
		}
		truth[len(v)] = v
	}
	if pair := os.Getenv("IDXLABEL_CALIB_TRUTH"); pair != "" { // IMAGES,LABELS of another set (bench/letters)
		images, labels, ok := strings.Cut(pair, ",")
		if !ok {
			t.Fatal("IDXLABEL_CALIB_TRUTH: IMAGES,LABELS")
		}
		_, l, err := mnisttest.ReadPair(images, labels)
		if err != nil {
			t.Fatal(err)
		}
		v := make([]int, l.Dims[0])
		for i := range v {
			v[i] = int(l.Int(i))
		}
		truth = map[int][]int{len(v): v, 60000: truth[60000]}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.gob"))
	slices.Sort(files)
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		var r calibRecord
		err = gob.NewDecoder(f).Decode(&r)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v, err := strconv.Atoi(os.Getenv("IDXLABEL_CALIB_VOTERS")); err == nil && v > 0 && v < len(r.Nets) {
			r.Held, r.Nets = r.Held[:v], r.Nets[:v] // the first v calibration networks only
		}
		y, ok := truth[r.N]
		if !ok && r.N < len(truth[60000]) { // bench/suggest -n on the training images
			y, ok = truth[60000][:r.N], true
		}
		if !ok {
			t.Fatalf("%s: %d samples: neither t10k nor (the first of) the training images", name, r.N)
		}
		base := fmt.Sprintf("%s/%s:", filepath.Base(filepath.Dir(name)), strings.Join(strings.Split(filepath.Base(name), "-")[1:4], "-"))
		for _, v := range blends {
			chain := r.Chain
			switch {
			case v == "recorded":
			case r.Raw != nil && v == "massrows": // class mass of the rows normalised (tried)
				chain = slices.Clone(r.Raw)
				normalizeRows(chain, r.Classes)
				classMass(chain, networkMass(r.Net, r.Cls, r.Classes), r.Classes)
				refinedBlend(chain, r.Net, r.Cls, r.Classes, false)
			case r.Raw != nil:
				chain = slices.Clone(r.Raw)
				refinedBlend(chain, r.Net, r.Cls, r.Classes, v == "mass")
			default:
				t.Fatalf("%s: no spreading recorded to blend %s", name, v)
			}
			line := base + " " + v + scoreRecord(&r, chain, y, kappas)
			if os.Getenv("IDXLABEL_CALIB_TRIAD") != "" {
				k, a := triadKappa(&r, chain, kappas[0])
				line += fmt.Sprintf(" | triad accuracy %.3f, κ %.2f", a, k) + scoreRecord(&r, chain, y, []float64{k})
			}
			if os.Getenv("IDXLABEL_CALIB_HELD") != "" {
				k := heldKappa(&r)
				line += fmt.Sprintf(" | held-out κ %.2f", k) + scoreRecord(&r, chain, y, []float64{k})
			}
			if os.Getenv("IDXLABEL_CALIB_CROSS") != "" {
				k, say := crossFit(&r, chain, y)
				line += say
				for _, f := range strings.Split(os.Getenv("IDXLABEL_CALIB_CROSS"), ",") {
					x, err := strconv.ParseFloat(f, 64)
					if err != nil {
						t.Fatal(err)
					}
					line += scoreRecord(&r, chain, y, []float64{x * k})
				}
			}
			t.Log(line)
		}
	}
}

// scoreRecord scores a record's chain (N×Classes, before calibration) against the truth y:
// the unlabelled samples wrong and the ECE of them all calibrated at the first factor, then
// for each factor fitAgreement as Refine calls it and the part an accept at 0.95 leaves: its
// size, ECE (10 bins) and accuracy minus mean confidence (points).
func scoreRecord(r *calibRecord, chain []float32, y []int, kappas []float64) string {
	nc := r.Classes
	top := make([]int, r.N)
	agree := make([]uint8, r.N)
	fit := make([]bool, r.N)
	wrong, left := 0, 0
	for i := range r.N {
		top[i] = argmax(chain[i*nc : (i+1)*nc])
		for _, p := range r.Nets {
			if argmax(p[i*nc:(i+1)*nc]) == top[i] {
				agree[i]++
			}
		}
		fit[i] = r.Cls[i] < 0
		if r.Unlabelled[i] {
			left++
			if r.Labels[top[i]] != y[i] {
				wrong++
			}
		}
	}
	line := fmt.Sprintf(" %d of %d wrong (%.2f%%)", wrong, left, 100-100*float64(wrong)/float64(max(left, 1)))
	if len(r.Nets) == 0 {
		return line
	}
	for j, k := range kappas {
		q := slices.Clone(chain)
		fitAgreement(q, nc, agree, len(r.Nets), fit, k).apply(q, nc)
		if j == 0 {
			line += fmt.Sprintf(", ECE of all at κ%.2f %.3f;", k, restECE(r, q, top, y, 1.01))
		}
		m, e, gap := restScore(r, q, top, y, 0.95)
		line += fmt.Sprintf(" κ%.2f %d %.3f (%+.0f)", k, m, e, gap)
		if j == 0 { // the share right of those an accept at 0.95 takes
			n, right := 0, 0
			for i := range r.N {
				if r.Unlabelled[i] && float64(q[i*nc+top[i]]) >= 0.95 {
					n++
					if r.Labels[top[i]] == y[i] {
						right++
					}
				}
			}
			line += fmt.Sprintf(" [accepted %d, %.2f%% right]", n, 100*float64(right)/float64(max(n, 1)))
		}
	}
	return line
}

// restScore returns the unlabelled samples of calibrated probabilities q (N×Classes; top their
// classes) below confidence below, their ECE (10 bins) against y and accuracy minus mean
// confidence in points.
func restScore(r *calibRecord, q []float32, top, y []int, below float64) (int, float64, float64) {
	nc := r.Classes
	var bins [10][3]float64
	m, gap := 0.0, 0.0
	for i := range r.N {
		c := float64(q[i*nc+top[i]])
		if !r.Unlabelled[i] || c >= below {
			continue
		}
		b := min(9, int(c*10))
		bins[b][0]++
		bins[b][1] += c
		if r.Labels[top[i]] == y[i] {
			bins[b][2]++
			gap++
		}
		gap -= c
		m++
	}
	e := 0.0
	for _, b := range bins {
		e += math.Abs(b[1]-b[2]) / max(m, 1)
	}
	return int(m), e, 100 * gap / max(m, 1)
}

// restECE is restScore's ECE of the unlabelled samples below confidence below.
func restECE(r *calibRecord, q []float32, top, y []int, below float64) float64 {
	_, e, _ := restScore(r, q, top, y, below)
	return e
}

// crossFit returns the factor crossKappa cross-fits for a record's chain, and says it beside the
// factor the truth would choose for the chain (where the rest's accuracy minus confidence
// crosses 0, searched as crossKappa searches).
func crossFit(r *calibRecord, chain []float32, y []int) (float64, string) {
	nc := r.Classes
	fit := make([]bool, r.N)
	top := make([]int32, r.N)
	chainTop := make([]int, r.N)
	for i := range r.N {
		fit[i] = r.Cls[i] < 0
		chainTop[i] = argmax(chain[i*nc : (i+1)*nc])
		top[i] = int32(chainTop[i])
	}
	var v voterVotes
	agree := make([]uint8, r.N)
	for _, p := range r.Nets {
		v.add(p, nc)
		for i := range r.N {
			if argmax(p[i*nc:(i+1)*nc]) == chainTop[i] {
				agree[i]++
			}
		}
	}
	k, _ := crossKappa(&v, top, fit)
	best := firstCrossing(func(k float64) float64 {
		q := slices.Clone(chain)
		fitAgreement(q, nc, agree, len(r.Nets), fit, k).apply(q, nc)
		_, _, g := restScore(r, q, chainTop, y, 0.95)
		return g
	})
	return k, fmt.Sprintf(" | cross-fit κ %.2f, truth's κ %.2f |", k, best)
}

// A factor of the votes against cross-fitted among the calibration networks (tried, not kept:
// bench/suggest/README.md; kept here to measure it on records): how many
// times its share of votes against a suggestion's chance of being wrong is depends on how
// often the voters err together and how often they vote against a right class, and it moved
// from run to run (MNIST's t10k: 0.8–1.8 for networks of the same strength, bench/suggest).
// The calibration networks are a small committee whose members' rightness can be read off a
// stronger reader, the refined suggestions themselves: each network in turn is calibrated by
// the votes of the others, at the factor at which its own samples below 0.95 are as often the
// refined suggestions' class as their calibrated confidence says.

// voterVotes is what each calibration network says of every sample: its most probable class
// and that class's probability.
type voterVotes struct {
	class [][]int32
	conf  [][]float32
}

// add keeps the most probable class and its probability of each row of probs (N×classes).
// O(N·classes); 8·N bytes a network.
func (v *voterVotes) add(probs []float32, classes int) {
	n := len(probs) / classes
	c, p := make([]int32, n), make([]float32, n)
	for i := range n {
		row := probs[i*classes : (i+1)*classes]
		k := argmax(row)
		c[i], p[i] = int32(k), row[k]
	}
	v.class = append(v.class, c)
	v.conf = append(v.conf, p)
}

// Cross-fitted factors are searched from crossKappaLow to crossKappaHigh by crossKappaStep.
const (
	crossKappaLow  = 0.5
	crossKappaHigh = 3.0
	crossKappaStep = 0.05
)

// crossKappa returns the factor of the votes against cross-fitted among the voters v (at
// least 3) for the suggestions whose classes are top (N), over the samples fit marks (those
// without a typed label): for each voter, its samples sorted by its own confidence and
// calibrated by the others' votes (agreementCurve) at each factor from crossKappaLow up, the
// first factor at which those below 0.95 are the suggestions' class at least as often as
// their mean calibrated confidence (interpolated between the steps); the mean over the
// voters. ok is false with fewer than 3 voters or no sample marked. O(V·(M log M + S·M)) for
// V voters, M marked samples and S = 51 factors; memory 3·M values.
func crossKappa(v *voterVotes, top []int32, fit []bool) (kappa float64, ok bool) {
	voters := len(v.class)
	var idx []int
	for i, f := range fit {
		if f {
			idx = append(idx, i)
		}
	}
	if voters < 3 || len(idx) == 0 {
		return 0, false
	}
	against := make([]uint8, len(idx))
	same := make([]bool, len(idx)) // the voter's class is the suggestion's
	sum := 0.0
	for j := range voters {
		order := slices.Clone(idx)
		conf := v.conf[j]
		sort.SliceStable(order, func(a, b int) bool { return conf[order[a]] < conf[order[b]] })
		for r, i := range order {
			c := v.class[j][i]
			against[r] = 0
			for o := range voters {
				if o != j && v.class[o][i] != c {
					against[r]++
				}
			}
			same[r] = c == top[i]
		}
		gap := func(k float64) float64 { // share of the suggestions' class less mean confidence, below 0.95
			curve := agreementCurve(against, voters-1, k)
			m, g := 0, 0.0
			for r, q := range curve {
				if q >= 0.95 {
					continue
				}
				m++
				g -= q
				if same[r] {
					g++
				}
			}
			return g / float64(max(m, 1))
		}
		sum += firstCrossing(gap)
	}
	return sum / float64(voters), true
}

// firstCrossing returns the first factor from crossKappaLow up at which gap is 0 or more,
// interpolated linearly between the steps; crossKappaLow when it is there already,
// crossKappaHigh when it never is.
func firstCrossing(gap func(float64) float64) float64 {
	prevK, prev := crossKappaLow, gap(crossKappaLow)
	if prev >= 0 {
		return prevK
	}
	for s := 1; ; s++ {
		k := min(crossKappaHigh, crossKappaLow+float64(s)*crossKappaStep)
		g := gap(k)
		if g >= 0 {
			return prevK + (k-prevK)*(-prev)/(g-prev)
		}
		if k >= crossKappaHigh {
			return crossKappaHigh
		}
		prevK, prev = k, g
	}
}

// heldKappa is another factor tried for each run (not kept): each calibration network's own
// suggestions calibrated by the other networks' votes over the samples without a typed label
// (agreementCurve, mapped by raw confidence as agreementMap.apply maps), at the first factor
// at which the typed labels it held out are right at least as often as their mean calibrated
// confidence says, pooled over the networks (interpolated, as firstCrossing).
func heldKappa(r *calibRecord) float64 {
	nc, voters := r.Classes, len(r.Nets)
	var idx []int
	for i, c := range r.Cls {
		if c < 0 {
			idx = append(idx, i)
		}
	}
	type net struct {
		raw     []float32
		against []uint8
		conf    []float32 // raw confidence of each held-out sample
		right   []bool
	}
	nets := make([]net, voters)
	var v voterVotes
	for _, p := range r.Nets {
		v.add(p, nc)
	}
	for j := range voters {
		order := slices.Clone(idx)
		conf := v.conf[j]
		sort.SliceStable(order, func(a, b int) bool { return conf[order[a]] < conf[order[b]] })
		n := net{raw: make([]float32, len(order)), against: make([]uint8, len(order))}
		for q, i := range order {
			n.raw[q] = conf[i]
			for o := range voters {
				if o != j && v.class[o][i] != v.class[j][i] {
					n.against[q]++
				}
			}
		}
		for _, i := range r.Held[j] {
			n.conf = append(n.conf, conf[i])
			n.right = append(n.right, int(v.class[j][i]) == r.Cls[i])
		}
		nets[j] = n
	}
	return firstCrossing(func(k float64) float64 {
		m, g := 0, 0.0
		for _, n := range nets {
			curve := agreementCurve(n.against, voters-1, k)
			for h, c := range n.conf {
				q, _ := slices.BinarySearch(n.raw, c)
				g -= curve[min(q, len(curve)-1)]
				if n.right[h] {
					g++
				}
				m++
			}
		}
		return g / float64(max(m, 1))
	})
}

// triadKappa is another factor tried for each run (not kept): the chain's accuracy over the
// samples an accept at base leaves, estimated from agreement rates alone as if the networks
// erred independently (for the chain c and two voters i, j: acc_c² = P(c=i)·P(c=j)/P(i=j),
// the mean over the pairs), and the first factor at which those samples' mean calibrated
// confidence is at most that accuracy (interpolated, as firstCrossing).
func triadKappa(r *calibRecord, chain []float32, base float64) (float64, float64) {
	nc, voters := r.Classes, len(r.Nets)
	top := make([]int, r.N)
	agree := make([]uint8, r.N)
	fit := make([]bool, r.N)
	var v voterVotes
	for _, p := range r.Nets {
		v.add(p, nc)
	}
	for i := range r.N {
		top[i] = argmax(chain[i*nc : (i+1)*nc])
		fit[i] = r.Cls[i] < 0
		for j := range voters {
			if int(v.class[j][i]) == top[i] {
				agree[i]++
			}
		}
	}
	q := slices.Clone(chain)
	fitAgreement(q, nc, agree, voters, fit, base).apply(q, nc)
	var region []int
	for i := range r.N {
		if r.Unlabelled[i] && float64(q[i*nc+top[i]]) < 0.95 {
			region = append(region, i)
		}
	}
	rate := func(a, b func(int) int) float64 {
		n := 0
		for _, i := range region {
			if a(i) == b(i) {
				n++
			}
		}
		return float64(n) / float64(max(len(region), 1))
	}
	c := func(i int) int { return top[i] }
	vote := func(j int) func(int) int { return func(i int) int { return int(v.class[j][i]) } }
	acc, pairs := 0.0, 0
	for a := range voters {
		for b := a + 1; b < voters; b++ {
			acc += math.Sqrt(min(1, rate(c, vote(a))*rate(c, vote(b))/max(rate(vote(a), vote(b)), 1e-9)))
			pairs++
		}
	}
	acc /= float64(pairs)
	k := firstCrossing(func(k float64) float64 {
		p := slices.Clone(chain)
		fitAgreement(p, nc, agree, voters, fit, k).apply(p, nc)
		m := 0.0
		for _, i := range region {
			m += float64(p[i*nc+top[i]])
		}
		return acc - m/float64(max(len(region), 1))
	})
	return k, acc
}
