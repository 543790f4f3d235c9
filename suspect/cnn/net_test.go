package cnn

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// randomImages returns n 28×28 images of smooth random blobs (a few Gaussian strokes), so the
// network's ReLUs and max-pools see varied, image-like inputs.
func randomImages(rng *rand.Rand, n int) [][]byte {
	out := make([][]byte, n)
	for s := range out {
		img := make([]byte, Pixels)
		for range 4 {
			cx, cy, r := 6+rng.Float64()*16, 6+rng.Float64()*16, 1.5+rng.Float64()*3
			for y := range Side {
				for x := range Side {
					d := ((float64(x)-cx)*(float64(x)-cx) + (float64(y)-cy)*(float64(y)-cy)) / (r * r)
					v := float64(img[y*Side+x]) + 255*math.Exp(-d)
					img[y*Side+x] = byte(min(v, 255))
				}
			}
		}
		out[s] = img
	}
	return out
}

// TestGradient compares backward's gradient of every layer with central finite differences of
// the loss (cross-entropy against label-smoothed targets), on up to 60 parameters per layer away from ReLU and max-pool kinks (relative error
// of the vectors below 1%).
func TestGradient(t *testing.T) { bothKernels(t, testGradient) }

func testGradient(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const b, classes = 2, 7
	n, err := newNet(classes, rng)
	if err != nil {
		t.Fatal(err)
	}
	imgs := randomImages(rng, b)
	for _, img := range imgs { // noise everywhere: no ties in the max-pools
		for i := range img {
			img[i] = byte(min(int(img[i])+rng.IntN(40), 255))
		}
	}
	y := make([]int, b)
	w := newWork(n, b, true)
	for s := range b {
		scale(w.img, imgs[s])
		w.setInput(s)
		y[s] = rng.IntN(classes)
	}
	const eps = 0.1 // label smoothing: targets 0.9·one-hot + eps/classes
	loss := func() float64 {
		n.forward(w, b)
		var l float64
		for s := range b {
			for j := range classes {
				t := eps / classes
				if j == y[s] {
					t += 1 - eps
				}
				l -= t * math.Log(float64(w.out[s*classes+j]))
			}
		}
		return l / b
	}
	n.forward(w, b)
	n.backward(w, b, y, 1.0/b, eps)
	grad := append([]float32(nil), w.grad.params...)
	layers := []struct {
		name string
		p    []float32
	}{{"conv1 weights", n.w1}, {"conv1 biases", n.b1}, {"conv2 weights", n.w2}, {"conv2 biases", n.b2},
		{"fc1 weights", n.w3}, {"fc1 biases", n.b3}, {"fc2 weights", n.w4}, {"fc2 biases", n.b4}}
	off := 0
	for _, l := range layers {
		var diff, sum float64
		checked := 0
		for range 60 {
			i := rng.IntN(len(l.p))
			const h = 2e-3
			orig := l.p[i]
			at := loss()
			l.p[i] = orig + h
			up := loss()
			l.p[i] = orig - h
			down := loss()
			l.p[i] = orig
			if math.Abs(up-2*at+down) > 2e-6 {
				continue // a ReLU or max-pool kink lies within ±h: the loss is not smooth here
			}
			checked++
			num := (up - down) / (2 * h)
			ana := float64(grad[off+i])
			if testing.Verbose() {
				t.Logf("  %s[%d] num %.5g ana %.5g", l.name, i, num, ana)
			}
			diff += (num - ana) * (num - ana)
			sum += (num + ana) * (num + ana)
		}
		rel := math.Sqrt(diff / sum)
		t.Logf("%s: relative error %.2e over %d parameters", l.name, rel, checked)
		if checked < 30 {
			t.Errorf("%s: only %d of 60 parameters away from kinks", l.name, checked)
		}
		if !(rel < 1e-2) {
			t.Errorf("%s: analytic gradient differs from finite differences by %.2e (relative)", l.name, rel)
		}
		off += len(l.p)
	}
}

