package cnn

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"idxlabel/internal/parallel"
)

// Samples are the images a network trains on or predicts: Pixels(i) returns sample i's 784
// pixels (28×28, row-major, 0 background – 255 ink; it is called from one goroutine per network
// and must not change), Labels[i] its class, 0 to classes−1 (read only for the samples trained on).
type Samples struct {
	Pixels func(i int) []byte
	Labels []int
}

// Config is the training recipe. The zero value is the recipe measured on MNIST: 12 epochs of
// batches of 64, Adam (β2 0.999, ε 1e-8) with a one-cycle learning rate peaking at 2e-3, a
// random affine augmentation of every sample drawn, and one-hot targets.
type Config struct {
	Epochs    int     // passes over the training samples (default 12)
	Batch     int     // samples per optimizer step (default 64)
	MaxLR     float64 // peak learning rate of the one-cycle schedule (default 2e-3)
	NoAugment bool    // train on the pixels as they are
	// LabelSmoothing is the share ε, 0–1, of each target spread evenly over the classes: the
	// target is (1−ε)·one-hot + ε/Classes (0: one-hot; 0.1 gives 0.91 and 0.01 for 10 classes).
	LabelSmoothing float64
	// Start (nil: none) is a trained network to start from (fine-tuning): the new network takes
	// a copy of its convolutions and first fully connected layer, and of its last layer too
	// when it has as many classes (otherwise the last layer is drawn anew). Start is not changed.
	Start *Net
	// WarpScale (0 or less: 1) multiplies the ranges of the random affine augmentation: the
	// rotation's, the scale's distance from 1 and the shift's (each draw as for 1, then
	// scaled; 1.5: ±15°, scale 0.85–1.15, ±3 pixels). Ignored with NoAugment.
	WarpScale float64
}

func (c Config) withDefaults() Config {
	if c.Epochs <= 0 {
		c.Epochs = 12
	}
	if c.Batch <= 0 {
		c.Batch = 64
	}
	if c.MaxLR <= 0 {
		c.MaxLR = 2e-3
	}
	return c
}

// Steps returns the optimizer steps Train takes for n training samples: epochs × ⌈n/batch⌉.
func (c Config) Steps(n int) int {
	c = c.withDefaults()
	return c.Epochs * ((n + c.Batch - 1) / c.Batch)
}

// Train trains a new network with classes outputs on the samples listed in train (indices into
// s), by minimising the mean cross-entropy with Adam under the one-cycle schedule. Every random
// choice (initial weights, the order of each epoch, each augmentation) is drawn from rng, in
// order, so the same rng state gives the same network. progress (may be nil) is called after
// every step with the steps done and the steps in all. Errors: classes out of 2–MaxClasses, no
// training samples, label smoothing outside [0, 1), or the context's error when it is cancelled
// (checked every step).
func Train(ctx context.Context, s Samples, train []int, classes int, cfg Config, rng *rand.Rand, progress func(step, steps int)) (*Net, error) {
	cfg = cfg.withDefaults()
	n, err := newNet(classes, rng)
	if err != nil {
		return nil, err
	}
	if cfg.Start != nil {
		keep := len(n.params) - len(n.w4) - len(n.b4) // every layer below the last
		if cfg.Start.Classes == classes {
			keep = len(n.params)
		}
		copy(n.params[:keep], cfg.Start.params)
	}
	if len(train) == 0 {
		return nil, errNoSamples
	}
	if !(cfg.LabelSmoothing >= 0 && cfg.LabelSmoothing < 1) {
		return nil, fmt.Errorf("label smoothing %v is outside 0–1", cfg.LabelSmoothing)
	}
	// Each batch is computed in two fixed halves (shards) on two goroutines and their gradients
	// summed: the arithmetic does not depend on how many cores run them. A shard passes its
	// samples through the network a chunk at a time, so the buffers stay small.
	half := (cfg.Batch + 1) / 2
	var shards [2]*shard
	for k := range shards {
		shards[k] = &shard{w: newWork(n, min(chunk, half), true), acc: make([]float32, len(n.params)),
			y: make([]int, min(chunk, half)), aug: make([][4]float64, half)}
	}
	opt := newAdam(len(n.params))
	eps := float32(cfg.LabelSmoothing)
	order := append([]int(nil), train...)
	steps, step := cfg.Steps(len(train)), 0
	for range cfg.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for at := 0; at < len(order); at += cfg.Batch {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			batch := order[at:min(at+cfg.Batch, len(order))]
			h := (len(batch) + 1) / 2
			shards[0].batch, shards[1].batch = batch[:h], batch[h:]
			for _, sh := range shards { // the random draws, in sample order
				for k := range sh.batch {
					sh.aug[k] = drawAffine(rng)
					if cfg.WarpScale > 0 && cfg.WarpScale != 1 {
						sh.aug[k] = scaleAffine(sh.aug[k], cfg.WarpScale)
					}
				}
			}
			inv := 1 / float32(len(batch))
			err := parallel.Each(ctx, len(shards), parallel.Options{Workers: len(shards)}, func(k, _ int) error {
				shards[k].run(n, s, inv, eps, !cfg.NoAugment)
				return nil
			})
			if err != nil {
				return nil, err
			}
			lr, beta1 := oneCycle(step, steps, cfg.MaxLR)
			opt.step(n.params, shards[0].acc, shards[1].acc, lr, beta1)
			step++
			if progress != nil {
				progress(step, steps)
			}
		}
	}
	return n, nil
}

