// Package embed lays samples out in two dimensions so that neighbours stay neighbours: the
// dataset's 2-D map. It never imports Fyne.
//
// The layout is a neighbour-graph layout in the manner of UMAP (McInnes, Healy and Melville
// 2018, "UMAP: Uniform Manifold Approximation and Projection"): each point's k nearest
// neighbours (package nn, the project's one neighbour search) become fuzzy memberships
// (smoothKNN), the graph is made symmetric (a + aᵀ − a∘aᵀ), and points move by stochastic
// gradient steps that pull graph neighbours together and push random other points apart under
// the heavy-tailed similarity 1/(1 + d²) (t-SNE's kernel; UMAP's curve with a = b = 1). One pass
// (an epoch) updates every point from the positions the previous epoch left, each point with
// its own random stream, so the result depends only on the input and the seed, never on the
// number of workers.
//
// Growth, for N points, K neighbours and E epochs: the graph costs O(N·K²) time and O(N·K)
// memory; the optimisation O(E·N·K) time and O(N·K) memory (about 20 bytes per graph edge).
// The neighbour search is one nn.Index of the pool: exact, O(N²·D), below nn.ExactBelow points,
// the inverted-file index, about O(N·√N·D), above. Map lays out at most a pool of points
// directly (MapOptions.Pool) and places the rest by their neighbours in the pool (the same
// index, O(N·K) placement), so it never searches all pairs of a large dataset.
package embed