// TestWarpIdentity checks that the augmentation's warp with no rotation, unit scale and no
// shift reproduces the image, and that a whole-pixel shift moves it.
func TestWarpIdentity(t *testing.T) {
	img := randomImages(rand.New(rand.NewPCG(3, 4)), 1)[0]
	out := make([]float32, Pixels)
	warp(out, nil, img, 0, 1, 0, 0)
	for i, v := range img {
		if math.Abs(float64(out[i])-float64(v)/255) > 1e-5 {
			t.Fatalf("pixel %d: %v, want %v", i, out[i], float64(v)/255)
		}
	}
	warp(out, nil, img, 0, 1, 2, -1) // 2 right, 1 up
	for y := range Side {
		for x := range Side {
			want := 0.0
			if sx, sy := x-2, y+1; sx >= 0 && sy < Side {
				want = float64(img[sy*Side+sx]) / 255
			}
			if math.Abs(float64(out[y*Side+x])-want) > 1e-5 {
				t.Fatalf("shifted pixel (%d,%d): %v, want %v", x, y, out[y*Side+x], want)
			}
		}
	}
}

// TestOneCycle checks the schedule's corners: start max/25 with β1 0.95, peak max with β1 0.85
// at 15% of the steps, end max/25/10⁴ with β1 0.95.
func TestOneCycle(t *testing.T) {
	const steps, top = 1000, 2e-3
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9+1e-6*math.Abs(b) }
	if lr, b1 := oneCycle(0, steps, top); !near(lr, top/25) || !near(b1, 0.95) {
		t.Errorf("step 0: lr %g β1 %g", lr, b1)
	}
	if lr, b1 := oneCycle(149, steps, top); !near(lr, top) || !near(b1, 0.85) {
		t.Errorf("step 149: lr %g β1 %g", lr, b1)
	}
	if lr, b1 := oneCycle(steps-1, steps, top); !near(lr, top/25/1e4) || !near(b1, 0.95) {
		t.Errorf("last step: lr %g β1 %g", lr, b1)
	}
}

