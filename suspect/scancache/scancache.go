// Package scancache keeps a CNN scan's network outputs (suspect.CNNResult's Classes, Probs and
// Features) in a file on disk, keyed by what the networks saw and how they were trained, so a
// save that changed only labels, or reopening the dataset, shows the views at once instead of
// scanning again. The labels are not part of the key: the verdicts are scored again from the
// cached probabilities against the labels as they are (suspect.Rescore).
//
// One file holds one entry (the latest scan): its size is bounded by the samples' count, known
// before anything is read. Every byte read is untrusted: the file is checked against the size
// its header declares, a CRC-32C of its content, and the values' ranges before it is used; any
// mismatch is a miss (ErrMiss) or an error naming the file, never a panic. scancache never
// imports Fyne.
package scancache

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"os"
	"slices"
	"strconv"

	"idxlabel/internal/atomicfile"
	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/cnn"
)

// Suffix is added to a pair's image file name to name its scan cache (the callers' choice of
// place: beside the pair's other state files).
const Suffix = ".idxlabel-scan"

// magic opens every cache file; version 2 is this layout (version 1 had no pixels' digest). The
// version is also in every key (KeyOf): raise it when ScanCNN's recipe changes what it gives for
// the same pixels and settings (the network, the training, the vote), so that no scan of an older
// recipe is used.
const (
	magic   = "IDXLSCAN"
	version = 2
)

// headerSize is the fixed part before the classes: magic, version, key, the pixels' digest, N,
// classes, features.
const headerSize = 8 + 4 + 32 + 32 + 4 + 4 + 4

// ErrMiss: no usable entry for the key (no file, another key, another number of samples).
var ErrMiss = errors.New("no cached scan for these samples and settings")

// Key identifies a scan: the SHA-256 of the samples' pixels (their Digest) and of the scan's
// settings.
type Key [32]byte

// Digest identifies the samples a scan saw: the SHA-256 of their count, size and every pixel, in
// scan order (PixelsOf). A similarity search uses a kept scan's features for the same pixels
// whatever its settings (LoadFeatures).
type Digest [32]byte

// PixelsOf returns the Digest of d's samples. Cost: one pass over the pixels (about 1 s per
// 1,000,000 MNIST samples).
func PixelsOf(d sample.Set) Digest {
	h := sha256.New()
	fmt.Fprintf(h, "idxlabel pixels n=%d dim=%d h=%d w=%d\n", d.N, d.Dim(), d.H, d.W)
	for i := range d.N {
		h.Write(d.Pixels(i))
	}
	var out Digest
	h.Sum(out[:0])
	return out
}

// KeyOf returns the key of a scan of d (its N samples of Dim pixels, H×W) with opts: every pixel
// of every sample (PixelsOf) and each setting that changes the networks' outputs (folds,
// epochs, seeds, neighbours, shifts, the training budget, the groups of near-copies), settled
// (suspect.CNNOptions.Settled: a default given and one left zero are one key). The labels are
// not hashed, only the power of two their count falls in (LearntAlike): relabelling keeps the
// key, while a scan that learnt from 100 labels is not used once 10,000 are (labelling from
// scratch). Cost: PixelsOf's.
func KeyOf(d sample.Set, opts suspect.CNNOptions) Key { return keyFrom(PixelsOf(d), d, opts) }

// keyFrom is KeyOf of samples whose Digest is pixels.
func keyFrom(pixels Digest, d sample.Set, opts suspect.CNNOptions) Key {
	opts = opts.Settled() // the defaults given or left zero scan alike
	labelled := 0
	for _, l := range d.Labels {
		if l != sample.NoLabel {
			labelled++
		}
	}
	h := sha256.New()
	fmt.Fprintf(h, "idxlabel scan v%d n=%d dim=%d h=%d w=%d folds=%d epochs=%d seed=%d seeds=%d neighbours=%d shifts=%t budget=%d learnt=%d\n",
		version, d.N, d.Dim(), d.H, d.W, opts.Folds, opts.Epochs, opts.Seed, opts.Seeds, opts.Neighbours, opts.Shifts, opts.TrainBudget, learnt(labelled))
	h.Write(pixels[:])
	if opts.Groups != nil {
		var b [4]byte
		for _, g := range opts.Groups {
			binary.LittleEndian.PutUint32(b[:], uint32(g))
			h.Write(b[:])
		}
	}
	var k Key
	h.Sum(k[:0])
	return k
}

