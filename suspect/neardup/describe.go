package neardup

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"idxlabel/internal/gemm"
	"idxlabel/internal/parallel"
	"idxlabel/sample"
	"idxlabel/suspect/nn"
)

// Dims is the number of values of a descriptor (at most the pooled image's pixels).
const Dims = 48

// basisSample is the number of images the descriptor's principal axes are estimated from.
const basisSample = 5000

// Offset is the whole-pixel shift (rows, columns) that moves an image's centre of mass to the
// centre of its field (row H/2, column W/2: (14, 14) in MNIST's 28×28, where MNIST puts it),
// rounded and clamped to a quarter of the field; (0, 0) for an image without ink.
type Offset struct{ Row, Col int8 }

// Basis turns images of one size into descriptors: each image is moved so that its centre of
// mass sits at the centre of the field (by the exact, fractional shift, with bilinear
// interpolation), blurred (3×3 box), averaged over 2×2 blocks, scaled to unit length, and projected on the Dims
// principal axes of a sample of such pooled images. Two images that are the same up to a shift,
// mild noise or a change of intensity get nearly the same descriptor, so their Euclidean
// distance is small; the descriptor is also a compact embedding of the pixels (the outliers'
// pixel detector uses it). One Basis describes both sets of a leakage search.
type Basis struct {
	H, W   int
	ph, pw int       // the pooled image's size: ⌈H/2⌉×⌈W/2⌉
	dims   int       // values per descriptor
	axes   []float32 // (ph·pw)×dims, row-major
}

// Descriptors are a set's descriptors (N×Dims, nn.Vectors) and the images' Offsets.
type Descriptors struct {
	Vectors nn.Vectors
	Offsets []Offset
}

func size(d sample.Set) (h, w int, err error) {
	h, w = d.H, d.W
	if h <= 0 || w <= 0 || h*w != d.Dim() {
		return 0, 0, fmt.Errorf("samples of %d pixels are not %d×%d", d.Dim(), h, w)
	}
	if d.N > 0 && len(d.Pixels(0)) != d.Dim() {
		return 0, 0, fmt.Errorf("samples have %d pixels, not %d", len(d.Pixels(0)), d.Dim())
	}
	return h, w, nil
}

// FitBasis estimates a Basis from up to 5,000 images of d chosen with seed (all of them when
// fewer). Errors: samples whose size does not match d.H×d.W, no samples, an
// eigendecomposition that fails, or the context's error when cancelled.
func FitBasis(ctx context.Context, d sample.Set, seed uint64) (*Basis, error) {
	h, w, err := size(d)
	if err != nil {
		return nil, err
	}
	if d.N == 0 {
		return nil, fmt.Errorf("no samples to describe")
	}
	b := &Basis{H: h, W: w, ph: (h + 1) / 2, pw: (w + 1) / 2}
	pd := b.ph * b.pw
	b.dims = min(Dims, pd)
	pick := make([]int, d.N)
	for i := range pick {
		pick[i] = i
	}
	if d.N > basisSample {
		rng := rand.New(rand.NewPCG(seed, 0x6e656172647570))
		pick = rng.Perm(d.N)[:basisSample]
		slices.Sort(pick)
	}
	x := mat.NewDense(len(pick), pd, nil)
	sc := newScratch(b)
	for r, i := range pick {
		if r%256 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		b.pool(d.Pixels(i), sc)
		for k, v := range sc.pooled {
			x.Set(r, k, float64(v))
		}
	}
	// The axes of the second moments (the descriptor's distances do not depend on a mean).
	var cov mat.SymDense
	cov.SymOuterK(1/float64(len(pick)), x.T())
	var eig mat.EigenSym
	if !eig.Factorize(&cov, true) {
		return nil, fmt.Errorf("the descriptor's principal axes did not converge")
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs) // ascending eigenvalues: the leading axes are the last columns
	b.axes = make([]float32, pd*b.dims)
	for k := range pd {
		for j := range b.dims {
			b.axes[k*b.dims+j] = float32(vecs.At(k, pd-1-j))
		}
	}
	return b, nil
}

// scratch is one goroutine's buffers for pool.
type scratch struct {
	rows             []int32 // the horizontal pass of the shift, one row of W
	shifted, blurred []int32
	pooled           []float32
}

func newScratch(b *Basis) *scratch {
	return &scratch{rows: make([]int32, 2*b.W), shifted: make([]int32, b.H*b.W), blurred: make([]int32, b.H*b.W), pooled: make([]float32, b.ph*b.pw)}
}

// OffsetOf returns the Offset of one h×w image.
func OffsetOf(px []byte, h, w int) Offset {
	dy, dx, ok := centring(px, h, w)
	if !ok {
		return Offset{}
	}
	return Offset{int8(math.Round(dy)), int8(math.Round(dx))}
}

// centring returns the shift (rows, columns; fractional) that moves px's centre of mass to the
// centre of the field, clamped to a quarter of the field; false when px has no ink.
func centring(px []byte, h, w int) (dy, dx float64, ok bool) {
	var sum, sy, sx float64
	for y := range h {
		for x, v := range px[y*w : (y+1)*w] {
			sum += float64(v)
			sy += float64(v) * float64(y)
			sx += float64(v) * float64(x)
		}
	}
	if sum == 0 {
		return 0, 0, false
	}
	clamp := func(v float64, side int) float64 {
		lim := float64(side / 4)
		return max(-lim, min(lim, v))
	}
	return clamp(float64(h/2)-sy/sum, h), clamp(float64(w/2)-sx/sum, w), true
}

