package activelearn

// Class-mass normalisation (Zhu, Ghahramani and Lafferty 2003, "Semi-supervised learning using
// Gaussian fields and harmonic functions", §2.3): label spreading lets a class with more or
// better-placed typed labels reach farther than its share of the samples; scaling each class's
// column of the spread scores so that its mass (the sum over every sample) is the class's
// expected number of samples, then each row to sum to 1, takes that pull away. The proportions
// here are the last network's (the samples whose most probable class it is): it learnt every
// sample, so its class shares are a label-free estimate of the classes' sizes. Measured on
// MNIST with the refined spreading (bench/suggest/README.md, 3 seeds): more samples right
// (t10k at 100 labels 91 / 93 / 122 of 9,900 wrong, 96 / 92 / 125 without; the 60,000 training
// digits at 200 labels 598 and 649 of 59,800, 600 and 718 without), but the rest after an
// accept at 0.95 no better calibrated with the factor of the votes refitted for it (ECE summed
// over the 8 runs 0.371, 0.369 without; the 60,000's five rounds of 20 0.033 where it was
// 0.029), so it is off (normaliseClassMass); one label a class, it is worse on every seed.

// normaliseClassMass turns the refined spreading's class-mass normalisation on (from massFrom
// typed labels a class): tried and not kept, see above.
const normaliseClassMass = false

// massFrom is the typed labels a class, on average, from which the refined spreading's classes
// are normalised to the network's masses.
const massFrom = 2

// massNormalised reports whether the class indices cls (−1: none) of classes classes are enough
// for class-mass normalisation: at least massFrom typed labels a class on average.
func massNormalised(cls []int, classes int) bool {
	typed := 0
	for _, c := range cls {
		if c >= 0 {
			typed++
		}
	}
	return typed >= massFrom*classes
}

// networkMass returns each class's mass by the network's probabilities probs (N×classes): the
// samples whose most probable class it is, at least the class's typed labels in cls (−1: none)
// and at least 1 (a class the network gives no sample keeps its typed labels' reach).
func networkMass(probs []float32, cls []int, classes int) []float64 {
	mass := make([]float64, classes)
	typed := make([]float64, classes)
	for i, c := range cls {
		mass[argmax(probs[i*classes:(i+1)*classes])]++
		if c >= 0 {
			typed[c]++
		}
	}
	for c := range mass {
		mass[c] = max(mass[c], typed[c], 1)
	}
	return mass
}

// classMass scales each column c of f (N×classes, non-negative label spreading scores before
// their rows are normalised) so that it sums to mass[c], then each row to sum to 1
// (normalizeRow). A column that sums to 0 (no label of its class reached any sample) is left
// at 0. O(N·classes).
func classMass(f []float32, mass []float64, classes int) {
	sum := make([]float64, classes)
	for i, v := range f {
		sum[i%classes] += float64(v)
	}
	scale := make([]float32, classes)
	for c, s := range sum {
		if s > 0 {
			scale[c] = float32(mass[c] / s)
		}
	}
	for s := 0; s+classes <= len(f); s += classes {
		row := f[s : s+classes]
		for c := range row {
			row[c] *= scale[c]
		}
		normalizeRow(row)
	}
}

// refinedBlend makes the refined probabilities in f from f, the scores of the typed labels
// cls (−1: none) spread over the last network's features before their rows are normalised
// (N×classes, spreadScores), and that network's probabilities probs: f's rows normalised
// (normalizeRow; with mass, its classes normalised to the network's masses first: classMass,
// networkMass), then (1 − netShare) of f and netShare of probs. In place; O(N·classes).
func refinedBlend(f, probs []float32, cls []int, classes int, mass bool) {
	if mass {
		classMass(f, networkMass(probs, cls, classes), classes)
	} else {
		normalizeRows(f, classes)
	}
	for i := range f {
		f[i] = float32((1-netShare)*float64(f[i]) + netShare*float64(probs[i]))
	}
}
