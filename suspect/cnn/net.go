package cnn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"

	"idxlabel/internal/gemm"
)

// The network's fixed shapes (pixels and channels). Convolutions are "valid" (no padding), stride 1.
const (
	Side   = 28              // input images are Side×Side pixels
	Pixels = Side * Side     // 784 input values per sample
	kern   = 5               // 5×5 convolution kernels
	kk     = kern * kern     // 25
	c1     = 12              // channels of the first convolution
	s1     = Side - kern + 1 // 24: its output side
	q1     = s1 / 2          // 12: after 2×2 max-pooling
	c2     = 24              // channels of the second convolution
	s2     = q1 - kern + 1   // 8
	q2     = s2 / 2          // 4
	flat   = c2 * q2 * q2    // 384 features into the first fully connected layer
	hidden = 128             // its outputs
	// Features is the width of the penultimate layer (the fully connected layer after ReLU):
	// the embedding Outputs returns for each sample.
	Features = hidden
	// MaxClasses bounds the classes a network can have (its last layer is 128×classes).
	MaxClasses = 1024
)

// Net is the network's parameters: conv 5×5→12, ReLU, max-pool 2×2; conv 5×5→24, ReLU, max-pool
// 2×2; fully connected 384→128, ReLU; 128→Classes, softmax. About 58,000 parameters for 10
// classes. A Net is read-only once trained and safe for concurrent prediction.
type Net struct {
	Classes int
	params  []float32 // every parameter, in the order of the views below
	w1, b1  []float32 // c1×25 (channel-first kernels), c1
	w2, b2  []float32 // c2×(c1·25), c2
	w3, b3  []float32 // flat×hidden (input-major), hidden
	w4, b4  []float32 // hidden×Classes, Classes
}

// paramCount returns the number of parameters of a network with the given classes.
func paramCount(classes int) int {
	return c1*kk + c1 + c2*c1*kk + c2 + flat*hidden + hidden + hidden*classes + classes
}

// newNet returns a network with every parameter drawn uniformly from ±1/√fan_in (fan_in: the
// inputs of the unit the weight or bias feeds), the default of PyTorch's layers.
func newNet(classes int, rng *rand.Rand) (*Net, error) {
	if classes < 2 || classes > MaxClasses {
		return nil, fmt.Errorf("a network needs 2 to %d classes, not %d", MaxClasses, classes)
	}
	n := &Net{Classes: classes, params: make([]float32, paramCount(classes))}
	n.views(n.params)
	fill := func(fanIn int, ps ...[]float32) {
		b := 1 / math.Sqrt(float64(fanIn))
		for _, p := range ps {
			for i := range p {
				p[i] = float32((2*rng.Float64() - 1) * b)
			}
		}
	}
	fill(kk, n.w1, n.b1)
	fill(c1*kk, n.w2, n.b2)
	fill(flat, n.w3, n.b3)
	fill(hidden, n.w4, n.b4)
	return n, nil
}

// Params returns a copy of every parameter of the network, in a fixed order (the convolutions,
// then the fully connected layers, each its weights then its biases): what NetFrom reads back.
// paramCount(Classes) values (about 58,000 for 10 classes).
func (n *Net) Params() []float32 { return append([]float32(nil), n.params...) }

// NetFrom returns the network with the given classes and parameters (Params' order, copied).
// Errors: classes out of 2–MaxClasses, a parameter count that does not fit them, or a value
// that is not a finite number (parameters read from a file are untrusted).
func NetFrom(classes int, params []float32) (*Net, error) {
	if classes < 2 || classes > MaxClasses {
		return nil, fmt.Errorf("a network needs 2 to %d classes, not %d", MaxClasses, classes)
	}
	if want := paramCount(classes); len(params) != want {
		return nil, fmt.Errorf("%d parameters for a network of %d classes, which has %d", len(params), classes, want)
	}
	for _, v := range params {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("a network parameter that is not a number")
		}
	}
	n := &Net{Classes: classes, params: append([]float32(nil), params...)}
	n.views(n.params)
	return n, nil
}

