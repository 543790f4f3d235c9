package activelearn

// calibRecord is what one refined round calibrates with, kept for measuring calibrations
// offline (bench/suggest -record; only in a build with the calibrecord tag, see
// calibrecord_on.go): the chain's probabilities before calibration (and the spreading and
// network probabilities they blend), each calibration network's probabilities and held-out
// typed labels, the typed classes and which samples are unlabelled. Its methods do nothing on a nil record, which is what every other build gets.
type calibRecord struct {
	N, Classes int
	Labels     []int     // the class index of each class (l.classes)
	Cls        []int     // each sample's typed class index, −1 for none (accepted ones too)
	Unlabelled []bool    // no label at all: the samples suggested
	Chain      []float32 // N×Classes, the refined probabilities before calibration
	Held       [][]int   // each calibration network's held-out typed samples
	Nets       [][]float32
	// Raw and Net are what respread blended into Chain: the scores of the typed labels spread
	// over the last network's features before any normalisation (N×Classes) and that
	// network's probabilities, so that a record gives Chain with and without class-mass
	// normalisation (refinedBlend).
	Raw, Net []float32
}
