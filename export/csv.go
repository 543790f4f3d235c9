package export

import (
	"bufio"
	"context"
	"io"
	"strconv"
)

// writeCSV writes Kaggle's digit-recognizer layout: a header "label,pixel0,…,pixel{H·W−1}",
// then one row per sample, its label (empty for NoLabel) and its pixels in row-major order.
func writeCSV(ctx context.Context, s Samples, w io.Writer, progress func(done, total int)) error {
	b := bufio.NewWriterSize(w, 1<<20)
	b.WriteString("label")
	for p := range s.H * s.W {
		b.WriteString(",pixel")
		b.WriteString(strconv.Itoa(p))
	}
	b.WriteByte('\n')
	row := make([]byte, 0, 4*s.H*s.W+16)
	for k := range s.N {
		if k%1000 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			progress(k, s.N)
		}
		row = row[:0]
		if l := s.Labels[k]; l != NoLabel {
			row = strconv.AppendInt(row, int64(l), 10)
		}
		for _, v := range s.Pixels(k) {
			row = append(row, ',')
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
