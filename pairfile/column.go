package pairfile

import (
	"fmt"

	"idxlabel/idx"
)

// ReadLabelColumn reads the label file name (plain or gzip; its size bounded by idx.MaxData)
// as one annotator's labels: the whole array, and its column 0 (the classes) as int32, N
// values, sample.NoLabel (−2147483648) where the file stores it. The header is checked before
// the data is read: an integer dtype, N or N×K, whatever its count (CheckLabels); so is every
// class (32 bits, CheckLabel). Memory: the file's data once, and 4 bytes a sample. Errors name
// the file.
func ReadLabelColumn(name string) (*idx.Array, []int32, error) {
	h, err := idx.ReadHeaderFile(name)
	if err != nil {
		return nil, nil, err
	}
	if err := checkColumnHeader(name, h); err != nil {
		return nil, nil, err
	}
	a, err := idx.ReadFileLimit(name, idx.MaxData())
	if err != nil {
		return nil, nil, err
	}
	if err := checkColumnHeader(name, a.Header); err != nil { // the file may have changed meanwhile
		return nil, nil, err
	}
	n, stride := a.Dims[0], a.Stride()
	col := make([]int32, n)
	for i := range n {
		v := a.Int(i * stride)
		if err := CheckLabel(name, i, v); err != nil {
			return nil, nil, err
		}
		col[i] = int32(v)
	}
	return a, col, nil
}

// checkColumnHeader is the pair rule's check of a label file's header, whatever its count.
func checkColumnHeader(name string, h idx.Header) error {
	if h.Rank() == 0 {
		return fmt.Errorf("%s: labels must be N (or N×K with the class in column 0), found %s", name, h)
	}
	return CheckLabels(name, h, "", h.Dims[0])
}

// OpenImages opens the image file name for streaming its samples (idx.OpenFile: a regular file,
// its header checked against its size, gzip verified to its end) after checking that its header
// is one of images (CheckImages). The caller must Close it. Errors name the file.
func OpenImages(name string) (*idx.FileReader, error) {
	f, err := idx.OpenFile(name)
	if err != nil {
		return nil, err
	}
	if _, err := CheckImages(name, f.Header, 0, 0); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