// TestTrainLearns trains on 600 synthetic images of two kinds (a horizontal or a vertical bar,
// at random places) and checks the network tells held-out ones apart, and that training is
// deterministic for the same seed.
func TestTrainLearns(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const n = 800
	imgs := make([][]byte, n)
	labels := make([]int, n)
	for i := range imgs {
		img := make([]byte, Pixels)
		labels[i] = i % 2
		a, b := 4+rng.IntN(20), 4+rng.IntN(12)
		for k := range 12 {
			if labels[i] == 0 {
				img[a*Side+b+k] = 255
			} else {
				img[(b+k)*Side+a] = 255
			}
		}
		imgs[i] = img
	}
	s := Samples{Pixels: func(i int) []byte { return imgs[i] }, Labels: labels}
	train, test := make([]int, 600), make([]int, 200)
	for i := range train {
		train[i] = i
	}
	for i := range test {
		test[i] = 600 + i
	}
	cfg := Config{Epochs: 6}
	net, err := Train(context.Background(), s, train, 2, cfg, rand.New(rand.NewPCG(1, 1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	probs := make([]float32, 2*len(test))
	if err := net.Probabilities(context.Background(), s, test, probs); err != nil {
		t.Fatal(err)
	}
	wrong := 0
	for k, i := range test {
		if (probs[2*k+1] > 0.5) != (labels[i] == 1) {
			wrong++
		}
	}
	if wrong > 4 {
		t.Fatalf("%d of %d held-out bars misclassified", wrong, len(test))
	}
	again, err := Train(context.Background(), s, train, 2, cfg, rand.New(rand.NewPCG(1, 1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range net.params {
		if net.params[i] != again.params[i] {
			t.Fatalf("parameter %d differs between two runs with one seed", i)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Train(ctx, s, train, 2, cfg, rand.New(rand.NewPCG(1, 1)), nil); err != context.Canceled {
		t.Fatalf("cancelled training: %v", err)
	}
}

// TestForwardMatchesNaive checks forward's layouts (window planes, reordered columns) against a
// direct computation of the network in row-major order: 5×5 convolutions, bias, ReLU, 2×2
// max-pooling, the fully connected layers and the softmax.
func TestForwardMatchesNaive(t *testing.T) { bothKernels(t, testForwardMatchesNaive) }

func testForwardMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const b, classes = 3, 10
	n, err := newNet(classes, rng)
	if err != nil {
		t.Fatal(err)
	}
	imgs := randomImages(rng, b)
	w := newWork(n, 4, false)
	for s := range b {
		scale(w.img, imgs[s])
		w.setInput(s)
	}
	n.forward(w, b)
	// conv (valid, stride 1) + bias + ReLU, then 2×2 max-pool, in float64.
	convPool := func(in [][]float64, side int, wt, bias []float32, outC int) [][]float64 {
		o := side - kern + 1
		out := make([][]float64, outC)
		for c := range outC {
			z := make([]float64, o*o)
			for y := range o {
				for x := range o {
					v := float64(bias[c])
					for ci := range in {
						for ky := range kern {
							for kx := range kern {
								v += float64(wt[((c*len(in)+ci)*kern+ky)*kern+kx]) * in[ci][(y+ky)*side+x+kx]
							}
						}
					}
					z[y*o+x] = max(v, 0)
				}
			}
			h := o / 2
			out[c] = make([]float64, h*h)
			for y := range h {
				for x := range h {
					out[c][y*h+x] = max(z[2*y*o+2*x], z[2*y*o+2*x+1], z[(2*y+1)*o+2*x], z[(2*y+1)*o+2*x+1])
				}
			}
		}
		return out
	}
	for s := range b {
		in := make([]float64, Pixels)
		for i, v := range imgs[s] {
			in[i] = float64(v) / 255
		}
		a1 := convPool([][]float64{in}, Side, n.w1, n.b1, c1)
		a2 := convPool(a1, q1, n.w2, n.b2, c2)
		var flatIn []float64
		for _, m := range a2 {
			flatIn = append(flatIn, m...)
		}
		z3 := make([]float64, hidden)
		for j := range hidden {
			v := float64(n.b3[j])
			for i, x := range flatIn {
				v += x * float64(n.w3[i*hidden+j])
			}
			z3[j] = max(v, 0)
			if got := float64(w.z3[s*hidden+j]); math.Abs(got-z3[j]) > 1e-4*(1+math.Abs(z3[j])) {
				t.Fatalf("sample %d feature %d: %v, want %v", s, j, got, z3[j])
			}
		}
		logits := make([]float64, classes)
		var sum float64
		for c := range classes {
			v := float64(n.b4[c])
			for j, x := range z3 {
				v += x * float64(n.w4[j*classes+c])
			}
			logits[c] = math.Exp(v)
			sum += logits[c]
		}
		for c := range classes {
			if got, want := float64(w.out[s*classes+c]), logits[c]/sum; math.Abs(got-want) > 1e-5 {
				t.Fatalf("sample %d class %d: probability %v, want %v", s, c, got, want)
			}
		}
	}
}

// TestWarpMatchesBilinear checks warp against a direct bilinear sampling of the transformed
// point (0 outside the image) for random augmentations and a few extreme ones, and that it
// leaves its padded source's border zero.
func TestWarpMatchesBilinear(t *testing.T) { bothKernels(t, testWarpMatchesBilinear) }

func testWarpMatchesBilinear(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	pad := make([]float32, warpPad)
	img := randomImages(rng, 1)[0]
	at := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= Side || y >= Side {
			return 0
		}
		return float64(img[y*Side+x])
	}
	params := [][4]float64{{0.5, 0.5, 10, -10}, {-0.3, 2, -40, 3}, {0, 1, 0.5, 0.25}}
	for range 20 {
		a := drawAffine(rng)
		params = append(params, a)
	}
	out := make([]float32, Pixels)
	for _, a := range params {
		warp(out, pad, img, a[0], a[1], a[2], a[3])
		const c = (Side - 1) / 2.0
		cos, sin := math.Cos(a[0])/a[1], math.Sin(a[0])/a[1]
		for y := range Side {
			for x := range Side {
				dx, dy := float64(x)-c-a[2], float64(y)-c-a[3]
				sx, sy := cos*dx+sin*dy+c, -sin*dx+cos*dy+c
				x0, y0 := math.Floor(sx), math.Floor(sy)
				fx, fy := sx-x0, sy-y0
				ix, iy := int(x0), int(y0)
				v := (1-fy)*((1-fx)*at(ix, iy)+fx*at(ix+1, iy)) + fy*((1-fx)*at(ix, iy+1)+fx*at(ix+1, iy+1))
				// float32 coordinates (the AVX2 kernel): a fraction off by up to 4e-6.
				if got := float64(out[y*Side+x]); math.Abs(got-v/255) > 1e-5 {
					t.Fatalf("augmentation %v, pixel (%d,%d): %v, want %v", a, x, y, got, v/255)
				}
			}
		}
	}
	for i, v := range pad {
		if r, c := i/32, i%32; (r == 0 || r == 29 || c == 0 || c > Side) && v != 0 {
			t.Fatalf("pad[%d] (row %d, column %d) = %v, the border must stay 0", i, r, c, v)
		}
	}
}
