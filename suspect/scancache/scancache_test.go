package scancache

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
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

func entry(n int) *Entry {
	rng := rand.New(rand.NewPCG(1, 1))
	e := &Entry{Classes: []int{0, 3, 7}, Probs: make([]float32, 3*n), Features: make([]float32, n*cnn.Features)}
	for i := range n {
		a, b := rng.Float32(), rng.Float32()
		a, b = min(a, b), max(a, b)
		e.Probs[3*i], e.Probs[3*i+1], e.Probs[3*i+2] = a, b-a, 1-b
	}
	for m := range e.Features {
		e.Features[m] = float32(rng.NormFloat64())
	}
	return e
}

func data(n int, px []byte) sample.Set {
	return sample.Set{N: n, H: 2, W: 2, Pixels: func(i int) []byte { return px[4*i : 4*i+4] }}
}

// TestStoreLoad: an entry comes back as stored; another key, another count or no file is a
// miss; the key follows pixels and settings, and of the labels only the power of two their
// count falls in.
func TestStoreLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x-images-idx3-ubyte"+Suffix)
	px := make([]byte, 4*50)
	for i := range px {
		px[i] = byte(i)
	}
	opts := suspect.CNNOptions{Folds: 3}
	key := KeyOf(data(50, px), opts)
	if _, err := Load(path, key, 50); !errors.Is(err, ErrMiss) {
		t.Fatalf("no file: %v", err)
	}
	e := entry(50)
	if err := Store(path, key, e); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path, key, 50)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Classes, e.Classes) || !slices.Equal(got.Probs, e.Probs) || !slices.Equal(got.Features, e.Features) {
		t.Fatal("the entry read back differs")
	}
	if _, err := Load(path, key, 49); !errors.Is(err, ErrMiss) {
		t.Errorf("another count: %v", err)
	}
	// Labels: relabelling keeps the key; labels that double (or halve) in number change it.
	withLabels := func(labelled, class int) sample.Set {
		d := data(50, px)
		d.Labels = make([]int, 50)
		for i := range d.Labels {
			d.Labels[i] = sample.NoLabel
			if i < labelled {
				d.Labels[i] = class
			}
		}
		return d
	}
	if KeyOf(withLabels(0, 0), opts) != key {
		t.Error("no label and no label array give two keys")
	}
	ten := KeyOf(withLabels(10, 1), opts)
	if ten == key {
		t.Error("ten labels, the key of none")
	}
	if KeyOf(withLabels(10, 2), opts) != ten || KeyOf(withLabels(15, 1), opts) != ten {
		t.Error("relabelling, or labels within the same power of two, changed the key")
	}
	if KeyOf(withLabels(16, 1), opts) == ten || KeyOf(withLabels(40, 1), opts) == ten {
		t.Error("labels twice as many, the same key")
	}
	for _, c := range [][3]int{{8, 15, 1}, {8, 16, 0}, {0, 0, 1}, {0, 1, 0}, {1000, 1023, 1}, {1000, 2000, 0}} {
		if LearntAlike(c[0], c[1]) != (c[2] == 1) {
			t.Errorf("LearntAlike(%d, %d) = %v", c[0], c[1], !(c[2] == 1))
		}
	}
	px[77]++
	if KeyOf(data(50, px), opts) == key {
		t.Error("a pixel changed, the key did not")
	}
	px[77]--
	if KeyOf(data(50, px), suspect.CNNOptions{Folds: 3, Seed: 2}) == key {
		t.Error("another seed, the same key")
	}
	if k, _ := Load(path, KeyOf(data(50, px), suspect.CNNOptions{Folds: 5}), 50); k != nil {
		t.Error("an entry of other settings was used")
	}
}

// TestLoadDamaged: a truncated or longer file, a flipped byte and a NaN under a good checksum
// are errors naming the file, never a panic.
func TestLoadDamaged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a"+Suffix)
	key := Key{1}
	e := entry(20)
	if err := Store(path, key, e); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(path)
	for name, bad := range map[string][]byte{
		"truncated":    good[:len(good)-9],
		"header only":  good[:headerSize],
		"flipped byte": flip(good, headerSize+40),
		"longer":       append(slices.Clone(good), 0),
	} {
		os.WriteFile(path, bad, 0o644)
		if _, err := Load(path, key, 20); err == nil || errors.Is(err, ErrMiss) {
			t.Errorf("%s: %v", name, err)
		}
	}
	noLabel := entry(20)
	noLabel.Classes = []int{sample.NoLabel, 0, 1}
	forge(t, path, key, noLabel)
	if _, err := Load(path, key, 20); err == nil || errors.Is(err, ErrMiss) {
		t.Errorf("a class that is no label: %v", err)
	}
	e.Probs[5] = float32(math.NaN())
	forge(t, path, key, e)
	if _, err := Load(path, key, 20); err == nil || errors.Is(err, ErrMiss) {
		t.Errorf("a NaN: %v", err)
	}
}

