// Package suspect finds the samples of a labelled dataset most likely to carry a wrong label,
// and near-duplicate samples. Each sample is compared with its k nearest neighbours in a reduced
// feature space (the first principal components of the pixels, computed with gonum); the share
// of neighbours that disagree with its label, out of sample (a sample never votes for itself),
// estimates how likely the label is wrong, and their majority suggests the right one.
//
// suspect never imports Fyne; it works on pixels and labels given by the caller and uses every
// core, reports progress and stops when its context is cancelled.
package suspect