// views points the layer slices into p (same layout as params, used for gradients too).
func (n *Net) views(p []float32) {
	take := func(k int) []float32 {
		s := p[:k:k]
		p = p[k:]
		return s
	}
	n.w1, n.b1 = take(c1*kk), take(c1)
	n.w2, n.b2 = take(c2*c1*kk), take(c2)
	n.w3, n.b3 = take(flat*hidden), take(hidden)
	n.w4, n.b4 = take(hidden*n.Classes), take(n.Classes)
}

// The pooled maps' sizes per sample and channel.
const (
	l1 = q1 * q1 // 144 values after the first pooling
	l2 = q2 * q2 // 16 after the second
)

// work holds one pass's activations and gradients, every buffer channel-first over the samples
// of the pass, so a convolution is one matrix product with its im2col matrix. The columns of a
// convolution's output are ordered so that 2×2 max-pooling is elementwise: channel c's row holds
// four planes, one per position (py, px) in the pooling window, each [sample][Y][X] over the
// pooled map (output pixel (2Y+py, 2X+px)). The first pooled map (and its gradient) stores each
// row's even columns X before its odd ones (X' = (X mod 2)·6 + X/2), so the second
// convolution's im2col reads runs of 4; the input image stores each row's columns by residue
// modulo 4 (x' = (x mod 4)·7 + x/4), so the first convolution's reads runs of 6.
type work struct {
	b                  int       // batch capacity
	x                  []float32 // b×784 inputs, 0–1, columns by residue modulo 4
	img                []float32 // 784: one input in row-major order, on its way to x
	pad                []float32 // warpPad: the augmentation's zero-bordered source
	col1               []float32 // 25×(4·b·144): im2col of the inputs
	z1                 []float32 // c1×(4·b·144): conv1 before bias, four window planes
	a1                 []float32 // c1×(b·144): pooled, plus bias, ReLU; columns even first
	arg1               []int32   // c1×(b·144): the window plane of each maximum (0–3)
	col2               []float32 // (c1·25)×(4·b·16): im2col of a1; reused for its gradient
	z2                 []float32 // c2×(4·b·16)
	a2                 []float32 // c2×(b·16)
	arg2               []int32
	h                  []float32 // b×384: a2 per sample, channel-major
	z3                 []float32 // b×hidden after ReLU
	out                []float32 // b×classes: probabilities
	grad               *Net      // gradient views (training only)
	da1, dz1, dz2, dz3 []float32
	da2, dh, dout      []float32
}

func newWork(n *Net, b int, train bool) *work {
	w := &work{b: b,
		x: make([]float32, b*Pixels), img: make([]float32, Pixels), pad: make([]float32, warpPad), col1: make([]float32, kk*b*s1*s1), z1: make([]float32, c1*b*s1*s1),
		a1: make([]float32, c1*b*l1), arg1: make([]int32, c1*b*l1),
		col2: make([]float32, c1*kk*b*s2*s2), z2: make([]float32, c2*b*s2*s2),
		a2: make([]float32, c2*b*l2), arg2: make([]int32, c2*b*l2),
		h: make([]float32, b*flat), z3: make([]float32, b*hidden), out: make([]float32, b*n.Classes),
	}
	if train {
		w.grad = &Net{Classes: n.Classes, params: make([]float32, len(n.params))}
		w.grad.views(w.grad.params)
		w.da1, w.dz1, w.dz2, w.dz3 = make([]float32, len(w.a1)), make([]float32, len(w.z1)), make([]float32, len(w.z2)), make([]float32, len(w.z3))
		w.da2, w.dh, w.dout = make([]float32, len(w.a2)), make([]float32, len(w.h)), make([]float32, len(w.out))
	}
	return w
}

// mod4 maps an input column x to its place in a row of w.x: (x mod 4)·7 + x/4.
var mod4 = func() (m [Side]int) {
	for x := range m {
		m[x] = (x%4)*(Side/4) + x/4
	}
	return
}()

