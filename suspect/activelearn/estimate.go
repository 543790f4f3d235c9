package activelearn

import (
	"time"

	"idxlabel/suspect/embed"
)

// Work of NewSpace beyond its networks, in units of network work (forward passes of one 28×28
// sample; suspect.CalibrateCNN's unit): per sample, the pixel features, the neighbour searches
// and the clusters; per sample and epoch of the map's layout. Measured on MNIST's training set
// (60,000 samples, 2 cores): those parts took 13.3 s of CPU beside the features network's 26.7.
const (
	sampleUnits = 5.0
	layoutUnits = 0.037
)

// EstimateSpace returns about how long NewSpace takes for n samples on this machine now, rate
// being the units of network work (forward passes of one 28×28 sample; a training draw counts
// 3) a network does a second here on up to 2 cores (suspect.CalibrateCNN): the features
// network's training (3·featuresDraws(n)), its pass over every sample, and the rest (the pixel
// features, the neighbour searches, the map's layout and the clusters) at the rates measured
// against the networks'. An estimate: the load may change. 0 when rate is not positive. O(1).
func EstimateSpace(n int, rate float64) time.Duration {
	if !(rate > 0) || n < 2 {
		return 0
	}
	pool := min(n, mapPool)
	epochs := embed.DefaultEpochs(pool)
	units := 3*float64(featuresDraws(n)) + float64(n) + sampleUnits*float64(n) + layoutUnits*float64(epochs)*float64(pool)
	return time.Duration(units / rate * float64(time.Second))
}