// LearntAlike reports whether a scan that learnt from then labelled samples still stands for
// now labelled ones: both counts fall in the same power of two ([2^k, 2^(k+1))). The networks
// learn from the labels; a scan is scored again against labels edited since (suspect.Rescore),
// but once the labels it learnt from have doubled (or halved) it is done again. O(1).
func LearntAlike(then, now int) bool { return learnt(then) == learnt(now) }

// learnt is the power of two n labelled samples fall in (0 for none).
func learnt(n int) int { return bits.Len(uint(max(n, 0))) }

// Entry is a scan's network outputs for N samples.
type Entry struct {
	Classes  []int     // the labels of Probs' columns, ascending
	Probs    []float32 // N×len(Classes), suspect.CNNResult.Probs
	Features []float32 // N×cnn.Features, suspect.CNNResult.Features
	Pixels   Digest    // the samples scanned (PixelsOf), for LoadFeatures
}

// FromResult takes r's outputs (not copied).
func FromResult(r *suspect.CNNResult) *Entry {
	return &Entry{Classes: r.Classes, Probs: r.Probs, Features: r.Features}
}

// size returns the file size of an entry of n samples, nc classes.
func size(n, nc int) int64 {
	return headerSize + 4*int64(nc) + 4*int64(n)*int64(nc+cnn.Features) + 4
}

// Store writes e under key to path atomically (a temporary file renamed over it; an existing
// cache there is replaced). Size: 4·N·(classes + cnn.Features) bytes and a header (5.4 MB for
// 10,000 MNIST samples). Errors: an entry whose arrays do not fit its classes (2 to
// cnn.MaxClasses of them), one that Load would refuse (Entry.problem: so no scan is kept that is
// never read back), or those of atomicfile.WriteFile.
func Store(path string, key Key, e *Entry) error {
	nc := len(e.Classes)
	if nc < 2 || nc > cnn.MaxClasses || len(e.Probs)%nc != 0 {
		return fmt.Errorf("%s: a scan of %d classes and %d probabilities cannot be cached", path, nc, len(e.Probs))
	}
	n := len(e.Probs) / nc
	if len(e.Features) != n*cnn.Features {
		return fmt.Errorf("%s: %d features for %d samples", path, len(e.Features), n)
	}
	if bad := e.problem(); bad != "" {
		return fmt.Errorf("%s: a scan with %s cannot be cached", path, bad)
	}
	return atomicfile.WriteFileNoFollow(path, func(w io.Writer) error {
		crc := crc32.New(crc32.MakeTable(crc32.Castagnoli))
		bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<20)
		b := make([]byte, 0, headerSize)
		b = append(b, magic...)
		b = binary.LittleEndian.AppendUint32(b, version)
		b = append(b, key[:]...)
		b = append(b, e.Pixels[:]...)
		b = binary.LittleEndian.AppendUint32(b, uint32(n))
		b = binary.LittleEndian.AppendUint32(b, uint32(nc))
		b = binary.LittleEndian.AppendUint32(b, uint32(cnn.Features))
		for _, c := range e.Classes {
			b = binary.LittleEndian.AppendUint32(b, uint32(int32(c)))
		}
		if _, err := bw.Write(b); err != nil {
			return err
		}
		var v [4]byte
		for _, a := range [][]float32{e.Probs, e.Features} {
			for _, f := range a {
				binary.LittleEndian.PutUint32(v[:], math.Float32bits(f))
				if _, err := bw.Write(v[:]); err != nil {
					return err
				}
			}
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		_, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
		return err
	})
}

// Load reads the entry stored under key at path for n samples. It returns ErrMiss when there
// is no file, or the file holds another key or another number of samples; it reads nothing
// beyond the header then, and never more than the size n samples need, straight into the
// entry's arrays (the file's bytes are not held besides). A checksum that matches proves only
// that the file is as written, not that a scan wrote it: every value is checked against what a
// scan gives (Entry.problem). Errors (naming path, saying what is wrong; a caller uses no
// entry then and scans again): a file that is not a regular file; a damaged one (wrong size or
// checksum, 2 to cnn.MaxClasses classes, or values no scan gives: Entry.problem); the read
// error.
func Load(path string, key Key, n int) (*Entry, error) {
	return load(path, n, func(head []byte) bool { return slices.Equal(head[12:44], key[:]) })
}

// LoadFor reads the entry of a scan of the samples whose Digest is pixels (n of them), whatever
// the scan's settings: a similarity search takes its features, which are the network's view of
// these pixels however it was trained. Errors: as Load's (ErrMiss for no file, another layout,
// other pixels or another count).
func LoadFor(path string, pixels Digest, n int) (*Entry, error) {
	return load(path, n, func(head []byte) bool { return slices.Equal(head[44:76], pixels[:]) })
}

