package export

import (
	"archive/zip"
	"context"
	"encoding/binary"
	"fmt"
	"idxlabel/sample"
	"io"
	"strings"
)

// writeNPZ writes a NumPy .npz (a zip of .npy files, stored uncompressed like numpy.savez):
// x.npy, N×H×W uint8, and y.npy, N int64 (−1 for sample.NoLabel). The .npy header is format version
// 1.0 as the NumPy documentation gives it: the magic "\x93NUMPY", the version bytes 1 0, a
// little-endian uint16 header length, and a Python dict literal padded with spaces and a
// newline so that the data starts at a multiple of 64 bytes.
func writeNPZ(ctx context.Context, s sample.Set, w io.Writer, progress func(done, total int)) error {
	z := zip.NewWriter(w)
	x, err := z.CreateHeader(&zip.FileHeader{Name: "x.npy", Method: zip.Store})
	if err != nil {
		return err
	}
	height, width := s.ShownSize()
	if _, err := x.Write(npyHeader("|u1", s.N, height, width)); err != nil {
		return err
	}
	var px []byte
	for k := range s.N {
		if k%1000 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			progress(k, s.N)
		}
		px = s.Shown(k, px)
		if _, err := x.Write(px); err != nil {
			return err
		}
	}
	y, err := z.CreateHeader(&zip.FileHeader{Name: "y.npy", Method: zip.Store})
	if err != nil {
		return err
	}
	buf := npyHeader("<i8", s.N)
	for _, l := range s.Labels {
		v := int64(l)
		if l == sample.NoLabel {
			v = -1
		}
		buf = binary.LittleEndian.AppendUint64(buf, uint64(v))
	}
	if _, err := y.Write(buf); err != nil {
		return err
	}
	progress(s.N, s.N)
	return z.Close()
}

// npyHeader returns a .npy v1.0 header for an array of dtype descr and shape.
func npyHeader(descr string, shape ...int) []byte {
	dims := make([]string, len(shape))
	for k, d := range shape {
		dims[k] = fmt.Sprint(d)
	}
	tuple := strings.Join(dims, ", ")
	if len(shape) == 1 {
		tuple += ","
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, tuple)
	const pre = 10 // magic 6, version 2, header length 2
	total := (pre + len(dict) + 1 + 63) / 64 * 64
	dict += strings.Repeat(" ", total-pre-len(dict)-1) + "\n"
	out := append([]byte("\x93NUMPY\x01\x00"), byte(len(dict)), byte(len(dict)>>8))
	return append(out, dict...)
}
