package suspect

import (
	"context"
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// topK keeps the k smallest distances seen, with their indices, nearest first.
type topK struct {
	idx  []int32
	dist []float32
}

// push offers (j, d); it is kept when nearer than the farthest kept.
func (t topK) push(j int32, d float32) {
	k := len(t.dist)
	if d >= t.dist[k-1] {
		return
	}
	p := k - 1
	for p > 0 && t.dist[p-1] > d {
		t.dist[p], t.idx[p] = t.dist[p-1], t.idx[p-1]
		p--
	}
	t.dist[p], t.idx[p] = d, j
}

// neighbours holds every sample's k nearest other samples: idx[i*k:(i+1)*k] and their squared
// distances in dist, nearest first (-1 and +Inf pad when there are fewer than k others).
type neighbours struct {
	k    int
	idx  []int32
	dist []float32
}

func (nb *neighbours) of(i int) topK {
	return topK{nb.idx[i*nb.k : (i+1)*nb.k], nb.dist[i*nb.k : (i+1)*nb.k]}
}

// knn finds every sample's k nearest other samples by exact (brute-force) search in feature
// space: blocks of the upper triangle of the distance matrix, each a matrix product (blas32
// Gemm: ‖a−b‖² = ‖a‖² + ‖b‖² − 2a·b), spread over workers; each block updates the neighbour lists
// of both its rows and its columns, so every pair is computed once. Memory: the transposed
// features, one block product and one N×k list per worker. progress is called with the share
// done (0–1).
func knn(ctx context.Context, feats []float32, n, dims, k, workers int, progress func(float64)) (*neighbours, error) {
	norms := make([]float32, n)
	for i := range n {
		var s float32
		for _, v := range feats[i*dims : (i+1)*dims] {
			s += v * v
		}
		norms[i] = s
	}
	// Transposed features (dims×N) make each block product a sum of long axpys (gonum's fastest
	// float32 kernel) instead of many short dot products; the row-major copy is not used after
	// this, so the caller's can be collected.
	featsT := make([]float32, dims*n)
	for i := range n {
		for c := range dims {
			featsT[c*n+i] = feats[i*dims+c]
		}
	}
	// Blocks of 64 rows × 192 columns are small enough for gonum to multiply them serially (it
	// spawns goroutines, and garbage, for larger ones); the workers give the parallelism.
	const rowBlock, colBlock = 64, 192
	type job struct{ i0, j0 int }
	jobs := make(chan job)
	workers = max(1, workers)
	lists := make([]*neighbours, workers)
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for i0 := 0; i0 < n; i0 += rowBlock {
		total += (n - (i0/colBlock)*colBlock + colBlock - 1) / colBlock
	}
	done := 0
	for w := range workers {
		nb := newNeighbours(n, k)
		lists[w] = nb
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := make([]float32, rowBlock*colBlock)
			for jb := range jobs {
				if ctx.Err() != nil {
					continue
				}
				i0, j0 := jb.i0, jb.j0
				rows, cols := min(rowBlock, n-i0), min(colBlock, n-j0)
				blas32.Gemm(blas.Trans, blas.NoTrans, -2,
					blas32.General{Rows: dims, Cols: rows, Stride: n, Data: featsT[i0:]},
					blas32.General{Rows: dims, Cols: cols, Stride: n, Data: featsT[j0:]},
					0, blas32.General{Rows: rows, Cols: cols, Stride: cols, Data: c[:rows*cols]})
				for r := range rows {
					i := i0 + r
					worstI := nb.dist[i*k+k-1]
					row := c[r*cols : (r+1)*cols]
					ni := norms[i]
					first := max(0, i+1-j0) // each pair once (j > i), no sample with itself
					for s := first; s < cols; s++ {
						j := j0 + s
						d := ni + norms[j] + row[s]
						if d < worstI {
							nb.of(i).push(int32(j), max(0, d))
							worstI = nb.dist[i*k+k-1]
						}
						if d < nb.dist[j*k+k-1] {
							nb.of(j).push(int32(i), max(0, d))
						}
					}
				}
				mu.Lock()
				done++
				if progress != nil {
					progress(float64(done) / float64(total))
				}
				mu.Unlock()
			}
		}()
	}
	for i0 := 0; i0 < n; i0 += rowBlock {
		for j0 := (i0 / colBlock) * colBlock; j0 < n; j0 += colBlock {
			jobs <- job{i0, j0}
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := lists[0]
	for _, other := range lists[1:] {
		for i := range n {
			t := out.of(i)
			o := other.of(i)
			for m := range k {
				if o.idx[m] >= 0 {
					t.push(o.idx[m], o.dist[m])
				}
			}
		}
	}
	return out, nil
}

func newNeighbours(n, k int) *neighbours {
	nb := &neighbours{k: k, idx: make([]int32, n*k), dist: make([]float32, n*k)}
	for i := range nb.idx {
		nb.idx[i] = -1
		nb.dist[i] = float32(math.Inf(1))
	}
	return nb
}
