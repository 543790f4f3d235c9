package formats

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
	"idxlabel/sample"
)

// Kaggle's CSV (the Digit Recognizer's train.csv and test.csv): a header line
// "label,pixel0,…,pixel783" (test.csv without "label"), then one line per sample, its label and
// its pixels 0–255 in row-major order. Kaggle's Fashion-MNIST and Sign Language MNIST number
// their pixels from 1 ("pixel1,…,pixel784"); both are read.

// maxCSVHeader is the longest header line read: 16 MiB, the names of over a million pixels.
const maxCSVHeader = 16 << 20

// readKaggle reads a Kaggle CSV. A file without a label column gives unlabelled samples (every
// label sample.NoLabel); an empty label field is no label too. The samples are square, their
// side the square root of the pixel columns' count. Errors, naming the file and the line:
// ErrMalformed (a header of other columns, a row of another length, a value that is not an
// integer 0–255 or a label outside int32), ErrTooLarge (more than idx.MaxData of pixels), or
// the context's error.
func readKaggle(ctx context.Context, path string, opts Options) (*Set, error) {
	f, _, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	head, err := readLine(br, maxCSVHeader)
	if err != nil {
		return nil, fmt.Errorf("%s: line 1: %w", path, err)
	}
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	labelled, pixels, err := kaggleHeader(head)
	if err != nil {
		return nil, fmt.Errorf("%s: line 1: %w: %v", path, ErrMalformed, err)
	}
	side := int(math.Sqrt(float64(pixels)))
	if side*side != pixels {
		return nil, fmt.Errorf("%s: line 1: %w: %d pixel columns are not a square image (28×28 is 784)", path, ErrMalformed, pixels)
	}
	s := &samples{name: path}
	if err := s.reserve(1, side, side); err != nil {
		return nil, err
	}
	maxRows := idx.MaxData() / int64(pixels)
	// A row: a label of at most 11 characters and pixels of at most 3 digits, with commas.
	maxLine := 12 + 4*pixels + 2
	px := make([]byte, pixels)
	for line := 2; ; line++ {
		if line%1000 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			opts.Progress(len(s.labels), 0)
		}
		row, err := readLine(br, maxLine)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", path, line, err)
		}
		if len(row) == 0 { // a blank last line
			continue
		}
		if int64(len(s.labels)) >= maxRows || len(s.labels) >= MaxRows {
			return nil, fmt.Errorf("%s: line %d: more than %d samples of %d pixels: %w (the limit is %d bytes; %s raises it)",
				path, line, len(s.labels), pixels, ErrTooLarge, idx.MaxData(), idx.MaxDataEnv)
		}
		label, err := kaggleRow(row, labelled, px)
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %w: %v", path, line, ErrMalformed, err)
		}
		s.add(px, label)
	}
	opts.Progress(len(s.labels), len(s.labels))
	set, err := s.set()
	if err != nil {
		return nil, err
	}
	if !labelled {
		set.Notes = append(set.Notes, fmt.Sprintf("%s has no label column (like Kaggle's test.csv): %d samples without labels", path, len(s.labels)))
	}
	return set, nil
}

// readLine returns the next line without its "\n" or "\r\n" (valid until the next call), at
// most max bytes long. Errors: io.EOF at the end (a last line without "\n" is returned first),
// ErrMalformed for a longer line, or the read error.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var long []byte
	for {
		frag, err := br.ReadSlice('\n')
		if len(long)+len(frag) > max+2 {
			return nil, fmt.Errorf("%w: a line longer than %d bytes", ErrMalformed, max)
		}
		if err == bufio.ErrBufferFull {
			long = append(long, frag...)
			continue
		}
		if long != nil {
			frag = append(long, frag...)
		}
		if err == io.EOF && len(frag) == 0 {
			return nil, io.EOF
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		frag = bytes.TrimSuffix(frag, []byte("\n"))
		return bytes.TrimSuffix(frag, []byte("\r")), nil
	}
}

// kaggleHeader reads the header: "label," (optional) then pixel0…pixel{P−1} or pixel1…pixelP.
func kaggleHeader(head []byte) (labelled bool, pixels int, err error) {
	fields := bytes.Split(head, []byte(","))
	if string(fields[0]) == "label" {
		labelled, fields = true, fields[1:]
	}
	if len(fields) == 0 {
		return false, 0, errors.New("no pixel columns")
	}
	first := 0
	if string(fields[0]) == "pixel1" {
		first = 1
	}
	for k, f := range fields {
		if string(f) != "pixel"+strconv.Itoa(first+k) {
			return false, 0, fmt.Errorf("column %d is %.40q, expected pixel%d (Kaggle's header: label,pixel0,pixel1,…)", k+1+btoi(labelled), f, first+k)
		}
	}
	return labelled, len(fields), nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// kaggleRow parses one row into px (its pixels) and returns its label (sample.NoLabel for an
// empty field, or for a file without labels).
func kaggleRow(row []byte, labelled bool, px []byte) (int, error) {
	label := sample.NoLabel
	if labelled {
		i := bytes.IndexByte(row, ',')
		if i < 0 {
			return 0, errors.New("a row without pixels")
		}
		if f := bytes.TrimSpace(row[:i]); len(f) > 0 {
			v, err := strconv.ParseInt(string(f), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("label %.20q is not an integer", f)
			}
			if label, err = labelOf(v); err != nil {
				return 0, err
			}
		}
		row = row[i+1:]
	}
	k := 0
	v, digits := 0, 0
	for i := 0; i <= len(row); i++ {
		if i == len(row) || row[i] == ',' {
			if digits == 0 || v > 255 {
				return 0, fmt.Errorf("pixel %d is not an integer 0–255", k)
			}
			if k >= len(px) {
				return 0, fmt.Errorf("more than the header's %d pixels", len(px))
			}
			px[k] = byte(v)
			k, v, digits = k+1, 0, 0
			continue
		}
		c := row[i]
		switch {
		case c >= '0' && c <= '9':
			v = min(v*10+int(c-'0'), 256) // 256: above 255 whatever the digits after ("00255" is 255)
			digits++
		case c == ' ' || c == '\t':
		default:
			return 0, fmt.Errorf("pixel %d is not an integer 0–255", k)
		}
	}
	if k != len(px) {
		return 0, fmt.Errorf("%d pixels, the header names %d", k, len(px))
	}
	return label, nil
}