// setInput copies w.img (784 values, row-major, 0–1) into w.x as sample s, in its column order.
func (w *work) setInput(s int) {
	dst := w.x[s*Pixels : (s+1)*Pixels]
	for y := range Side {
		row, d := w.img[y*Side:(y+1)*Side], dst[y*Side:(y+1)*Side]
		for x, v := range row {
			d[mod4[x]] = v
		}
	}
}

// forward computes the class probabilities of the first b inputs in w.x into w.out (b×classes).
func (n *Net) forward(w *work, b int) {
	// conv1: im2col, then W1 (c1×25) × col1 (25×4·b·144). Output (2Y+py, 2X+px) with
	// X = 2m+e (stored at X' = 6e+m) reads input column 4m + r, r = 2e+px+kx: residue r mod 4,
	// from place m + r/4, six in a row.
	p1 := b * l1 // one window plane
	np1 := 4 * p1
	for ky := range kern {
		for kx := range kern {
			row := w.col1[(ky*kern+kx)*np1:]
			for q := range 4 {
				py, px := q/2, q%2
				for e := range 2 {
					r := 2*e + px + kx
					im2colRuns6(row[q*p1+6*e:(q+1)*p1], w.x[(py+ky)*Side+(r%4)*(Side/4)+r/4:], b)
				}
			}
		}
	}
	gemm.Mul(blas.NoTrans, blas.NoTrans, c1, np1, kk, n.w1, kk, w.col1, np1, w.z1, np1)
	for c := range c1 {
		poolReLU(w.z1[c*np1:(c+1)*np1], p1, n.b1[c], w.a1[c*p1:(c+1)*p1], w.arg1[c*p1:(c+1)*p1])
	}

	// conv2: im2col of a1 (c1 channels of b×144), then W2 (c2×300) × col2 (300×4·b·16). Output
	// (2Y+py, 2X+px) reads a1's column 2X + px+kx: parity r = px+kx, place 6(r mod 2) + X + r/2.
	p2 := b * l2
	np2 := 4 * p2
	for c := range c1 {
		for ky := range kern {
			for kx := range kern {
				row := w.col2[((c*kern+ky)*kern+kx)*np2:]
				for q := range 4 {
					py, px := q/2, q%2
					r := px + kx
					off := (r%2)*6 + r/2
					im2colRuns(row[q*p2:(q+1)*p2], w.a1[c*b*l1+(py+ky)*q1+off:], b)
				}
			}
		}
	}
	gemm.Mul(blas.NoTrans, blas.NoTrans, c2, np2, c1*kk, n.w2, c1*kk, w.col2, np2, w.z2, np2)
	for c := range c2 {
		poolReLU(w.z2[c*np2:(c+1)*np2], p2, n.b2[c], w.a2[c*p2:(c+1)*p2], w.arg2[c*p2:(c+1)*p2])
	}

	// a2 [c][s][16] → h [s][c·16].
	for c := range c2 {
		for s := range b {
			copy(w.h[s*flat+c*l2:s*flat+(c+1)*l2], w.a2[(c*b+s)*l2:])
		}
	}
	gemm.Mul(blas.NoTrans, blas.NoTrans, b, hidden, flat, w.h, flat, n.w3, hidden, w.z3, hidden)
	for s := range b {
		z := w.z3[s*hidden : (s+1)*hidden]
		for j := range z {
			z[j] = max(z[j]+n.b3[j], 0)
		}
	}
	k := n.Classes
	gemm.Mul(blas.NoTrans, blas.NoTrans, b, k, hidden, w.z3, hidden, n.w4, k, w.out, k)
	for s := range b {
		softmax(w.out[s*k:(s+1)*k], n.b4)
	}
}

