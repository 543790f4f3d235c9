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
//
// Beside it, a second file keeps the labelling loop's space (activelearn.Space, space.go),
// keyed by the pixels alone.
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

// magic opens every cache file; version 1 is this layout. The version is also in every key
// (KeyOf): raise it when ScanCNN's recipe changes what it gives for the same pixels and
// settings (the network, the training, the vote), so that no scan of an older recipe is used.
const (
	magic   = "IDXLSCAN"
	version = 1
)

// headerSize is the fixed part before the classes: magic, version, key, N, classes, features.
const headerSize = 8 + 4 + 32 + 4 + 4 + 4

// ErrMiss: no usable entry for the key (no file, another key, another number of samples).
var ErrMiss = errors.New("no cached scan for these samples and settings")

// Key identifies a scan: the SHA-256 of the samples' pixels (in scan order, with their count
// and size) and of the scan's settings.
type Key [32]byte

// KeyOf returns the key of a scan of d (its N samples of Dim pixels, H×W) with opts: every pixel
// of every sample and each setting that changes the networks' outputs (folds, epochs, seeds,
// neighbours, shifts, the training budget, the groups of near-copies), settled
// (suspect.CNNOptions.Settled: a default given and one left zero are one key). The labels are
// not hashed, only the power of two their count falls in (LearntAlike): relabelling keeps the
// key, while a scan that learnt from 100 labels is not used once 10,000 are (labelling from
// scratch). Cost: one pass over the pixels (about 1 s per 1,000,000 MNIST samples).
func KeyOf(d sample.Set, opts suspect.CNNOptions) Key {
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
	for i := range d.N {
		h.Write(d.Pixels(i))
	}
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
// 10,000 MNIST samples). Errors: an entry whose arrays do not fit its classes, or those of
// atomicfile.WriteFile.
func Store(path string, key Key, e *Entry) error {
	nc := len(e.Classes)
	if nc == 0 || nc > cnn.MaxClasses || len(e.Probs)%nc != 0 {
		return fmt.Errorf("%s: a scan of %d classes and %d probabilities cannot be cached", path, nc, len(e.Probs))
	}
	n := len(e.Probs) / nc
	if len(e.Features) != n*cnn.Features {
		return fmt.Errorf("%s: %d features for %d samples", path, len(e.Features), n)
	}
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		crc := crc32.New(crc32.MakeTable(crc32.Castagnoli))
		bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<20)
		b := make([]byte, 0, headerSize)
		b = append(b, magic...)
		b = binary.LittleEndian.AppendUint32(b, version)
		b = append(b, key[:]...)
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
// entry's arrays (the file's bytes are not held besides). Errors (naming path):
// a file that is not a regular file, or is damaged (wrong size, checksum, classes not strictly
// ascending or one of them sample.NoLabel, a probability outside 0–1 or a value that is not
// finite), or the read error.
func Load(path string, key Key, n int) (*Entry, error) {
	f, fi, err := atomicfile.OpenRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrMiss
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	damaged := func(what string) error { return fmt.Errorf("%s: a damaged scan cache (%s); delete it", path, what) }
	head := make([]byte, headerSize)
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, damaged("shorter than its header")
	}
	if string(head[:8]) != magic || binary.LittleEndian.Uint32(head[8:]) != version {
		return nil, ErrMiss // another program's file, or another layout: scan again
	}
	if !slices.Equal(head[12:44], key[:]) || int(binary.LittleEndian.Uint32(head[44:])) != n {
		return nil, ErrMiss
	}
	nc, nf := int(binary.LittleEndian.Uint32(head[48:])), int(binary.LittleEndian.Uint32(head[52:]))
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
	bad := "" // the first damage seen, said once the checksum is known
	for c := range e.Classes {
		u, err := next()
		if err != nil {
			return nil, err
		}
		e.Classes[c] = int(int32(u))
		if e.Classes[c] == sample.NoLabel && bad == "" {
			bad = "a class that is no label"
		}
		if c > 0 && e.Classes[c] <= e.Classes[c-1] && bad == "" {
			bad = "classes out of order"
		}
	}
	for _, a := range [][]float32{e.Probs, e.Features} {
		for m := range a {
			u, err := next()
			if err != nil {
				return nil, err
			}
			a[m] = math.Float32frombits(u)
			if x := float64(a[m]); (math.IsNaN(x) || math.IsInf(x, 0)) && bad == "" {
				bad = "a value that is not a number"
			}
		}
	}
	if _, err := io.ReadFull(f, v[:]); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if crc.Sum32() != binary.LittleEndian.Uint32(v[:]) {
		return nil, damaged("checksum")
	}
	if bad != "" {
		return nil, damaged(bad)
	}
	for _, p := range e.Probs {
		if p < 0 || p > 1 {
			return nil, damaged("a probability outside 0–1")
		}
	}
	return e, nil
}
