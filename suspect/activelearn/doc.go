// Package activelearn is the labelling-from-scratch loop: which unlabelled samples a person
// should label next (the active-learning query) and a label for every other unlabelled sample
// with a calibrated confidence, from a dataset with few labels or none.
//
// Everything starts from a Space, computed once per dataset from its pixels alone (NewSpace;
// package scancache keeps it beside the images, keyed by the pixels) and then used by every
// round whatever the labels: features learnt without labels (cluster-then-label, as N2D and
// DeepCluster do):
//
//  1. each sample's first principal components of its deskewed, blurred, unit-length pixels
//     (suspect.PixelFeatures) and their neighbour graph (suspect/nn);
//  2. a UMAP-style map of that graph in two dimensions (suspect/embed), in which a class's
//     samples gather in islands, and fine clusters of the map (k-means, one per 100 samples);
//  3. a network (package cnn) trained to tell the fine clusters apart from randomly warped
//     copies of every sample: its penultimate features, and their neighbour graph (Graph), put
//     more of a sample's neighbours in its class than the pixels do;
//  4. the fine clusters joined two at a time by the links of that graph (groups.go): cut at
//     any number G, the G groups a person should name first.
//
// The window's loop, per change of the labels (the CLI's suggest does the same in one call):
//
//   - Space.Ask: the samples to label next. While fewer than 4 labels a known class are
//     typed, the most typical sample of each group without a label (TypiClust, Hacohen et
//     al. 2022), largest first: with no labels, ten asks name ten classes when the classes are
//     islands. Then the least sure suggestions, one per group a round: the smallest margin of
//     label spreading's scores before they are normalised (AskFrom takes a round's
//     probabilities, e.g. Refine's, for that instead).
//   - Space.Suggest: the first suggestions, in a fraction of a second per 10,000 samples: the
//     typed labels spread over Graph (label spreading, Zhou et al. 2004), calibrated
//     (Calibration: temperature, then Platt scaling) on every typed label scored without it.
//   - Space.Refine: better ones, in seconds: two chains of networks fine-tuned from the space's
//     network on every sample's suggested class, twice, from widely warped copies; the typed
//     labels spread again over the neighbour graph of the two last networks' features joined,
//     blended with their mean probabilities; calibrated by the agreement of three networks,
//     each without a quarter of the typed labels, with them
//     (agreement.go): the typed labels the asks pick are no random sample of the samples the
//     suggestions are unsure of.
//   - Suggestions.Acceptance: for a confidence threshold, how many suggestions of each class
//     it accepts and how many of those are expected to be wrong.
//
// Accepted suggestions (Options.Accepted) are pseudo-labels: they are not learnt from (they
// hold nothing the suggestions did not) and never held out to calibrate; the refined
// calibration is fitted to every sample without a typed label, accepted ones included, so
// accepting suggestions leaves the confidences of the rest as they were, calibrated as they
// were.
//
// Growth for N samples (k = 15 neighbours, C classes, K = min(max(50, N/100), 1,000) fine
// clusters): NewSpace costs the pixel features O(N·D·50), two neighbour graphs (exact below
// nn.ExactBelow points, O(N²·d); nn's inverted-file index above, near-linear), the map
// (O(E·min(N, 50,000)·k) for E epochs; above 50,000 samples the rest placed by their
// neighbours), k-means O(min(N, 20,000)·K) per iteration and O(N·K) to file every sample, the
// features network's training (featuresDraws: 15 passes up to 10,000 samples, at most 500,000
// draws) and one pass over every sample, and the join order O(K·E') for E' linked pairs of
// clusters (at most N·k). A round: spreading O(N·k·C) per iteration (40 iterations), and one
// column of it for each of looHeld(N) ≤ 160 held-out labels; Refine 4 networks (2 chains) each
// drawing refineDraws(N) ≤ 200,000 samples and passing all N, the neighbour graph of the two
// last ones' features joined (as the space's: exact below nn.ExactBelow points, near-linear
// above) and a spreading over it, 3 networks drawing half as many and passing all N, and the
// calibration's sort of the samples without a typed label, O(N log N). Memory: O(N·(k + C))
// values beyond the pixels (while the space is computed, N·128 features and the index's copy
// of them; while Refine builds its graph, 2·N·128 features, their N·256 join and the index's
// copy of it); the kept space 4·N·(3 + 2k) bytes and the network. Nothing is
// O(N²) above nn.ExactBelow samples.
package activelearn