// backward computes into w.grad the gradient of inv × the summed cross-entropy of the first b
// samples (classes y) after forward (inv = 1/batch size gives the batch mean), and returns the
// summed loss. The targets are smoothed by eps (Szegedy et al. 2016, as PyTorch's
// label_smoothing): (1−eps)·one-hot + eps/Classes, so the gradient at the logits is p − target.
func (n *Net) backward(w *work, b int, y []int, inv, eps float32) float64 {
	g, k := w.grad, n.Classes
	var loss float64
	off := eps / float32(k) // every class's share of the smoothing
	for s := range b {
		p, d := w.out[s*k:(s+1)*k], w.dout[s*k:(s+1)*k]
		for j := range p {
			t := off
			if j == y[s] {
				t += 1 - eps
			}
			loss -= float64(t) * math.Log(max(float64(p[j]), 1e-30))
			d[j] = (p[j] - t) * inv
		}
	}
	// 128→classes.
	gemm.Mul(blas.Trans, blas.NoTrans, hidden, k, b, w.z3, hidden, w.dout, k, g.w4, k)
	colSum(w.dout, g.b4, b, k)
	gemm.Mul(blas.NoTrans, blas.Trans, b, hidden, k, w.dout, k, n.w4, k, w.dz3, hidden)
	for i, v := range w.z3[:b*hidden] {
		if v <= 0 {
			w.dz3[i] = 0
		}
	}
	// 384→128.
	gemm.Mul(blas.Trans, blas.NoTrans, flat, hidden, b, w.h, flat, w.dz3, hidden, g.w3, hidden)
	colSum(w.dz3, g.b3, b, hidden)
	gemm.Mul(blas.NoTrans, blas.Trans, b, flat, hidden, w.dz3, hidden, n.w3, hidden, w.dh, flat)
	for c := range c2 {
		for s := range b {
			copy(w.da2[(c*b+s)*l2:(c*b+s+1)*l2], w.dh[s*flat+c*l2:])
		}
	}
	// conv2.
	p2 := b * l2
	np2 := 4 * p2
	for c := range c2 {
		g.b2[c] = unpoolReLU(w.da2[c*p2:(c+1)*p2], w.a2[c*p2:(c+1)*p2], w.arg2[c*p2:(c+1)*p2], w.dz2[c*np2:(c+1)*np2], p2)
	}
	gemm.Mul(blas.NoTrans, blas.Trans, c2, c1*kk, np2, w.dz2, np2, w.col2, np2, g.w2, c1*kk)
	dcol := w.col2 // no longer needed: reuse for the gradient of the im2col matrix
	gemm.Mul(blas.Trans, blas.NoTrans, c1*kk, np2, c2, n.w2, c1*kk, w.dz2, np2, dcol, np2)
	// col2im: the im2col reads of conv2, as sums.
	clear(w.da1[:c1*b*l1])
	for c := range c1 {
		for ky := range kern {
			for kx := range kern {
				row := dcol[((c*kern+ky)*kern+kx)*np2:]
				for q := range 4 {
					py, px := q/2, q%2
					r := px + kx
					off := (r%2)*6 + r/2
					col2imRuns(w.da1[c*b*l1+(py+ky)*q1+off:], row[q*p2:(q+1)*p2], b)
				}
			}
		}
	}
	// conv1 (no gradient for the inputs).
	p1 := b * l1
	np1 := 4 * p1
	for c := range c1 {
		g.b1[c] = unpoolReLU(w.da1[c*p1:(c+1)*p1], w.a1[c*p1:(c+1)*p1], w.arg1[c*p1:(c+1)*p1], w.dz1[c*np1:(c+1)*np1], p1)
	}
	gemm.Mul(blas.NoTrans, blas.Trans, c1, kk, np1, w.dz1, np1, w.col1, np1, g.w1, kk)
	return loss
}

// softmax turns logits (plus bias) into probabilities in place.
func softmax(z, bias []float32) {
	m := float32(math.Inf(-1))
	for j := range z {
		z[j] += bias[j]
		m = max(m, z[j])
	}
	var sum float64
	for j, v := range z {
		e := math.Exp(float64(v - m))
		z[j] = float32(e)
		sum += e
	}
	for j := range z {
		z[j] = float32(float64(z[j]) / sum)
	}
}

func colSum(a, out []float32, rows, cols int) {
	clear(out)
	for r := range rows {
		for j, v := range a[r*cols : (r+1)*cols] {
			out[j] += v
		}
	}
}