// chunk is how many samples pass through the network at once in training: its buffers take
// about 216 KB per sample (mostly the im2col matrices), so 2 shards × 8 samples need 3.5 MB.
const chunk = 8

// shard is one half of a batch: its samples, their augmentations, its buffers and its gradient.
type shard struct {
	w     *work
	acc   []float32 // the gradient of the shard's samples, scaled by inv
	batch []int
	y     []int
	aug   [][4]float64
}

// run computes the shard's gradient (scaled by inv) into acc, chunk by chunk in sample order.
func (sh *shard) run(n *Net, s Samples, inv, eps float32, augmented bool) {
	if len(sh.batch) == 0 {
		clear(sh.acc)
	}
	for at := 0; at < len(sh.batch); at += chunk {
		part := sh.batch[at:min(at+chunk, len(sh.batch))]
		for k, i := range part {
			if augmented {
				a := sh.aug[at+k]
				warp(sh.w.img, sh.w.pad, s.Pixels(i), a[0], a[1], a[2], a[3])
			} else {
				scale(sh.w.img, s.Pixels(i))
			}
			sh.w.setInput(k)
			sh.y[k] = s.Labels[i]
		}
		n.forward(sh.w, len(part))
		n.backward(sh.w, len(part), sh.y, inv, eps)
		if at == 0 {
			copy(sh.acc, sh.w.grad.params)
		} else {
			addTo(sh.acc, sh.w.grad.params)
		}
	}
}

// Probabilities writes the class probabilities of the samples listed in idx (no augmentation)
// into out, len(idx)×Classes, row k for idx[k]. Errors: the context's error when cancelled
// (checked every 8 samples).
func (n *Net) Probabilities(ctx context.Context, s Samples, idx []int, out []float32) error {
	return n.Outputs(ctx, s, idx, out, nil)
}

// Outputs writes, for the samples listed in idx (no augmentation), their class probabilities
// into probs (len(idx)×Classes, row k for idx[k]) and, when feats is not nil, their Features
// penultimate activations (the fully connected layer after ReLU) into feats
// (len(idx)×Features). Either may be nil. A row's values do not depend on the other samples
// listed. Errors: the context's error when cancelled (checked every 8 samples).
func (n *Net) Outputs(ctx context.Context, s Samples, idx []int, probs, feats []float32) error {
	return n.outputs(ctx, s, idx, probs, feats, noShift)
}

// noShift is the identity translation alone; Shifts9 are the 3×3 whole-pixel translations.
var (
	noShift = [][2]int{{0, 0}}
	// Shifts9 lists the translations (dx, dy) ∈ {−1, 0, 1}² ShiftedProbabilities averages over.
	Shifts9 = [][2]int{{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}}
)

// ShiftedProbabilities writes into out (len(idx)×Classes) each listed sample's class
// probabilities averaged over the translations of Shifts9 (test-time augmentation: pixels
// shifted in from outside are 0), in that order. Errors: the context's error when cancelled.
func (n *Net) ShiftedProbabilities(ctx context.Context, s Samples, idx []int, out []float32) error {
	return n.outputs(ctx, s, idx, out, nil, Shifts9)
}

