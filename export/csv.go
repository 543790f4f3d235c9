package export

import (
	"bufio"
	"context"
	"idxlabel/sample"
	"io"
	"strconv"
)

// writeCSV writes Kaggle's digit-recognizer layout: a header "label,pixel0,…,pixel{H·W−1}",
// then one row per sample, its label (empty for sample.NoLabel) and its pixels (as shown) in
// row-major order. Samples none of which has a label are written as Kaggle's test.csv: no label
// column.
func writeCSV(ctx context.Context, s sample.Set, w io.Writer, progress func(done, total int)) error {
	b := bufio.NewWriterSize(w, 1<<20)
	labelled := s.N == 0 || s.Labelled()
	sep := ""
	if labelled {
		b.WriteString("label")
		sep = ","
	}
	for p := range s.H * s.W {
		b.WriteString(sep)
		b.WriteString("pixel")
		b.WriteString(strconv.Itoa(p))
		sep = ","
	}
	b.WriteByte('\n')
	row := make([]byte, 0, 4*s.H*s.W+16)
	var buf []byte
	for k := range s.N {
		if k%1000 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			progress(k, s.N)
		}
		row = row[:0]
		if l := s.Labels[k]; l != sample.NoLabel {
			row = strconv.AppendInt(row, int64(l), 10)
		}
		buf = s.Shown(k, buf)
		for p, v := range buf {
			if labelled || p > 0 {
				row = append(row, ',')
			}
			row = strconv.AppendUint(row, uint64(v), 10)
		}
		row = append(row, '\n')
		if _, err := b.Write(row); err != nil {
			return err
		}
	}
	progress(s.N, s.N)
	return b.Flush()
}