// forge writes e under key to path as Store would, checksum included, without Store's checks:
// a file made to look like a cache.
func forge(t *testing.T, path string, key Key, e *Entry) {
	t.Helper()
	b := []byte(magic)
	b = binary.LittleEndian.AppendUint32(b, version)
	b = append(b, key[:]...)
	b = append(b, e.Pixels[:]...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(e.Probs)/len(e.Classes)))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(e.Classes)))
	b = binary.LittleEndian.AppendUint32(b, uint32(cnn.Features))
	for _, c := range e.Classes {
		b = binary.LittleEndian.AppendUint32(b, uint32(int32(c)))
	}
	for _, a := range [][]float32{e.Probs, e.Features} {
		for _, f := range a {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)))
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A cache whose checksum is right but whose values no scan gives is refused, naming the file
// and the value: probability rows all zero (before, every sample then came out a finding with
// score 1.0 while the summary said none was flagged), a row summing to 0.5 or to 2, a negative
// or infinite probability, a feature that is infinite or beyond ±1e6, classes out of order.
// Store refuses to write such an entry, so no scan is kept that is never read back.
func TestLoadRefusesWhatNoScanGives(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x"+Suffix)
	key := Key{7}
	for name, spoil := range map[string]func(e *Entry){
		"rows all zero":        func(e *Entry) { clear(e.Probs) },
		"a row summing to 0.5": func(e *Entry) { e.Probs[6], e.Probs[7], e.Probs[8] = 0.25, 0.25, 0 },
		"a row summing to 2":   func(e *Entry) { e.Probs[6], e.Probs[7], e.Probs[8] = 1, 1, 0 },
		"a negative":           func(e *Entry) { e.Probs[9], e.Probs[10], e.Probs[11] = -0.5, 1, 0.5 },
		"above 1":              func(e *Entry) { e.Probs[9], e.Probs[10], e.Probs[11] = 1.5, -0.5, 0 },
		"infinite":             func(e *Entry) { e.Probs[3] = float32(math.Inf(1)) },
		"a feature infinite":   func(e *Entry) { e.Features[40] = float32(math.Inf(-1)) },
		"a feature of 1e9":     func(e *Entry) { e.Features[41] = 1e9 },
		"classes out of order": func(e *Entry) { e.Classes = []int{3, 0, 7} },
	} {
		e := entry(20)
		spoil(e)
		forge(t, path, key, e)
		if _, err := Load(path, key, 20); err == nil || errors.Is(err, ErrMiss) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want an error naming the file", name, err)
		}
		if err := Store(path, key, e); err == nil {
			t.Errorf("%s: stored", name)
		}
	}
	// What a scan gives passes: rows summing to 1 within float32 rounding, features of any sign.
	e := entry(20)
	e.Probs[0], e.Probs[1], e.Probs[2] = 0.1, 0.2, 0.7000001
	e.Features[0] = -37.5
	forge(t, path, key, e)
	if _, err := Load(path, key, 20); err != nil {
		t.Errorf("a scan's values: %v", err)
	}
}

func flip(b []byte, at int) []byte {
	b = slices.Clone(b)
	b[at] ^= 0x40
	return b
}

// TestLoadFor: a scan of the same pixels is found whatever its settings (the key); other pixels
// or another count are a miss.
func TestLoadFor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x"+Suffix)
	px := make([]byte, 4*30)
	for i := range px {
		px[i] = byte(3 * i)
	}
	d := data(30, px)
	e := entry(30)
	e.Pixels = PixelsOf(d)
	if err := Store(path, KeyOf(d, suspect.CNNOptions{Folds: 5, Seed: 9}), e); err != nil {
		t.Fatal(err)
	}
	got, err := LoadFor(path, PixelsOf(d), 30)
	if err != nil || !slices.Equal(got.Features, e.Features) || got.Pixels != e.Pixels {
		t.Fatalf("LoadFor: %v", err)
	}
	if _, err := LoadFor(path, PixelsOf(d), 29); !errors.Is(err, ErrMiss) {
		t.Fatalf("another count: %v", err)
	}
	px[7]++
	if _, err := LoadFor(path, PixelsOf(d), 30); !errors.Is(err, ErrMiss) {
		t.Fatalf("other pixels: %v", err)
	}
	if PixelsOf(data(30, px)) == PixelsOf(sample.Set{N: 30, H: 4, W: 1, Pixels: d.Pixels}) {
		t.Fatal("the digest ignores the samples' shape")
	}
}
