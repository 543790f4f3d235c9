package export

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"

	"idxlabel/internal/atomicfile"
)

// FileFact returns a report's line for a file it checked: name (such as "Images") and the
// file's base name with the SHA-256 of its bytes as they are on disk (gzip included, as
// sha256sum computes it), "t10k-images-idx3-ubyte.gz (SHA-256 8d422c7b…)": a report sent to a
// colleague names the file, not the folders of this machine, and a checksum to compare with
// their copy. It reads the file once, streaming (memory O(1); time linear in its size). Errors:
// the file is not a regular file, or cannot be opened or read.
func FileFact(name, path string) ([2]string, error) {
	f, _, err := atomicfile.OpenRegular(path)
	if err != nil {
		return [2]string{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return [2]string{}, fmt.Errorf("%s: %w", path, err)
	}
	return [2]string{name, fmt.Sprintf("%s (SHA-256 %s)", filepath.Base(path), hex.EncodeToString(h.Sum(nil)))}, nil
}