// load is Load and LoadFor: match says whether the header (headerSize bytes, of this layout)
// is the entry wanted.
func load(path string, n int, match func(head []byte) bool) (*Entry, error) {
	f, fi, err := atomicfile.OpenNoFollow(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrMiss
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	damaged := func(what string) error {
		return fmt.Errorf("%s: a damaged scan cache (%s): not used, the scan runs again and replaces it", path, what)
	}
	head := make([]byte, headerSize)
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, damaged("shorter than its header")
	}
	if string(head[:8]) != magic || binary.LittleEndian.Uint32(head[8:]) != version {
		return nil, ErrMiss // another program's file, or another layout: scan again
	}
	if !match(head) || int(binary.LittleEndian.Uint32(head[76:])) != n {
		return nil, ErrMiss
	}
	nc, nf := int(binary.LittleEndian.Uint32(head[80:])), int(binary.LittleEndian.Uint32(head[84:]))
	if nc < 2 || nc > cnn.MaxClasses || nf != cnn.Features {
		return nil, damaged(strconv.Itoa(nc) + " classes, " + strconv.Itoa(nf) + " features")
	}
	if fi.Size() != size(n, nc) {
		return nil, damaged(fmt.Sprintf("%d bytes, its header declares %d", fi.Size(), size(n, nc)))
	}
	// Read straight into the arrays (the file is not held twice), the checksum taken as it goes.
	crc := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	crc.Write(head)
	br := bufio.NewReaderSize(io.TeeReader(io.LimitReader(f, size(n, nc)-headerSize-4), crc), 1<<20)
	var v [4]byte
	next := func() (uint32, error) {
		if _, err := io.ReadFull(br, v[:]); err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
		return binary.LittleEndian.Uint32(v[:]), nil
	}
	e := &Entry{Classes: make([]int, nc), Probs: make([]float32, n*nc), Features: make([]float32, n*nf)}
	copy(e.Pixels[:], head[44:76])
	for c := range e.Classes {
		u, err := next()
		if err != nil {
			return nil, err
		}
		e.Classes[c] = int(int32(u))
	}
	for _, a := range [][]float32{e.Probs, e.Features} {
		for m := range a {
			u, err := next()
			if err != nil {
				return nil, err
			}
			a[m] = math.Float32frombits(u)
		}
	}
	if _, err := io.ReadFull(f, v[:]); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if crc.Sum32() != binary.LittleEndian.Uint32(v[:]) {
		return nil, damaged("checksum")
	}
	if bad := e.problem(); bad != "" {
		return nil, damaged(bad)
	}
	return e, nil
}

// probSumTolerance is how far a row of probabilities may sum from 1: the rounding of float32
// sums of up to cnn.MaxClasses values (each about 6e-8 relative), with a wide margin.
const probSumTolerance = 1e-3

// maxFeature bounds a feature's magnitude: a network's penultimate activations on pixels of 0–1
// are tens at most; far beyond, squared distances between features overflow float32.
const maxFeature = 1e6

// problem returns what makes e's values other than a scan's outputs, "" when nothing does:
// a class that is sample.NoLabel, classes not strictly ascending, a probability row (one per
// sample) with a value that is not finite, below 0 or above 1 (beyond rounding), or whose sum is not 1 within
// probSumTolerance, and a feature that is not finite or beyond ±maxFeature. It names the first
// such value found. Time: one pass over the arrays.
func (e *Entry) problem() string {
	nc := len(e.Classes)
	for c, v := range e.Classes {
		if v == sample.NoLabel {
			return "a class that is no label"
		}
		if c > 0 && v <= e.Classes[c-1] {
			return "classes out of order"
		}
	}
	for i := 0; i+nc <= len(e.Probs); i += nc {
		sum := 0.0
		for _, p := range e.Probs[i : i+nc] {
			x := float64(p)
			if math.IsNaN(x) || x < 0 || x > 1+probSumTolerance {
				return fmt.Sprintf("sample %d: a probability of %v", i/nc, p)
			}
			sum += x
		}
		if math.Abs(sum-1) > probSumTolerance {
			return fmt.Sprintf("sample %d: probabilities summing to %.4g, not 1", i/nc, sum)
		}
	}
	for m, f := range e.Features {
		if x := float64(f); math.IsNaN(x) || math.Abs(x) > maxFeature {
			return fmt.Sprintf("sample %d: a feature of %v", m/cnn.Features, f)
		}
	}
	return ""
}
