package scancache

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/cnn"
)

// twoShapes returns n 8×8 samples, half a bar across (label 0) and half a bar down (label 1),
// with a little noise, labels given.
func twoShapes(n int) sample.Set {
	rng := rand.New(rand.NewPCG(3, 4))
	px := make([]byte, 64*n)
	labels := make([]int, n)
	for i := range n {
		labels[i] = i % 2
		for k := range 8 {
			at := 3*8 + k // row 3
			if labels[i] == 1 {
				at = k*8 + 3 // column 3
			}
			px[64*i+at] = 255
		}
		px[64*i+rng.IntN(64)] = byte(rng.IntN(200))
	}
	return sample.Set{N: n, H: 8, W: 8, Labels: labels, Pixels: func(i int) []byte { return px[64*i : 64*i+64] }}
}

var quick = suspect.CNNOptions{Folds: 2, Seeds: 1, Epochs: 1}

// TestScannerHitMissRescore: a scan is stored and served from the file after; the served
// result has the scan's outputs and verdicts, rescored when a label changed; another pixel is
// a miss; Read false scans; Write false leaves no file; a damaged file is noted and scanned.
func TestScannerHitMissRescore(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "x-images-idx3-ubyte"+Suffix)
	var notes []string
	s := Scanner{Path: path, Read: true, Write: true, Note: func(n string) { notes = append(notes, n) }}
	d := twoShapes(40)
	if _, _, err := (Scanner{Path: path, Read: true}).Scan(ctx, d, quick, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("Write false wrote the cache: %v", err)
	}
	first, out, err := s.Scan(ctx, d, quick, nil)
	if err != nil || out.Cached || first.Model == nil {
		t.Fatalf("first scan: cached %t, %v", out.Cached, err)
	}
	again, out, err := s.Scan(ctx, d, quick, nil)
	if err != nil || !out.Cached || again.Model != nil {
		t.Fatalf("second scan: cached %t, model %v, %v", out.Cached, again.Model != nil, err)
	}
	if !slices.Equal(again.Probs, first.Probs) || !slices.Equal(again.Features, first.Features) || !slices.Equal(again.Classes, first.Classes) {
		t.Fatal("the cached outputs differ from the scan's")
	}
	if !slices.Equal(again.Suspects, first.Suspects) || again.Error != first.Error {
		t.Fatalf("the cached verdicts differ: error %v, scanned %v", again.Error, first.Error)
	}
	// The stored scan is found for these pixels whatever its settings (a similarity search).
	if e, err := LoadFor(path, PixelsOf(d), d.N); err != nil || !slices.Equal(e.Features, first.Features) {
		t.Fatalf("LoadFor: %v", err)
	}
	// A relabelled sample is scored against its new label.
	relabelled := d
	relabelled.Labels = slices.Clone(d.Labels)
	relabelled.Labels[5] = 1 - d.Labels[5]
	rescored, out, err := s.Scan(ctx, relabelled, quick, nil)
	if err != nil || !out.Cached {
		t.Fatalf("labels changed: cached %t, %v", out.Cached, err)
	}
	if rescored.Suspects[0].Index != 5 || rescored.Suspects[0].Label != relabelled.Labels[5] {
		t.Errorf("the relabelled sample is not the first suspect: %+v", rescored.Suspects[0])
	}
	// Read false scans again (check --no-cache).
	if _, out, err := (Scanner{Path: path, Write: true}).Scan(ctx, d, quick, nil); err != nil || out.Cached {
		t.Fatalf("Read false: cached %t, %v", out.Cached, err)
	}
	// Another pixel: a miss, scanned and stored under the new key.
	px := slices.Clone(d.Pixels(7))
	px[0] ^= 1
	changed := d
	changed.Pixels = func(i int) []byte {
		if i == 7 {
			return px
		}
		return d.Pixels(i)
	}
	if _, out, err := s.Scan(ctx, changed, quick, nil); err != nil || out.Cached {
		t.Fatalf("a pixel changed: cached %t, %v", out.Cached, err)
	}
	if _, out, _ := s.Scan(ctx, d, quick, nil); out.Cached {
		t.Error("the entry of the old pixels was served after the new one was stored")
	}
	if len(notes) != 0 {
		t.Errorf("notes without a problem: %q", notes)
	}
	// A damaged file: noted (naming it), scanned, and replaced.
	b, _ := os.ReadFile(path)
	b[len(b)-20] ^= 0x10
	os.WriteFile(path, b, 0o644)
	if _, out, err := s.Scan(ctx, d, quick, nil); err != nil || out.Cached || out.Load == nil {
		t.Fatalf("damaged: cached %t, load %v, %v", out.Cached, out.Load, err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], path) {
		t.Errorf("notes: %q", notes)
	}
	if _, out, _ := s.Scan(ctx, d, quick, nil); !out.Cached {
		t.Error("the damaged file was not replaced by the new scan")
	}
}

