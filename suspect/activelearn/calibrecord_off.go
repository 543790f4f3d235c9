//go:build !calibrecord

package activelearn

// newCalibRecord returns nil: records are kept only in a build with the calibrecord tag.
func newCalibRecord(_ *learnt, _ []float32, _ int) *calibRecord { return nil }

func (*calibRecord) network(_ []int, _ []float32) {}

func (*calibRecord) write() {}

// recordDraws returns 0: the calibration networks draw what calibrationDraws says.
func recordDraws(int) int { return 0 }

// keepRespread does nothing: only a calibrecord build keeps what respread blends.
func keepRespread(_, _ []float32) {}
