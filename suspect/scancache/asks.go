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
	"os"
	"slices"

	"idxlabel/internal/atomicfile"
	"idxlabel/suspect/cnn"
)

// The refined suggestions' ranking for the asks (activelearn.Suggestions.Unsure), kept beside
// the images by the last `suggest` that refined them, so that the `suggest --ask` after it ranks
// the least sure samples by the networks (AskFrom) without training one. It is of the labels it
// was computed from: its key holds the space's key and every label with its accepted mark, and
// any other labels miss it.

// AsksSuffix is added to a pair's image file name to name its kept ranking.
const AsksSuffix = ".idxlabel-asks"

// asksMagic opens every ranking file; asksVersion is its layout and recipe: raise it when
// activelearn's Unsure means something else, so that no older ranking is used.
const (
	asksMagic   = "IDXLASKS"
	asksVersion = 1
)

// asksHeader is the fixed part: magic, version, key, N, classes.
const asksHeader = 8 + 4 + 32 + 4 + 4

// AsksKeyOf returns the key of a ranking computed on the space of key (SpaceKeyOf) from labels
// (N of them, sample.NoLabel for none) and accepted (nil, or N marks of accepted suggestions):
// the SHA-256 of asksVersion, the space's key, every label and every mark. O(N).
func AsksKeyOf(space Key, labels []int, accepted []bool) Key {
	h := sha256.New()
	fmt.Fprintf(h, "idxlabel asks v%d n=%d\n", asksVersion, len(labels))
	h.Write(space[:])
	b := make([]byte, 0, 9*4096)
	for i, l := range labels {
		b = binary.LittleEndian.AppendUint64(b, uint64(int64(l)))
		mark := byte(0)
		if accepted != nil && i < len(accepted) && accepted[i] {
			mark = 1
		}
		b = append(b, mark)
		if len(b) >= 9*4095 {
			h.Write(b)
			b = b[:0]
		}
	}
	h.Write(b)
	var k Key
	h.Sum(k[:0])
	return k
}

// asksSize returns the file size of a ranking of n samples and c classes: the header, the c
// classes, the n values, the CRC.
func asksSize(n, c int64) int64 {
	return asksHeader + 4*c + 4*n + 4
}

// StoreAsks writes the ranking unsure (N values) of the suggestions of classes (their labels,
// ascending) under key to path, atomically and never through a symbolic link there
// (atomicfile.WriteFileNoFollow). Size: 4·(N + classes) bytes and 56 more (10,000 samples:
// 40 KB). Errors: classes or unsure empty, and those of writing.
func StoreAsks(path string, key Key, classes []int, unsure []float32) error {
	if len(classes) == 0 || len(unsure) == 0 {
		return fmt.Errorf("%s: no ranking to keep", path)
	}
	return atomicfile.WriteFileNoFollow(path, func(w io.Writer) error {
		crc := crc32.New(crc32.MakeTable(crc32.Castagnoli))
		bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<16)
		b := make([]byte, 0, asksHeader+4*len(classes))
		b = append(b, asksMagic...)
		b = binary.LittleEndian.AppendUint32(b, asksVersion)
		b = append(b, key[:]...)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(unsure)))
		b = binary.LittleEndian.AppendUint32(b, uint32(len(classes)))
		for _, c := range classes {
			b = binary.LittleEndian.AppendUint32(b, uint32(int32(c)))
		}
		if _, err := bw.Write(b); err != nil {
			return err
		}
		var v [4]byte
		for _, f := range unsure {
			binary.LittleEndian.PutUint32(v[:], math.Float32bits(f))
			if _, err := bw.Write(v[:]); err != nil {
				return err
			}
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		_, err := w.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32()))
		return err
	})
}

// LoadAsks reads the ranking stored under key at path for n samples: the classes it is of and
// the N values. It returns ErrMiss when there is no file, or the file holds another key (other
// labels), another number of samples or another layout; it reads nothing beyond the header
// then, and never more than the size the header's counts imply, checked against the file's size
// first. Errors (naming path): a symbolic link or anything else that is not a regular file
// (never followed), a damaged file (wrong size, checksum, classes not ascending or out of
// range, a value that is not a finite number), or the read error.
func LoadAsks(path string, key Key, n int) ([]int, []float32, error) {
	f, fi, err := atomicfile.OpenNoFollow(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, ErrMiss
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	damaged := func(what string) error {
		return fmt.Errorf("%s: a damaged ranking of the samples to ask for (%s); delete it", path, what)
	}
	head := make([]byte, asksHeader)
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, nil, damaged("shorter than its header")
	}
	if string(head[:8]) != asksMagic || binary.LittleEndian.Uint32(head[8:]) != asksVersion {
		return nil, nil, ErrMiss
	}
	if !slices.Equal(head[12:44], key[:]) || int64(binary.LittleEndian.Uint32(head[44:])) != int64(n) {
		return nil, nil, ErrMiss
	}
	c := int64(binary.LittleEndian.Uint32(head[48:]))
	if c < 2 || c > cnn.MaxClasses {
		return nil, nil, damaged(fmt.Sprintf("%d classes", c))
	}
	if want := asksSize(int64(n), c); fi.Size() != want {
		return nil, nil, damaged(fmt.Sprintf("%d bytes, its header declares %d", fi.Size(), want))
	}
	crc := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	crc.Write(head)
	br := bufio.NewReaderSize(io.TeeReader(io.LimitReader(f, fi.Size()-asksHeader-4), crc), 1<<16)
	var v [4]byte
	word := func() (uint32, error) {
		if _, err := io.ReadFull(br, v[:]); err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
		return binary.LittleEndian.Uint32(v[:]), nil
	}
	classes := make([]int, c)
	for k := range classes {
		x, err := word()
		if err != nil {
			return nil, nil, err
		}
		classes[k] = int(int32(x))
	}
	unsure := make([]float32, n)
	for i := range unsure {
		x, err := word()
		if err != nil {
			return nil, nil, err
		}
		unsure[i] = math.Float32frombits(x)
	}
	if _, err := io.ReadFull(f, v[:]); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if crc.Sum32() != binary.LittleEndian.Uint32(v[:]) {
		return nil, nil, damaged("checksum")
	}
	for k := 1; k < len(classes); k++ {
		if classes[k] <= classes[k-1] {
			return nil, nil, damaged(fmt.Sprintf("classes %d and %d out of order", classes[k-1], classes[k]))
		}
	}
	for i, u := range unsure {
		if math.IsNaN(float64(u)) || math.IsInf(float64(u), 0) {
			return nil, nil, damaged(fmt.Sprintf("sample %d's value is not a number", i))
		}
	}
	return classes, unsure, nil
}
