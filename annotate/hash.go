package annotate

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"idxlabel/idx"
)

// Digest is a SHA-256 digest (FIPS 180-4), 32 bytes.
type Digest [sha256.Size]byte

// String returns the digest as 64 lowercase hexadecimal digits, as sha256sum prints it.
func (d Digest) String() string { return hex.EncodeToString(d[:]) }

// ParseDigest reads 64 hexadecimal digits (either case). Errors: anything else.
func ParseDigest(s string) (Digest, error) {
	var d Digest
	if len(s) != 2*len(d) {
		return d, fmt.Errorf("a SHA-256 is 64 hexadecimal digits, found %d characters", len(s))
	}
	if _, err := hex.Decode(d[:], []byte(s)); err != nil {
		return d, errors.New("a SHA-256 is 64 hexadecimal digits (0–9, a–f)")
	}
	return d, nil
}

// SampleDigest returns the digest of one sample's stored bytes: its H·W values in the image
// file's dtype and byte order (for ubyte images, MNIST's, the pixels themselves). It is the
// sha256 column of an errata file.
func SampleDigest(stored []byte) Digest { return sha256.Sum256(stored) }

// ImageHashes are the digests of an IDX image file: the file's and each sample's.
type ImageHashes struct {
	// File is the SHA-256 of the file's bytes as decompressed (header and data): what sha256sum
	// prints for the plain file, the checksum MNIST's mirrors publish; a gzip file and its plain
	// copy have the same.
	File Digest
	// Samples holds each sample's SampleDigest, in file order.
	Samples []Digest
}

// HashImages reads the data of an IDX image file whose header is h (data: the bytes after the
// header, as idx.FileReader returns them) and returns its digests. Each sample is the h.Dims[1:]
// values after the previous one. Memory: 32 bytes a sample, grown as the data arrives (never
// what the header claims). Errors: a rank-0 header, data shorter than h declares (wrapping
// io.ErrUnexpectedEOF), the reader's own errors, ctx's error when it is cancelled.
func HashImages(ctx context.Context, h idx.Header, data io.Reader) (*ImageHashes, error) {
	if len(h.Dims) == 0 {
		return nil, errors.New("annotate: an image file has a sample count (rank 0 found)")
	}
	n := h.Dims[0]
	sampleBytes := int64(h.Type.Size())
	for _, d := range h.Dims[1:] {
		sampleBytes *= int64(d)
	}
	file := sha256.New()
	file.Write(idx.AppendHeader(nil, h))
	r := bufio.NewReaderSize(io.TeeReader(data, file), 1<<16)
	one := sha256.New()
	buf := make([]byte, 1<<15)
	out := &ImageHashes{}
	sampleData := &io.LimitedReader{R: r}
	for i := range n {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		one.Reset()
		sampleData.N = sampleBytes
		if got, err := io.CopyBuffer(one, sampleData, buf); err != nil {
			return nil, err
		} else if got < sampleBytes {
			return nil, fmt.Errorf("sample %d: %w (%d of its %d bytes)", i, io.ErrUnexpectedEOF, got, sampleBytes)
		}
		var d Digest
		one.Sum(d[:0])
		out.Samples = append(out.Samples, d)
	}
	// Whatever the reader still holds (nothing for a whole file) is the file's too; reading
	// it to the end lets an idx.FileReader verify what follows the data.
	if _, err := io.Copy(io.Discard, r); err != nil {
		return nil, err
	}
	file.Sum(out.File[:0])
	return out, nil
}
