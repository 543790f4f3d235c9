// Package suspect finds the samples of a labelled dataset most likely to carry a wrong label,
// suggests labels, and finds near-duplicate samples. It has two methods:
//
//   - ScanCNN (the default, MethodCNN): confident learning (Northcutt et al. 2021) with
//     cross-validated convolutional networks (package cnn). For each of two seeds the labelled
//     samples are dealt into 3 stratified folds; a network trained on the other folds gives every
//     sample out-of-fold class probabilities, blended half and half with a vote of its nearest
//     labelled neighbours in that network's features; Score = 1 − p(label) (self-confidence)
//     ranks them and the most probable class is the suggestion. Measured on MNIST's t10k: 0.8%
//     out-of-fold error, 9–10 s on two cores. Its Model (every fold network, calibrated by
//     temperature scaling) predicts labels for unlabelled samples and drawn digits; TrainModel
//     trains one before any scan. The out-of-fold probabilities and features serve the views
//     and checks that reuse one scan.
//   - Scan (MethodKNN): each sample is compared with its k nearest neighbours in a reduced
//     feature space (the first principal components of the pixels, computed with gonum); the
//     share of neighbours that disagree with its label, out of sample (a sample never votes for
//     itself), estimates how likely the label is wrong, and their majority suggests the right
//     one. Seconds; the source of nearest neighbours and near duplicates, and a quick first pass.
//
// suspect never imports Fyne; it works on pixels and labels given by the caller, uses every
// core, reports progress and stops when its context is cancelled.
package suspect
