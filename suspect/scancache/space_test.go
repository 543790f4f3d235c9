package scancache

import (
	"context"
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

	"idxlabel/suspect/activelearn"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/nn"
)

// space returns a small space of n samples made up (not computed: the file is what is
// tested), ready.
func space(t *testing.T, n int) *activelearn.Space {
	rng := rand.New(rand.NewPCG(2, 2))
	const k, clusters = 4, 3
	s := &activelearn.Space{Map: make([]float32, 2*n), Fine: make([]int32, n), Clusters: clusters,
		Graph: &nn.Graph{K: k, Idx: make([]int32, n*k), Dist: make([]float32, n*k)}}
	for i := range n {
		s.Map[2*i], s.Map[2*i+1] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
		s.Fine[i] = int32(i % clusters)
		for t := range k {
			s.Graph.Idx[i*k+t] = int32((i + 1 + t) % n)
			s.Graph.Dist[i*k+t] = float32(t + 1)
		}
	}
	px := make([]byte, 4*cnn.Pixels)
	for i := range px {
		px[i] = byte(rng.IntN(256))
	}
	net, err := cnn.Train(context.Background(), cnn.Samples{Pixels: func(i int) []byte { return px[i*cnn.Pixels : (i+1)*cnn.Pixels] }, Labels: []int{0, 1, 2, 0}},
		[]int{0, 1, 2, 3}, clusters, cnn.Config{Epochs: 1}, rng, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Net = net
	if err := s.Ready(); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestStoreLoadSpace: a space comes back as stored (every array, the network's parameters);
// another key, another count, another layout or no file is a miss; the key follows the pixels
// and the seed, not the labels.
func TestStoreLoadSpace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x-images-idx3-ubyte"+SpaceSuffix)
	px := make([]byte, 4*30)
	for i := range px {
		px[i] = byte(i)
	}
	d := data(30, px)
	key := SpaceKeyOf(d, 1)
	if _, err := LoadSpace(path, key, 30); !errors.Is(err, ErrMiss) {
		t.Fatalf("no file: %v", err)
	}
	s := space(t, 30)
	if err := StoreSpace(path, key, s); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSpace(path, key, 30)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Map, s.Map) || !slices.Equal(got.Fine, s.Fine) || got.Clusters != s.Clusters ||
		!slices.Equal(got.Graph.Idx, s.Graph.Idx) || !slices.Equal(got.Graph.Dist, s.Graph.Dist) || got.Graph.K != s.Graph.K ||
		!slices.Equal(got.Net.Params(), s.Net.Params()) || got.Net.Classes != s.Net.Classes {
		t.Fatal("the space read back differs")
	}
	if _, err := LoadSpace(path, key, 29); !errors.Is(err, ErrMiss) {
		t.Errorf("another count: %v", err)
	}
	if _, err := LoadSpace(path, SpaceKeyOf(d, 2), 30); !errors.Is(err, ErrMiss) {
		t.Errorf("another seed: %v", err)
	}
	d.Labels = make([]int, 30)
	if SpaceKeyOf(d, 1) != key {
		t.Error("the labels changed the key")
	}
	px[7]++
	if SpaceKeyOf(d, 1) == key {
		t.Error("a pixel changed and the key did not")
	}
	b, _ := os.ReadFile(path)
	binary.LittleEndian.PutUint32(b[8:], spaceVersion+1)
	os.WriteFile(path, b, 0o644)
	if _, err := LoadSpace(path, key, 30); !errors.Is(err, ErrMiss) {
		t.Errorf("another layout: %v", err)
	}
}

// TestLoadSpaceDamaged: every damage is an error naming the file, never a panic or a miss:
// short files, a size that does not match the header, counts out of range, a flipped byte
// (checksum), and values out of place under a right checksum (a neighbour beyond the samples,
// a cluster beyond the clusters, a parameter that is not a number, a finite parameter or map
// coordinate far beyond what a computed space holds: a network of 3e38 weights suggests with
// confidence NaN).
func TestLoadSpaceDamaged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x"+SpaceSuffix)
	key := Key{9}
	s := space(t, 30)
	if err := StoreSpace(path, key, s); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(path)
	reseal := func(b []byte) []byte { // a right checksum over damaged content
		c := crc(b[:len(b)-4])
		binary.LittleEndian.PutUint32(b[len(b)-4:], c)
		return b
	}
	cases := map[string][]byte{
		"short header":   good[:20],
		"truncated":      good[:len(good)-9],
		"longer":         append(slices.Clone(good), 0),
		"flipped":        func() []byte { b := slices.Clone(good); b[spaceHeader+5] ^= 1; return b }(),
		"k out of range": func() []byte { b := slices.Clone(good); binary.LittleEndian.PutUint32(b[48:], 1000); return b }(),
		"clusters":       func() []byte { b := slices.Clone(good); binary.LittleEndian.PutUint32(b[52:], 0); return b }(),
		"huge params":    func() []byte { b := slices.Clone(good); binary.LittleEndian.PutUint32(b[60:], 1<<30); return b }(),
		"neighbour beyond": func() []byte {
			b := slices.Clone(good)
			binary.LittleEndian.PutUint32(b[spaceHeader+4*(3*30)+8:], 30)
			return reseal(b)
		}(),
		"cluster beyond": func() []byte {
			b := slices.Clone(good)
			binary.LittleEndian.PutUint32(b[spaceHeader+4*(2*30)+4:], 3)
			return reseal(b)
		}(),
		"param NaN": func() []byte {
			b := slices.Clone(good)
			binary.LittleEndian.PutUint32(b[len(b)-12:], 0x7fc00000)
			return reseal(b)
		}(),
		"param 3e38": func() []byte {
			b := slices.Clone(good)
			binary.LittleEndian.PutUint32(b[len(b)-16:], math.Float32bits(3e38))
			return reseal(b)
		}(),
		"map 3.4e38": func() []byte {
			b := slices.Clone(good)
			binary.LittleEndian.PutUint32(b[spaceHeader+4:], math.Float32bits(-3.4e38))
			return reseal(b)
		}(),
	}
	for name, b := range cases {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadSpace(path, key, 30)
		if err == nil || errors.Is(err, ErrMiss) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// crc is the files' checksum (CRC-32C) of b.
func crc(b []byte) uint32 { return crc32.Checksum(b, crc32.MakeTable(crc32.Castagnoli)) }

// TestStoreSpaceNeverFollowsALink: a symbolic link planted as the space file (IMAGES.idxlabel-space
// → any file the user can write; suggest and the window store the space there after computing
// it) is refused, not written through: the file it names keeps its bytes and the link stays.
func TestStoreSpaceNeverFollowsALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "precious.txt")
	if err := os.WriteFile(target, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "x-images-idx3-ubyte"+SpaceSuffix)
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	err := StoreSpace(link, Key{4}, space(t, 30))
	if err == nil || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("a space stored through a link: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "precious" {
		t.Fatalf("the file the link names was written: %d bytes", len(b))
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v", err)
	}
}

// TestLoadSpaceSymlink: a symbolic link where the space file should be is an error naming it,
// not followed, even to a good space file.
func TestLoadSpaceSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real"+SpaceSuffix)
	if err := StoreSpace(real, Key{3}, space(t, 30)); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "x"+SpaceSuffix)
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if _, err := LoadSpace(link, Key{3}, 30); err == nil || errors.Is(err, ErrMiss) || !strings.Contains(err.Error(), link) {
		t.Errorf("a symbolic link: %v", err)
	}
}
