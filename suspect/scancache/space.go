package scancache

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"

	"idxlabel/internal/atomicfile"
	"idxlabel/sample"
	"idxlabel/suspect/activelearn"
	"idxlabel/suspect/cnn"
	"idxlabel/suspect/nn"
)

// The labelling loop's space (activelearn.Space: the map, its fine clusters, the features
// network and its neighbour graph), kept beside the dataset like the scan: it depends on the
// pixels alone, so one file serves every round of asks and suggestions however the labels
// change, and is computed again only when the pixels do.

// SpaceSuffix is added to a pair's image file name to name its kept space.
const SpaceSuffix = ".idxlabel-space"

// spaceMagic opens every space file; spaceVersion is its layout and recipe: raise it when
// activelearn.NewSpace gives other arrays for the same pixels, so no older space is used.
const (
	spaceMagic   = "IDXLSPCE"
	spaceVersion = 1
)

// spaceHeader is the fixed part: magic, version, key, N, the graph's K, the fine clusters, the
// network's classes and parameters.
const spaceHeader = 8 + 4 + 32 + 4*5

// SpaceKeyOf returns the key of d's space computed with seed: the SHA-256 of every pixel of
// every sample with their count and size, the seed and spaceVersion. Labels are not part of it.
// Cost: one pass over the pixels.
func SpaceKeyOf(d sample.Set, seed uint64) Key {
	h := sha256.New()
	fmt.Fprintf(h, "idxlabel space v%d n=%d dim=%d h=%d w=%d seed=%d\n", spaceVersion, d.N, d.Dim(), d.H, d.W, seed)
	for i := range d.N {
		h.Write(d.Pixels(i))
	}
	var k Key
	h.Sum(k[:0])
	return k
}

// spaceSize returns the file size of a space of n samples, k neighbours each, and a network
// of p parameters: the header, 2n map values, n clusters, n·k neighbours and distances, p
// parameters, the CRC.
func spaceSize(n, k, p int64) int64 {
	return spaceHeader + 4*(2*n+n+2*n*k+p) + 4
}

