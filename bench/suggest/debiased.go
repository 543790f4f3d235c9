package main

import (
	"math"
	"strconv"
)

// debiasedCE returns the debiased ℓ2 calibration error of the suggestions rows (header
// index,suggested,confidence; those keep accepts, nil: all) against truth, over the same 10
// bins as score's ECE (Kumar, Liang and Ma 2019, "Verified uncertainty calibration", eq. of
// the debiased estimator): the root of Σ_b (n_b/m)·[(a_b − c_b)² − a_b(1 − a_b)/(n_b − 1)],
// where a_b and c_b are bin b's accuracy and mean confidence; the second term removes the
// square's sampling bias, so a calibrated model scores about 0 however few samples it has
// (the plain ECE of a calibrated model is its floor, see eceFloor). Bins of one sample add
// nothing. A negative sum (a model closer to calibrated than the noise can tell) is returned
// as minus the root of its magnitude.
func debiasedCE(rows [][]string, truth []int, keep func(float64) bool) float64 {
	var bins [10][3]float64
	m := 0.0
	for _, row := range rows[1:] {
		i, _ := strconv.Atoi(row[0])
		s, _ := strconv.Atoi(row[1])
		c, _ := strconv.ParseFloat(row[2], 64)
		if keep != nil && !keep(c) {
			continue
		}
		b := min(9, int(c*10))
		bins[b][0]++
		bins[b][1] += c
		if s == truth[i] {
			bins[b][2]++
		}
		m++
	}
	var sum float64
	for _, b := range bins {
		if b[0] > 1 {
			a, c := b[2]/b[0], b[1]/b[0]
			sum += b[0] / m * ((a-c)*(a-c) - a*(1-a)/(b[0]-1))
		}
	}
	return math.Copysign(math.Sqrt(math.Abs(sum)), sum)
}