// A forged cache under the scan's key, its checksum right and its probability rows all zero,
// is not used: the Scanner says so naming the file, scans, and replaces it with the scan.
// Before, the rows were scored as they were: every sample a likely label error of score 1.
func TestScannerForgedRows(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "x"+Suffix)
	var notes []string
	s := Scanner{Path: path, Read: true, Write: true, Note: func(n string) { notes = append(notes, n) }}
	d := twoShapes(40)
	e := &Entry{Classes: []int{0, 1}, Probs: make([]float32, 2*d.N), Features: make([]float32, d.N*cnn.Features)}
	forge(t, path, KeyOf(d, quick), e)
	res, out, err := s.Scan(ctx, d, quick, nil)
	if err != nil || out.Cached || out.Load == nil || res.Model == nil {
		t.Fatalf("forged: cached %t, load %v, %v", out.Cached, out.Load, err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], path) || !strings.Contains(notes[0], "summing to 0") {
		t.Errorf("notes: %q", notes)
	}
	if _, out, _ := s.Scan(ctx, d, quick, nil); !out.Cached {
		t.Error("the forged file was not replaced by the scan")
	}
}

// TestScannerNewClass: a label of a class the cached scan had no column for is a note and a
// scan, not an error.
func TestScannerNewClass(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "y"+Suffix)
	var notes []string
	s := Scanner{Path: path, Read: true, Write: true, Note: func(n string) { notes = append(notes, n) }}
	d := twoShapes(40)
	if _, _, err := s.Scan(ctx, d, quick, nil); err != nil {
		t.Fatal(err)
	}
	d.Labels = slices.Clone(d.Labels)
	d.Labels[0], d.Labels[2], d.Labels[4] = 2, 2, 2
	res, out, err := s.Scan(ctx, d, quick, nil)
	if err != nil || out.Cached || len(res.Classes) != 3 {
		t.Fatalf("a new class: cached %t, classes %v, %v", out.Cached, res.Classes, err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "did not know") {
		t.Errorf("notes: %q", notes)
	}
}

// TestScannerUnwritable: a cache that cannot be written is noted; the scan is returned.
func TestScannerUnwritable(t *testing.T) {
	var notes []string
	path := filepath.Join(t.TempDir(), "no such folder", "z"+Suffix)
	s := Scanner{Path: path, Read: true, Write: true, Note: func(n string) { notes = append(notes, n) }}
	res, out, err := s.Scan(context.Background(), twoShapes(40), quick, nil)
	if err != nil || res == nil || out.Store == nil || len(notes) != 1 {
		t.Fatalf("res %v, store %v, notes %q, %v", res != nil, out.Store, notes, err)
	}
}

// TestScannerReadOnlyFolder: a folder without write permission bits gets no cache, even for a
// user the system lets write there (root); the scan is returned and the reason noted.
func TestScannerReadOnlyFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	var notes []string
	path := filepath.Join(dir, "x"+Suffix)
	s := Scanner{Path: path, Read: true, Write: true, Note: func(n string) { notes = append(notes, n) }}
	res, out, err := s.Scan(context.Background(), twoShapes(40), quick, nil)
	if err != nil || res == nil || out.Store == nil || len(notes) != 1 || !strings.Contains(notes[0], "read-only") {
		t.Fatalf("res %v, store %v, notes %q, %v", res != nil, out.Store, notes, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("a cache was written in a read-only folder: %v", err)
	}
}
