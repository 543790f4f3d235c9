package store

import (
	"fmt"
	"hash/crc32"
	"io"

	"idxlabel/idx"
)

// streamImages reads the IDX image file name as Open reads it (idx.ReadFileLimit with
// idx.MaxData), holding none of its data: it returns an array of its header alone (Data nil)
// and the CRC-32C of its data (the base record's, fingerprint), streamed (idx.OpenFile: a
// 64 KiB read buffer, and gzip's window) to the end of the file, so that every byte is checked
// as ReadFileLimit checks them: a header declaring more than idx.MaxData bytes, data cut short
// or followed by more, a corrupt gzip stream (its CRC-32 and length) are refused. Memory: O(1)
// in the file's size. Errors: idx.OpenFile's and FileReader.Read's (naming the file), and a
// *idx.FormatError wrapping idx.ErrTooLarge.
func streamImages(name string) (*idx.Array, uint32, error) {
	f, err := idx.OpenFile(name)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	if size, limit := f.DataSize(), idx.MaxData(); size > limit {
		return nil, 0, &idx.FormatError{File: name, Err: idx.ErrTooLarge, Detail: fmt.Sprintf(
			"header %s declares %d bytes of data, above the limit of %d bytes for reading a file whole; %s raises it", f.Header, size, limit, idx.MaxDataEnv)}
	}
	sum := crc32.New(castagnoli)
	if _, err := io.Copy(sum, f); err != nil {
		return nil, 0, err
	}
	return &idx.Array{Header: f.Header}, sum.Sum32(), nil
}
