// Package neardup finds near-duplicates within a dataset and leakage between two: images that
// are the same up to small changes (an exact copy, a shift of a pixel or two, mild noise, a
// change of intensity).
//
// It works in two stages so that it grows near-linearly with the number of samples: a candidate
// stage compares compact descriptors (Basis: the image centred on its centre of mass, blurred,
// pooled 2×2, scaled to unit length and projected on 48 principal axes) through the neighbour
// index of package nn, and an exact stage computes the shift-aligned cosine similarity of the
// pixels (Similarity) for each image's few nearest candidates. A match counts as a copy only
// when it stands apart from the image's other neighbours (copyGroup, DefaultRatio): a plain
// stroke as similar to many natural neighbours as to its best is no copy of any. Within a set,
// copies form groups (a group of k is k − 1 pairs, not k²). Identical images are also found by
// hash, whatever their descriptors. neardup never imports Fyne; it reports progress and
// stops when its context is cancelled.
package neardup