// outputs computes probs (averaged over the shifts, in order) and feats (of the first shift).
func (n *Net) outputs(ctx context.Context, s Samples, idx []int, probs, feats []float32, shifts [][2]int) error {
	const b = chunk // samples per pass: 1.7 MB of buffers, in L2 (16 at once took 19 µs a sample, 8 take 12)
	w := newWork(n, b, false)
	k := n.Classes
	inv := 1 / float32(len(shifts))
	for at := 0; at < len(idx); at += b {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch := idx[at:min(at+b, len(idx))]
		for r, sh := range shifts {
			for m, i := range batch {
				shifted(w.img, s.Pixels(i), sh[0], sh[1])
				w.setInput(m)
			}
			n.forward(w, len(batch))
			if probs != nil {
				dst := probs[at*k : (at+len(batch))*k]
				switch {
				case len(shifts) == 1:
					copy(dst, w.out)
				case r == 0:
					for j := range dst {
						dst[j] = w.out[j] * inv
					}
				default:
					for j := range dst {
						dst[j] += w.out[j] * inv
					}
				}
			}
			if feats != nil && r == 0 {
				copy(feats[at*Features:], w.z3[:len(batch)*Features])
			}
		}
	}
	return nil
}

// Predict returns the class probabilities (Classes values summing to 1) of one 28×28 image
// (784 pixels, 0–255). It allocates its own buffers, so it may run concurrently.
func (n *Net) Predict(pixels []byte) []float32 {
	w := newWork(n, 1, false)
	scale(w.img, pixels)
	w.setInput(0)
	n.forward(w, 1)
	return w.out
}

// scale writes the pixels divided by 255.
func scale(dst []float32, src []byte) {
	for i, v := range src[:Pixels] {
		dst[i] = float32(v) * (1.0 / 255)
	}
}

// shifted writes the pixels divided by 255 and translated by dx columns and dy rows (right and
// down for positive values); pixels shifted in from outside are 0.
func shifted(dst []float32, src []byte, dx, dy int) {
	if dx == 0 && dy == 0 {
		scale(dst, src)
		return
	}
	clear(dst[:Pixels])
	for y := max(0, dy); y < min(Side, Side+dy); y++ {
		row, from := dst[y*Side:(y+1)*Side], src[(y-dy)*Side:(y-dy+1)*Side]
		for x := max(0, dx); x < min(Side, Side+dx); x++ {
			row[x] = float32(from[x-dx]) * (1.0 / 255)
		}
	}
}

// The augmentation's ranges: rotation ±10°, scale 0.9–1.1, shift ±2 pixels on each axis.
const (
	maxRotate = 10 * math.Pi / 180
	minScale  = 0.9
	maxScale  = 1.1
	maxShift  = 2.0
)

// drawAffine draws a random affine transform for warp: a rotation about the image centre
// (radians), a scaling and a shift (pixels, x then y), each uniform over the ranges above.
func drawAffine(rng *rand.Rand) [4]float64 {
	theta := (2*rng.Float64() - 1) * maxRotate
	sc := minScale + rng.Float64()*(maxScale-minScale)
	tx := (2*rng.Float64() - 1) * maxShift
	ty := (2*rng.Float64() - 1) * maxShift
	return [4]float64{theta, sc, tx, ty}
}

// scaleAffine widens (f > 1) or narrows an affine draw [θ, s, tx, ty] about the identity: θ,
// s − 1, tx and ty times f.
func scaleAffine(a [4]float64, f float64) [4]float64 {
	return [4]float64{a[0] * f, 1 + (a[1]-1)*f, a[2] * f, a[3] * f}
}

