package suspect

import (
	"context"
	"math"
	"slices"

	"idxlabel/suspect/cnn"
	"idxlabel/suspect/nn"
)

// featureVote returns, for each query (an index into the points), the normalized class vote of
// its k nearest other points in feats (points×cnn.Features, row p of class cls[p], 0…classes−1):
// each neighbour weighs 1/(1 + d/m), d its Euclidean distance and m the median of the queries'
// nearest-neighbour distances (1 when that median is 0), and the weights of each class are
// divided by their sum, so a row sums to 1 (a query without neighbours gets 1/classes each).
// With groups (one value per point; nil: none) a query's neighbours leave out the points of its
// own group. Result: len(queries)×classes. The search runs on workers goroutines (the result does not
// depend on them); progress (may be nil) gets the share of it done. Errors: the context's error
// when cancelled.
func featureVote(ctx context.Context, feats []float32, cls []int, groups []int32, queries []int, classes, k, workers int, progress func(float64)) ([]float32, error) {
	points := len(cls)
	k = min(k, points-1)
	out := make([]float32, len(queries)*classes)
	if k < 1 {
		return out, ctx.Err()
	}
	g, err := featureNeighbours(ctx, nn.Vectors{Data: feats, N: points, Dim: cnn.Features}, groups, queries, k, workers, progress)
	if err != nil {
		return nil, err
	}
	firsts := make([]float64, 0, len(queries))
	for q := range queries {
		if idx, dist := g.Of(q); idx[0] >= 0 {
			firsts = append(firsts, math.Sqrt(float64(dist[0])))
		}
	}
	slices.Sort(firsts)
	scale := 1.0
	if len(firsts) > 0 && firsts[len(firsts)/2] > 0 {
		scale = firsts[len(firsts)/2]
	}
	votes := make([]float64, classes)
	for q := range queries {
		clear(votes)
		var total float64
		idx, dist := g.Of(q)
		for m, j := range idx {
			if j < 0 {
				continue
			}
			w := 1 / (1 + math.Sqrt(float64(dist[m]))/scale)
			votes[cls[j]] += w
			total += w
		}
		row := out[q*classes : (q+1)*classes]
		for c, v := range votes {
			if total > 0 {
				row[c] = float32(v / total)
			} else {
				row[c] = 1 / float32(classes) // no neighbour: no preference
			}
		}
	}
	return out, nil
}

// featureNeighbours finds each query's k nearest other points of v (outside its group, with
// groups; nil: none): the CNN scan's one call of
// the neighbour search, on the index the health check uses too (nn.NewIndex). Below
// nn.ExactBelow points it is exact: O(len(queries)·N·Dim) time. Above, it is the inverted-file
// index: k-means cells, each query searching the 8 nearest (its recall: nn.Index),
// O(len(queries)·√N·Dim) time. Memory: the
// index's transposed copy of the points, O(N·Dim); v can go once the index is built (the
// search reads its queries from the copy). The result does not depend on workers.
func featureNeighbours(ctx context.Context, v nn.Vectors, groups []int32, queries []int, k, workers int, progress func(float64)) (*nn.Graph, error) {
	ix, err := nn.NewIndex(ctx, v, nn.IndexOptions{Workers: workers})
	if err != nil {
		return nil, err
	}
	return ix.Among(ctx, queries, k, nn.Options{Workers: workers, Progress: progress, Groups: groups})
}
