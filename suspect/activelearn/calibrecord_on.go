//go:build calibrecord

package activelearn

import (
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"
)

// newCalibRecord starts a record of a refined round when IDXLABEL_CALIB_RECORD names a
// folder (nil otherwise).
func newCalibRecord(l *learnt, probs []float32, nc int) *calibRecord {
	if os.Getenv("IDXLABEL_CALIB_RECORD") == "" {
		return nil
	}
	r := &calibRecord{N: len(l.cls), Classes: nc, Labels: slices.Clone(l.classes), Cls: slices.Clone(l.cls),
		Unlabelled: slices.Clone(l.unlabelled), Chain: slices.Clone(probs), Raw: kept.raw, Net: kept.net}
	kept.raw, kept.net = nil, nil
	return r
}

// network adds a calibration network's held-out samples and probabilities.
func (r *calibRecord) network(held []int, probs []float32) {
	if r != nil {
		r.Held = append(r.Held, slices.Clone(held))
		r.Nets = append(r.Nets, slices.Clone(probs))
	}
}

// write writes the record into the folder IDXLABEL_CALIB_RECORD names, as gob, named by the
// numbers of typed and unlabelled samples; a failure is printed on stderr.
func (r *calibRecord) write() {
	if r == nil {
		return
	}
	typed, left := 0, 0
	for i, c := range r.Cls {
		if c >= 0 {
			typed++
		}
		if r.Unlabelled[i] {
			left++
		}
	}
	name := filepath.Join(os.Getenv("IDXLABEL_CALIB_RECORD"), fmt.Sprintf("calib-%d-typed%d-left%d-%d.gob", r.N, typed, left, time.Now().UnixNano()))
	f, err := os.Create(name)
	if err == nil {
		err = gob.NewEncoder(f).Encode(r)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "calibration record:", err)
	}
}

// kept is what respread blended last, for the next record (a measuring build; one round at a time).
var kept struct{ raw, net []float32 }

// keepRespread keeps copies of what respread blends (the spreading's scores before any
// normalisation, and the network's probabilities) when IDXLABEL_CALIB_RECORD names a folder.
func keepRespread(scores, net []float32) {
	if os.Getenv("IDXLABEL_CALIB_RECORD") != "" {
		kept.raw, kept.net = slices.Clone(scores), slices.Clone(net)
	}
}

// recordDraws returns IDXLABEL_CALIB_PASSES passes over the n samples when it is set, for
// measuring how the calibration follows the voters' strength (0 otherwise: the default).
func recordDraws(n int) int {
	if v, err := strconv.ParseFloat(os.Getenv("IDXLABEL_CALIB_PASSES"), 64); err == nil && v > 0 {
		return max(1, int(v*float64(n)))
	}
	return 0
}
