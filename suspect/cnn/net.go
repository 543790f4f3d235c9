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

// work holds one batch's activations and gradients: every buffer channel-first over the batch
// ([channel][sample][row][col]) so a convolution is one matrix product with its im2col matrix.
type work struct {
	b                  int       // batch capacity
	x                  []float32 // b×784 inputs, 0–1
	col1               []float32 // 25×(b·576): im2col of the inputs
	z1                 []float32 // c1×(b·576): conv1 after ReLU
	a1                 []float32 // c1×(b·144): pooled
	arg1               []uint8   // c1×(b·144): which of the 2×2 window was the max
	col2               []float32 // (c1·25)×(b·64): im2col of a1; reused for its gradient
	z2                 []float32 // c2×(b·64): conv2 after ReLU
	a2                 []float32 // c2×(b·16)
	arg2               []uint8
	h                  []float32 // b×384: a2 per sample, channel-major
	z3                 []float32 // b×hidden after ReLU
	out                []float32 // b×classes: probabilities
	grad               *Net      // gradient views (training only)
	da1, dz1, dz2, dz3 []float32
	da2, dh, dout      []float32
}

func newWork(n *Net, b int, train bool) *work {
	w := &work{b: b,
		x: make([]float32, b*Pixels), col1: make([]float32, kk*b*s1*s1), z1: make([]float32, c1*b*s1*s1),
		a1: make([]float32, c1*b*q1*q1), arg1: make([]uint8, c1*b*q1*q1),
		col2: make([]float32, c1*kk*b*s2*s2), z2: make([]float32, c2*b*s2*s2),
		a2: make([]float32, c2*b*q2*q2), arg2: make([]uint8, c2*b*q2*q2),
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

// forward computes the class probabilities of the first b inputs in w.x into w.out (b×classes).
func (n *Net) forward(w *work, b int) {
	// conv1: im2col, then W1 (c1×25) × col1 (25×b·576).
	np1 := b * s1 * s1
	for ky := range kern {
		for kx := range kern {
			row := w.col1[(ky*kern+kx)*np1:]
			for s := range b {
				img := w.x[s*Pixels:]
				dst := row[s*s1*s1:]
				for oy := range s1 {
					copy(dst[oy*s1:oy*s1+s1], img[(oy+ky)*Side+kx:])
				}
			}
		}
	}
	gemm.Mul(blas.NoTrans, blas.NoTrans, c1, np1, kk, n.w1, kk, w.col1, np1, w.z1, np1)
	biasReLU(w.z1, n.b1, np1)
	maxPool(w.z1, w.a1, w.arg1, c1*b, s1)

	// conv2: im2col of a1 (c1 channels of b×12×12), then W2 (c2×300) × col2 (300×b·64).
	np2 := b * s2 * s2
	for c := range c1 {
		for ky := range kern {
			for kx := range kern {
				row := w.col2[((c*kern+ky)*kern+kx)*np2:]
				for s := range b {
					src := w.a1[(c*b+s)*q1*q1:]
					dst := row[s*s2*s2:]
					for oy := range s2 {
						copy(dst[oy*s2:oy*s2+s2], src[(oy+ky)*q1+kx:])
					}
				}
			}
		}
	}
	gemm.Mul(blas.NoTrans, blas.NoTrans, c2, np2, c1*kk, n.w2, c1*kk, w.col2, np2, w.z2, np2)
	biasReLU(w.z2, n.b2, np2)
	maxPool(w.z2, w.a2, w.arg2, c2*b, s2)

	// a2 [c][s][16] → h [s][c·16].
	for c := range c2 {
		for s := range b {
			copy(w.h[s*flat+c*q2*q2:s*flat+(c+1)*q2*q2], w.a2[(c*b+s)*q2*q2:])
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
			copy(w.da2[(c*b+s)*q2*q2:(c*b+s+1)*q2*q2], w.dh[s*flat+c*q2*q2:])
		}
	}
	// conv2.
	np2 := b * s2 * s2
	unpool(w.da2, w.arg2, w.z2, w.dz2, c2*b, s2)
	gemm.Mul(blas.NoTrans, blas.Trans, c2, c1*kk, np2, w.dz2, np2, w.col2, np2, g.w2, c1*kk)
	rowSum(w.dz2, g.b2, c2, np2)
	dcol := w.col2 // no longer needed: reuse for the gradient of the im2col matrix
	gemm.Mul(blas.Trans, blas.NoTrans, c1*kk, np2, c2, n.w2, c1*kk, w.dz2, np2, dcol, np2)
	clear(w.da1[:c1*b*q1*q1])
	for c := range c1 {
		for ky := range kern {
			for kx := range kern {
				row := dcol[((c*kern+ky)*kern+kx)*np2:]
				for s := range b {
					dst := w.da1[(c*b+s)*q1*q1:]
					src := row[s*s2*s2:]
					for oy := range s2 {
						d, v := (*[s2]float32)(dst[(oy+ky)*q1+kx:]), (*[s2]float32)(src[oy*s2:])
						for ox := range s2 {
							d[ox] += v[ox]
						}
					}
				}
			}
		}
	}
	// conv1 (no gradient for the inputs).
	np1 := b * s1 * s1
	unpool(w.da1, w.arg1, w.z1, w.dz1, c1*b, s1)
	gemm.Mul(blas.NoTrans, blas.Trans, c1, kk, np1, w.dz1, np1, w.col1, np1, g.w1, kk)
	rowSum(w.dz1, g.b1, c1, np1)
	return loss
}

// biasReLU adds bias[c] to row c (length np) of z and applies ReLU in place.
func biasReLU(z, bias []float32, np int) {
	for c, bc := range bias {
		r := z[c*np : (c+1)*np]
		for i, v := range r {
			r[i] = max(v+bc, 0)
		}
	}
}

// maxPool pools m maps of side×side (in) into m maps of side/2×side/2 (out), recording which
// of each 2×2 window was the maximum (0–3, row-major; the first on ties).
func maxPool(in, out []float32, arg []uint8, m, side int) {
	half := side / 2
	for p := range m {
		src := in[p*side*side : (p+1)*side*side]
		dst := out[p*half*half : (p+1)*half*half]
		a := arg[p*half*half : (p+1)*half*half]
		for y := range half {
			r0, r1 := src[2*y*side:(2*y+1)*side], src[(2*y+1)*side:(2*y+2)*side]
			for x := range half {
				best, at := r0[2*x], uint8(0)
				if v := r0[2*x+1]; v > best {
					best, at = v, 1
				}
				if v := r1[2*x]; v > best {
					best, at = v, 2
				}
				if v := r1[2*x+1]; v > best {
					best, at = v, 3
				}
				dst[y*half+x], a[y*half+x] = best, at
			}
		}
	}
}

// unpool routes the pooled gradient dout back to the maximum of each window, through the ReLU
// (zero where the activation z was 0), into din (m maps of side×side).
func unpool(dout []float32, arg []uint8, z, din []float32, m, side int) {
	half := side / 2
	clear(din[:m*side*side])
	for p := range m {
		for y := range half {
			for x := range half {
				i := p*half*half + y*half + x
				a := int(arg[i])
				at := p*side*side + (2*y+a/2)*side + 2*x + a%2
				if z[at] > 0 {
					din[at] = dout[i]
				}
			}
		}
	}
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

func rowSum(a, out []float32, rows, cols int) {
	for r := range rows {
		var s float64
		for _, v := range a[r*cols : (r+1)*cols] {
			s += float64(v)
		}
		out[r] = float32(s)
	}
}
