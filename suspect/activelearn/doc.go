// Package activelearn is the labelling-from-scratch loop: which unlabelled samples a person
// should label next (Ask: the active-learning query) and a label for every other unlabelled
// sample with a calibrated confidence (Suggest), from a dataset with few labels or none.
//
// Both start from one space: each sample's first principal components of its deskewed, blurred,
// unit-length pixels (suspect.PixelFeatures), and the graph of its nearest neighbours there
// (suspect/nn).
//
//   - Ask picks typical samples of distinct clusters (TypiClust, Hacohen et al. 2022): k-means
//     with as many clusters as there will be labels, then in each cluster that holds no label,
//     largest first, its most typical sample (the one whose nearest neighbours are nearest).
//     With no labels at all this is where a person starts. From 4 labels a class known on, the
//     asks go to the samples whose suggestion is least sure (the smallest margin between the
//     two most probable classes of the label spreading below), one per cluster a round.
//   - Suggest spreads the labels over the neighbour graph (label spreading, Zhou et al. 2004),
//     then self-trains the package cnn network: a first network learns the typed labels and the
//     most confident half of every class's spread labels, its probabilities blended with the
//     spread ones (0.3 / 0.7); a second round learns every sample's blended label, as two
//     networks each without one half of the typed labels, averaged. Each held-out half scores
//     the network that did not learn it, blended with a spreading that did not start from it,
//     and the temperature fitted to those scores (temperature scaling) calibrates the
//     confidences. With fewer than 20 typed labels there is no held-out half and the
//     confidences are the blend's, uncalibrated.
//
// Growth for N samples of D pixels, k = 10 neighbours, C classes: the features cost O(N·D·50)
// time; the graph an exact search below nn.ExactBelow points (O(N²·50), 10,000 points in about
// a second) and nn's inverted-file index above (near-linear); the spreading O(N·k·C) per
// iteration; k-means O(min(N, 20,000)·K·50) per iteration and O(N·K·50) to file every sample,
// for K ≤ 1,000 clusters; each network draws min(30·N, max(120,000, 3·N)) samples. Memory:
// O(N·(50 + k + 4·C)) values beyond the pixels. Nothing is O(N²) above nn.ExactBelow points.
package activelearn