// warp maps output pixel p to source point R(−θ)(p − c − t)/s + c (c the centre, 13.5) and
// samples src there bilinearly (0 outside), scaled to 0–1. pad (nil, or warpPad zeros: 30 rows
// of 32, of which warp writes only rows 1–28, columns 1–28) lets it run the AVX2 kernel, in
// float32 arithmetic; otherwise it computes in float64.
func warp(dst, pad []float32, src []byte, theta, sc, tx, ty float64) {
	const c = (Side - 1) / 2.0
	cos, sin := math.Cos(theta)/sc, math.Sin(theta)/sc
	if avx2 && len(pad) >= warpPad {
		// The source point of output (x, y) is (A·X + B·Y + C, −B·X + A·Y + D), X = x − c and
		// Y = y − c; the kernel takes C and D plus 1 (the tap's place in pad).
		coef := [4]float32{float32(cos), float32(sin), float32(c - cos*tx - sin*ty + 1), float32(c + sin*tx - cos*ty + 1)}
		warpAVX2(&dst[:Pixels][0], &src[:Pixels][0], &pad[0], &coef, &warpXs, &warpYs)
		return
	}
	const w = Side + 2 // the source with a border of zeros: no tap needs a bounds check
	var buf [w * w]float64
	for y := range Side {
		row := buf[(y+1)*w+1 : (y+1)*w+1+Side]
		for x, v := range src[y*Side : (y+1)*Side] {
			row[x] = float64(v)
		}
	}
	for y := range Side {
		dy := float64(y) - c - ty
		out := dst[y*Side : (y+1)*Side]
		for x := range Side {
			dx := float64(x) - c - tx
			sx := cos*dx + sin*dy + c
			sy := -sin*dx + cos*dy + c
			// Truncation of a positive number is its floor; below −32 it may be off by one,
			// but such a point is far outside the image and gets 0 either way.
			ix, iy := int(sx+32)-32, int(sy+32)-32
			if uint(ix+1) > Side || uint(iy+1) > Side {
				out[x] = 0 // every tap is outside the image
				continue
			}
			fx, fy := sx-float64(ix), sy-float64(iy)
			at := (iy+1)*w + ix + 1
			p := buf[at : at+w+2]
			v := (1-fy)*((1-fx)*p[0]+fx*p[1]) + fy*((1-fx)*p[w]+fx*p[w+1])
			out[x] = float32(v / 255)
		}
	}
}

// warpPad is the size of warp's padded source: 30 rows of 32 (28 pixels and a border of zeros).
const warpPad = 30 * 32

// warpXs and warpYs are x − 13.5 and y − 13.5 of each output pixel, row-major (warpAVX2 reads
// them).
var warpXs, warpYs = func() (xs, ys [Pixels]float32) {
	for i := range Pixels {
		xs[i], ys[i] = float32(i%Side)-13.5, float32(i/Side)-13.5
	}
	return
}()

// oneCycle returns the learning rate and Adam's β1 for step (0-based) of steps: the one-cycle
// policy of Smith (2018) as PyTorch's OneCycleLR computes it with its defaults: 15% of the steps
// anneal the rate by a cosine from max/25 up to max while β1 falls from 0.95 to 0.85, the rest
// anneal it down to max/25/10⁴ while β1 rises back to 0.95.
func oneCycle(step, steps int, maxLR float64) (lr, beta1 float64) {
	anneal := func(from, to, pct float64) float64 { return to + (from-to)/2*(math.Cos(math.Pi*pct)+1) }
	start, end := maxLR/25, maxLR/25/1e4
	up := 0.15*float64(steps) - 1
	if s := float64(step); s <= up {
		pct := s / up
		return anneal(start, maxLR, pct), anneal(0.95, 0.85, pct)
	}
	pct := (float64(step) - up) / (float64(steps-1) - up)
	return anneal(maxLR, end, pct), anneal(0.85, 0.95, pct)
}

// adam is the Adam optimizer (Kingma & Ba 2015) with β2 0.999 and ε 1e-8, its bias correction
// taken with the current β1 as PyTorch does when β1 is scheduled.
type adam struct {
	m, v []float32
	t    int
}

func newAdam(n int) *adam { return &adam{m: make([]float32, n), v: make([]float32, n)} }

// step updates params with the gradient g0 + g1 (the two shards'), the two halves of the
// parameters on two goroutines (each parameter's update depends on its own values alone).
func (a *adam) step(params, g0, g1 []float32, lr, beta1 float64) {
	const beta2, eps = 0.999, 1e-8
	a.t++
	bc1 := 1 - math.Pow(beta1, float64(a.t))
	bc2 := 1 - math.Pow(beta2, float64(a.t))
	c := adamConsts{b1: float32(beta1), b2: float32(beta2), step: float32(lr / bc1), sqrtBC2: float32(math.Sqrt(bc2)), eps: eps}
	c.c1, c.c2 = 1-c.b1, 1-c.b2
	h := len(params) / 16 * 8 // a multiple of 8
	parallel.Each(context.Background(), len(params), parallel.Options{Workers: 2, Chunk: h}, func(lo, hi int) error {
		adamUpdate(params[lo:hi], g0[lo:hi], g1[lo:hi], a.m[lo:hi], a.v[lo:hi], &c)
		return nil
	})
}
