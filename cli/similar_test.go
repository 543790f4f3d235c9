package cli

import (
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/sample"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/scancache"
)

// scribbles writes an IDX image file of n random 28×28 scribbles (a few random strokes each)
// with sample 10 a copy of sample 200 moved one pixel right, and returns its path and pixels.
func scribbles(t *testing.T, dir string, n int) (string, *idx.Array) {
	t.Helper()
	rng := rand.New(rand.NewPCG(4, 4))
	images, _ := idx.New(idx.UByte, n, 28, 28)
	for i := range n {
		px := images.Data[i*784 : (i+1)*784]
		x, y := 4+rng.IntN(20), 4+rng.IntN(20)
		for range 40 {
			x, y = max(1, min(26, x+rng.IntN(3)-1)), max(1, min(26, y+rng.IntN(3)-1))
			px[y*28+x], px[y*28+x+1] = 255, 180
		}
	}
	for y := range 28 {
		for x := 1; x < 28; x++ {
			images.Data[10*784+y*28+x] = images.Data[200*784+y*28+x-1]
		}
		images.Data[10*784+y*28] = 0
	}
	p := filepath.Join(dir, "s-images-idx3-ubyte")
	if err := idx.WriteFile(p, images); err != nil {
		t.Fatal(err)
	}
	return p, images
}

// similar lists the samples most like a sample or an image file, a near-copy first, by pixel
// descriptors, or by a kept scan's CNN features when one of these pixels is beside the images.
func TestSimilar(t *testing.T) {
	dir := t.TempDir()
	ip, images := scribbles(t, dir, 400)
	code, out, stderr := runCLI("similar", "--k", "5", ip, "200")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 6 || lines[0] != "index,similarity" || !strings.HasPrefix(lines[1], "10,") {
		t.Fatalf("similar 200: exit %d, %q, %q", code, out, stderr)
	}
	if !strings.Contains(stderr, "by pixel descriptors") || strings.Contains(out, "\n200,") {
		t.Fatalf("similar 200: %q, %q", out, stderr)
	}
	// An image file: sample 57 as a PNG finds sample 57 first.
	g := image.NewGray(image.Rect(0, 0, 28, 28))
	copy(g.Pix, images.Data[57*784:58*784])
	pngPath := filepath.Join(dir, "q.png")
	f, _ := os.Create(pngPath)
	png.Encode(f, g)
	f.Close()
	if code, out, stderr := runCLI("similar", "--k", "3", ip, pngPath); code != 0 || !strings.HasPrefix(out, "index,similarity\n57,1.0000\n") {
		t.Fatalf("similar PNG: exit %d, %q, %q", code, out, stderr)
	}
	// A kept scan of these pixels (whatever its settings): its features answer.
	n := images.Dims[0]
	d := sample.Set{N: n, H: 28, W: 28, Labels: make([]int, n), Pixels: func(i int) []byte { return images.Data[i*784 : (i+1)*784] }}
	e := &scancache.Entry{Classes: []int{0, 1}, Probs: make([]float32, 2*n), Features: make([]float32, n*cnn.Features), Pixels: scancache.PixelsOf(d)}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		e.Probs[2*i] = 1
		for c := range cnn.Features {
			e.Features[i*cnn.Features+c] = float32(rng.Float64())
		}
	}
	if err := scancache.Store(ip+scancache.Suffix, scancache.Key{7}, e); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runCLI("similar", "--k", "4", ip, "200")
	if code != 0 || !strings.Contains(stderr, "by the CNN's features") || !strings.HasPrefix(out, "index,similarity\n10,") {
		t.Fatalf("similar with a kept scan: exit %d, %q, %q", code, out, stderr)
	}
	for _, args := range [][]string{
		{"similar", ip, "400"},
		{"similar", ip, "-1"},
		{"similar", "--k", "0", ip, "3"},
	} {
		if code, _, stderr := runCLI(args...); code != 2 {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
	if code, _, stderr := runCLI("similar", ip, filepath.Join(dir, "none.png")); code != 1 || !strings.Contains(stderr, "none.png") {
		t.Errorf("a missing image: exit %d, %q", code, stderr)
	}
}

// TestSimilarHugeK: --k above the samples' count lists every other sample, and the search
// allocates for the samples there are, not for the k asked (--k 2000000000 on 300 samples ran
// out of memory: the runtime's fatal error; --k 40000 on 250 samples allocated 158 MiB).
// Measured by the bytes the command allocates, not by time.
func TestSimilarHugeK(t *testing.T) {
	ip, _ := scribbles(t, t.TempDir(), 250)
	runCLI("similar", ip, "3") // the first run's one-time allocations (flags, tables) aside
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	code, out, stderr := runCLI("similar", "--k", "40000", ip, "3")
	runtime.ReadMemStats(&after)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 250 || strings.Contains(out, "\n3,") {
		t.Fatalf("exit %d, %d lines, %q", code, len(lines), stderr)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("%d MiB allocated for 250 samples", got>>20)
	}
}
