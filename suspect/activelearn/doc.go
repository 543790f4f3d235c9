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
//     With no labels at all this is where a person starts. Once labels cover the clusters, the
//     rest of the asks go to the samples whose suggestion is least sure (the smallest margin
//     between the two most probable classes of the label spreading below), one per cluster.
//   - Suggest spreads the labels over the neighbour graph (label spreading, Zhou et al. 2004),
//     then trains the package cnn network on the labels and the most confident of the spread
//     pseudo-labels, and again on its own most confident predictions (self-training); its
//     probabilities, calibrated by temperature scaling on the typed labels it was not trained
//     on, are the suggestions.
//
// Growth for N samples of D pixels, k neighbours, C classes and L labels: the features cost
// O(N·D·50), the graph an exact search below 20,000 points (O(N²·50)) and nn's inverted-file
// index above (near-linear), the spreading O(N·k·C) per iteration, k-means O(N·K·50) per
// iteration for K ≤ maxClusters clusters, the CNN O(samples trained on × epochs). Memory:
// O(N·(50 + k + C)) beyond the pixels. Nothing is O(N²) above nn.ExactBelow points.
package activelearn