// pool computes px's pooled unit vector into sc.pooled and returns px's Offset. The image is
// moved by its exact (fractional) centring shift with bilinear interpolation, so that a copy
// whose centre of mass moved by a fraction of a pixel (noise) gets nearly the same vector.
// In integers, with weights in 1/16 each way: out(y, x) = (16−wy)·top + wy·bot, top and bot
// the rows sy and sy−1 (sy = y − ⌊dy⌋) each mixed as (16−wx)·in(·, sx) + wx·in(·, sx−1)
// (sx = x − ⌊dx⌋), pixels outside the field 0; then a 3×3 box sum (over the pixels inside
// the field) and 2×2 block sums. Each pass is separable, so a pixel costs a few additions.
func (b *Basis) pool(px []byte, sc *scratch) Offset {
	h, w := b.H, b.W
	dy, dx, ok := centring(px, h, w)
	o := Offset{}
	if ok {
		o = Offset{int8(math.Round(dy)), int8(math.Round(dx))}
	}
	fy, fx := math.Floor(dy), math.Floor(dx)
	iy, ix := int(fy), int(fx)
	wy, wx := int32(math.Round((dy-fy)*16)), int32(math.Round((dx-fx)*16))
	// mix writes source row sy mixed horizontally into dst (zeros for a row outside the field).
	mix := func(dst []int32, sy int) {
		if sy < 0 || sy >= h {
			clear(dst)
			return
		}
		src := px[sy*w : (sy+1)*w]
		for x := range w {
			sx := x - ix
			var v int32
			if sx >= 0 && sx < w {
				v = (16 - wx) * int32(src[sx])
			}
			if sx-1 >= 0 && sx-1 < w {
				v += wx * int32(src[sx-1])
			}
			dst[x] = v
		}
	}
	top, bot := sc.rows[:w], sc.rows[w:2*w]
	mix(top, -iy-1) // so that row y = 0 finds source row −iy−1 as the last row's top
	for y := range h {
		sy := y - iy
		top, bot = bot, top // the last row's top is this row's bottom (source row sy − 1)
		mix(top, sy)
		out := sc.shifted[y*w : (y+1)*w]
		for x := range w {
			out[x] = (16-wy)*top[x] + wy*bot[x]
		}
	}
	// The 3×3 box: columns first (into blurred), then rows (in place, one row buffer).
	for y := range h {
		out := sc.blurred[y*w : (y+1)*w]
		copy(out, sc.shifted[y*w:(y+1)*w])
		if y > 0 {
			for x, v := range sc.shifted[(y-1)*w : y*w] {
				out[x] += v
			}
		}
		if y+1 < h {
			for x, v := range sc.shifted[(y+1)*w : (y+2)*w] {
				out[x] += v
			}
		}
	}
	row := sc.rows[:w]
	for y := range h {
		in := sc.blurred[y*w : (y+1)*w]
		copy(row, in)
		for x := range w {
			v := row[x]
			if x > 0 {
				v += row[x-1]
			}
			if x+1 < w {
				v += row[x+1]
			}
			in[x] = v
		}
	}
	var norm float64
	for py := range b.ph {
		for qx := range b.pw {
			var s int64
			for yy := 2 * py; yy < min(h, 2*py+2); yy++ {
				for xx := 2 * qx; xx < min(w, 2*qx+2); xx++ {
					s += int64(sc.blurred[yy*w+xx])
				}
			}
			sc.pooled[py*b.pw+qx] = float32(s)
			norm += float64(s) * float64(s)
		}
	}
	if norm > 0 {
		inv := float32(1 / math.Sqrt(norm))
		for k := range sc.pooled {
			sc.pooled[k] *= inv
		}
	}
	return o
}

// describeBlock is how many images Describe projects with one matrix product.
const describeBlock = 256

// Describe returns the descriptors of every image of d (N×Dims) and their Offsets, using
// workers goroutines (0: one per CPU); progress (may be nil) gets the share done from one
// goroutine at a time. Memory: N·Dims float32 and 2N bytes. Errors: images of another size
// than the Basis's, or the context's error when cancelled.
func (b *Basis) Describe(ctx context.Context, d sample.Set, workers int, progress func(float64)) (*Descriptors, error) {
	h, w, err := size(d)
	if err != nil {
		return nil, err
	}
	if h != b.H || w != b.W {
		return nil, fmt.Errorf("samples of %d×%d pixels, the descriptor was fitted on %d×%d", h, w, b.H, b.W)
	}
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	out := &Descriptors{Vectors: nn.Vectors{Data: make([]float32, d.N*b.dims), N: d.N, Dim: b.dims}, Offsets: make([]Offset, d.N)}
	pd := b.ph * b.pw
	err = parallel.For(ctx, d.N, parallel.Options{Workers: workers, Chunk: describeBlock, Progress: progress}, func(context.Context) func(i0, i1 int) error {
		sc := newScratch(b)
		a := make([]float32, describeBlock*pd)
		return func(i0, i1 int) error {
			for i := i0; i < i1; i++ {
				out.Offsets[i] = b.pool(d.Pixels(i), sc)
				copy(a[(i-i0)*pd:], sc.pooled)
			}
			gemm.Mul(blas.NoTrans, blas.NoTrans, i1-i0, b.dims, pd, a, pd, b.axes, b.dims, out.Vectors.Data[i0*b.dims:], b.dims)
			return nil
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