// StoreSpace writes s under key to path atomically (a temporary file renamed over it), never
// through a symbolic link there: whatever is at path must be a regular file or nothing (a link
// is refused, and the file it names is never written: atomicfile.WriteFileNoFollow). Size:
// about 4·N·(3 + 2·K) bytes and the network's 4·(about 70,000 + 128·clusters) (1.5 MB for
// 10,000 samples, 140 MB for 1,000,000). Errors: a space LoadSpace would refuse
// (spaceProblem), and those of atomicfile.WriteFileNoFollow (an *fs.PathError wrapping
// atomicfile.ErrNotRegular for a link or another file that is not a regular file).
func StoreSpace(path string, key Key, s *activelearn.Space) error {
	params := s.Net.Params()
	n, k := s.N(), s.Graph.K
	if bad := spaceProblem(s.Map, params); bad != "" {
		return fmt.Errorf("%s: a space with %s cannot be kept", path, bad)
	}
	return atomicfile.WriteFileNoFollow(path, func(w io.Writer) error {
		crc := crc32.New(crc32.MakeTable(crc32.Castagnoli))
		bw := bufio.NewWriterSize(io.MultiWriter(w, crc), 1<<20)
		b := make([]byte, 0, spaceHeader)
		b = append(b, spaceMagic...)
		b = binary.LittleEndian.AppendUint32(b, spaceVersion)
		b = append(b, key[:]...)
		for _, v := range []int{n, k, s.Clusters, s.Net.Classes, len(params)} {
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		}
		if _, err := bw.Write(b); err != nil {
			return err
		}
		var v [4]byte
		put := func(u uint32) error {
			binary.LittleEndian.PutUint32(v[:], u)
			_, err := bw.Write(v[:])
			return err
		}
		for _, a := range [][]float32{s.Map} {
			for _, f := range a {
				if err := put(math.Float32bits(f)); err != nil {
					return err
				}
			}
		}
		for _, a := range [][]int32{s.Fine, s.Graph.Idx} {
			for _, x := range a {
				if err := put(uint32(x)); err != nil {
					return err
				}
			}
		}
		for _, a := range [][]float32{s.Graph.Dist, params} {
			for _, f := range a {
				if err := put(math.Float32bits(f)); err != nil {
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

// LoadSpace reads the space stored under key at path for n samples. It returns ErrMiss when
// there is no file, or the file holds another key, another number of samples, or another
// layout; it reads nothing beyond the header then, and never more than the size its header's
// counts imply, checked against the file's size first. Errors (naming path): a symbolic link
// (never followed) or another file that is not a regular file, or one damaged (wrong size,
// checksum, counts out of range, a value out of place: activelearn.Space.Ready and
// cnn.NetFrom check every one, and spaceProblem the magnitudes no computed space has), or the
// read error.
func LoadSpace(path string, key Key, n int) (*activelearn.Space, error) {
	// A file beside a dataset is never read through a symbolic link planted in its place.
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s: a symbolic link, not a space file; delete it", path)
	}
	f, fi, err := atomicfile.OpenNoFollow(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrMiss
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	damaged := func(what string) error { return fmt.Errorf("%s: a damaged space (%s); delete it", path, what) }
	head := make([]byte, spaceHeader)
	if _, err := io.ReadFull(f, head); err != nil {
		return nil, damaged("shorter than its header")
	}
	if string(head[:8]) != spaceMagic || binary.LittleEndian.Uint32(head[8:]) != spaceVersion {
		return nil, ErrMiss
	}
	if !slices.Equal(head[12:44], key[:]) || int(binary.LittleEndian.Uint32(head[44:])) != n {
		return nil, ErrMiss
	}
	u := func(at int) int64 { return int64(binary.LittleEndian.Uint32(head[at:])) }
	k, clusters, classes, params := u(48), u(52), u(56), u(60)
	switch {
	case k < 1 || k > 64 || k >= int64(n):
		return nil, damaged(fmt.Sprintf("%d neighbours a sample", k))
	case clusters < 1 || clusters > int64(n) || classes != max(2, clusters) || classes > cnn.MaxClasses:
		return nil, damaged(fmt.Sprintf("%d fine clusters, a network of %d classes", clusters, classes))
	case params < 1 || params > 1<<24:
		return nil, damaged(fmt.Sprintf("%d network parameters", params))
	}
	if want := spaceSize(int64(n), k, params); fi.Size() != want {
		return nil, damaged(fmt.Sprintf("%d bytes, its header declares %d", fi.Size(), want))
	}
	crc := crc32.New(crc32.MakeTable(crc32.Castagnoli))
	crc.Write(head)
	br := bufio.NewReaderSize(io.TeeReader(io.LimitReader(f, fi.Size()-spaceHeader-4), crc), 1<<20)
	var v [4]byte
	word := func() (uint32, error) {
		if _, err := io.ReadFull(br, v[:]); err != nil {
			return 0, fmt.Errorf("%s: %w", path, err)
		}
		return binary.LittleEndian.Uint32(v[:]), nil
	}
	floats := func(c int64) ([]float32, error) {
		out := make([]float32, c)
		for m := range out {
			x, err := word()
			if err != nil {
				return nil, err
			}
			out[m] = math.Float32frombits(x)
		}
		return out, nil
	}
	ints := func(c int64) ([]int32, error) {
		out := make([]int32, c)
		for m := range out {
			x, err := word()
			if err != nil {
				return nil, err
			}
			out[m] = int32(x)
		}
		return out, nil
	}
	// Read straight into the arrays (the file is not held twice), the checksum taken as it goes.
	s := &activelearn.Space{Clusters: int(clusters), Graph: &nn.Graph{K: int(k)}}
	var p []float32
	if s.Map, err = floats(2 * int64(n)); err != nil {
		return nil, err
	}
	if s.Fine, err = ints(int64(n)); err != nil {
		return nil, err
	}
	if s.Graph.Idx, err = ints(int64(n) * k); err != nil {
		return nil, err
	}
	if s.Graph.Dist, err = floats(int64(n) * k); err != nil {
		return nil, err
	}
	if p, err = floats(params); err != nil {
		return nil, err
	}
	if _, err := io.ReadFull(f, v[:]); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if crc.Sum32() != binary.LittleEndian.Uint32(v[:]) {
		return nil, damaged("checksum")
	}
	if bad := spaceProblem(s.Map, p); bad != "" {
		return nil, damaged(bad)
	}
	if s.Net, err = cnn.NetFrom(int(classes), p); err != nil {
		return nil, damaged(err.Error())
	}
	if err := s.Ready(); err != nil {
		return nil, damaged(err.Error())
	}
	return s, nil
}

// maxMapCoordinate bounds a map coordinate's magnitude: the map's layout gives units (MNIST's
// test set spans about ±15); far beyond, its drawing and distances overflow float32.
const maxMapCoordinate = maxFeature

// maxParam bounds a network parameter's magnitude: a trained network's are below 1 (MNIST's
// test set: 0.38 at most). With every weight within ±1000 the network's activations on pixels
// of 0–1 stay below about 1e21 and their squares finite in float32; a checksum proves only that
// a file is as written, and a network of 3e38 weights (finite, which cnn.NetFrom accepts) gives
// suggestions of confidence NaN.
const maxParam = 1e3

// spaceProblem returns what makes a space's map or network parameters other than a computed
// space's, "" when nothing does: a map coordinate that is not finite or beyond
// ±maxMapCoordinate, a parameter that is not finite or beyond ±maxParam. Time: one pass.
func spaceProblem(m, params []float32) string {
	for i, v := range m {
		if x := float64(v); math.IsNaN(x) || math.Abs(x) > maxMapCoordinate {
			return fmt.Sprintf("sample %d: a map coordinate of %v", i/2, v)
		}
	}
	for i, v := range params {
		if x := float64(v); math.IsNaN(x) || math.Abs(x) > maxParam {
			return fmt.Sprintf("network parameter %d of %v", i, v)
		}
	}
	return ""
}

// Spaces puts the space file Path in front of activelearn.NewSpace, as Scanner puts the scan
// cache in front of a scan: a space stored there under d's key (SpaceKeyOf) is read instead of
// computed; otherwise it is computed and stored there after (atomically), unless the folder is
// read-only by its permission bits. A file that cannot be read or written never stops the
// work: Note hears why.
type Spaces struct {
	Path  string // the space file (an image file's path + SpaceSuffix); "" computes without one
	Read  bool   // use a space stored at Path
	Write bool   // store a space computed at Path
	Note  func(string)
	// Starting (may be nil) is called just before a space is computed (not when one is read),
	// with the context and the samples: where a caller says how long it will take
	// (activelearn.EstimateSpace).
	Starting func(ctx context.Context, d sample.Set)
}

// Space returns d's space with opts (opts.Seed in the key), read from Path or computed; the
// Outcome says which (Cached) and why a file was not used or written. Errors:
// activelearn.NewSpace's, or the context's error.
func (s Spaces) Space(ctx context.Context, d sample.Set, opts activelearn.Options) (*activelearn.Space, Outcome, error) {
	var out Outcome
	note := func(err error) {
		if s.Note != nil && err != nil {
			s.Note(err.Error())
		}
	}
	seed := opts.Seed
	if seed == 0 {
		seed = 1
	}
	if s.Path != "" && (s.Read || s.Write) {
		out.Key = SpaceKeyOf(d, seed)
	}
	if s.Path != "" && s.Read {
		sp, err := LoadSpace(s.Path, out.Key, d.N)
		if err == nil {
			out.Cached = true
			return sp, out, ctx.Err()
		}
		if !errors.Is(err, ErrMiss) {
			out.Load = err
			note(err)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, out, err
	}
	if s.Starting != nil {
		s.Starting(ctx, d)
	}
	sp, err := activelearn.NewSpace(ctx, d, opts)
	if err != nil {
		return nil, out, err
	}
	if s.Path != "" && s.Write {
		err := readOnlyFolder(filepath.Dir(s.Path))
		if err == nil {
			err = StoreSpace(s.Path, out.Key, sp)
		}
		if err != nil {
			out.Store = fmt.Errorf("the space was not kept for next time: %w", err)
			note(out.Store)
		}
	}
	return sp, out, nil
}
