//go:build calibrecord

package activelearn

import (
	"encoding/gob"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
)

// TestCalibRecords is the offline loop over the records a calibrecord build keeps (see
// calibRecord; bench/suggest/README.md): for every record under the folder
// IDXLABEL_CALIB_RECORDS (of a bench run on MNIST's t10k, 10,000 samples, or on the training
// images or their first N, bench/suggest -n N) and every factor of the votes against in IDXLABEL_CALIB_KAPPAS (default
// 0.7,0.8,…,1.6), fitAgreement as Refine calls it, then the part an accept at 0.95 leaves
// (the unlabelled samples calibrated below 0.95) scored against the truth: its size, ECE
// (10 bins) and accuracy minus mean confidence. A measuring tool, not a check: it fails only
// on unreadable records. Seconds per record.
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
		y, ok := truth[r.N]
		if !ok && r.N < len(truth[60000]) { // bench/suggest -n on the training images
			y, ok = truth[60000][:r.N], true
		}
		if !ok {
			t.Fatalf("%s: %d samples: neither t10k nor (the first of) the training images", name, r.N)
		}
		nc := r.Classes
		top := make([]int, r.N)
		agree := make([]uint8, r.N)
		fit := make([]bool, r.N)
		for i := range r.N {
			top[i] = argmax(r.Chain[i*nc : (i+1)*nc])
			for _, p := range r.Nets {
				if argmax(p[i*nc:(i+1)*nc]) == top[i] {
					agree[i]++
				}
			}
			fit[i] = r.Cls[i] < 0
		}
		line := fmt.Sprintf("%s/%s:", filepath.Base(filepath.Dir(name)), strings.Join(strings.Split(filepath.Base(name), "-")[1:4], "-"))
		for _, k := range kappas {
			q := slices.Clone(r.Chain)
			fitAgreement(q, nc, agree, len(r.Nets), fit, k).apply(q, nc)
			var bins [10][3]float64
			m, gap := 0.0, 0.0
			for i := range r.N {
				c := float64(q[i*nc+top[i]])
				if !r.Unlabelled[i] || c >= 0.95 {
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
			ece := 0.0
			for _, b := range bins {
				ece += math.Abs(b[1]-b[2]) / max(m, 1)
			}
			line += fmt.Sprintf(" κ%.2f %d %.3f (%+.0f)", k, int(m), ece, 100*gap/max(m, 1))
		}
		t.Log(line)
	}
}
