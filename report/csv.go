package report

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"

	"idxlabel/suspect/confusion"
)

// WriteConfusionCSV writes a confusion matrix as CSV (RFC 4180 quoting, encoding/csv): a
// header "given,<class>,<class>…" naming the predicted classes (m.Cols), then one row per given
// label (m.Rows, ascending): the label, then its count in each column. Classes and labels are
// written by name when className (may be nil) gives one, else as numbers. Errors: a nil m (no
// scan ran); those of w.
func WriteConfusionCSV(w io.Writer, m *confusion.Matrix, className func(c int) string) error {
	if m == nil {
		return errors.New("no confusion matrix to write: the CNN scan did not run")
	}
	name := func(c int) string {
		if className != nil {
			if s := className(c); s != "" {
				return s
			}
		}
		return strconv.Itoa(c)
	}
	cw := csv.NewWriter(w)
	rec := make([]string, 1+len(m.Cols))
	rec[0] = "given"
	for k, c := range m.Cols {
		rec[1+k] = name(c)
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for r, counts := range m.Counts() {
		rec[0] = name(m.Rows[r])
		for k, n := range counts {
			rec[1+k] = strconv.Itoa(n)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteMapCSV writes a 2-D map as CSV: a header "index,x,y", then one row per sample in order,
// its 0-based sample number and its map coordinates (xy holds N×2 values, as embed.Map returns
// them; the shortest decimal that reads back as the same float32). Errors: an odd number of
// coordinates; those of w.
func WriteMapCSV(w io.Writer, xy []float32) error {
	if len(xy)%2 != 0 {
		return fmt.Errorf("a map of %d coordinates: not two per sample", len(xy))
	}
	b := bufio.NewWriterSize(w, 1<<16)
	b.WriteString("index,x,y\n")
	row := make([]byte, 0, 64)
	for i := range len(xy) / 2 {
		row = strconv.AppendInt(row[:0], int64(i), 10)
		row = append(row, ',')
		row = strconv.AppendFloat(row, float64(xy[2*i]), 'g', -1, 32)
		row = append(row, ',')
		row = strconv.AppendFloat(row, float64(xy[2*i+1]), 'g', -1, 32)
		row = append(row, '\n')
		if _, err := b.Write(row); err != nil {
			return err
		}
	}
	return b.Flush()
}
