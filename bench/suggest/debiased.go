package main

import "math"

// debiasedCE returns the debiased ℓ2 calibration error of the suggestions rows (header
// index,suggested,confidence; those keep accepts, nil: all) against truth, over the same 10
// bins as score's ECE (Kumar, Liang and Ma 2019, "Verified uncertainty calibration", the
// debiased estimator): the root of Σ_b (n_b/m)·[(a_b − c_b)² − a_b(1 − a_b)/(n_b − 1)], where
// a_b and c_b are bin b's accuracy and mean confidence; the second term removes the square's
// sampling bias, so a calibrated model scores about 0 however few samples it has (the plain
// ECE of a calibrated model is its floor, see eceFloor). Bins of one sample add nothing. A
// negative sum (a model closer to calibrated than the noise can tell) is returned as minus the
// root of its magnitude. Each bin is scored by score.
func debiasedCE(rows [][]string, truth []int, keep func(float64) bool) float64 {
	in := func(c float64) bool { return keep == nil || keep(c) }
	_, _, _, m := score(rows, nil, truth, in)
	var sum float64
	for b := range 10 {
		a, c, _, n := score(rows, nil, truth, func(x float64) bool { return in(x) && min(9, int(x*10)) == b })
		if n > 1 {
			sum += float64(n) / float64(m) * ((a-c)*(a-c) - a*(1-a)/float64(n-1))
		}
	}
	return math.Copysign(math.Sqrt(math.Abs(sum)), sum)
}
