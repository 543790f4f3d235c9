package sheets

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"idxlabel/normalize"
)

// WriterFrom says where a sheet's writer number comes from.
type WriterFrom int

const (
	// WriterIndex numbers the sheets 0, 1, 2, … in the order List returns them: one writer a
	// sheet.
	WriterIndex WriterFrom = iota
	// WriterName takes the first number in the sheet's file name ("writer-017-page2.jpg" is
	// writer 17), so several pages of one writer share it.
	WriterName
)

// ParseWriterFrom reads "index" (or "") or "name". Errors: any other word.
func ParseWriterFrom(s string) (WriterFrom, error) {
	switch s {
	case "index", "":
		return WriterIndex, nil
	case "name":
		return WriterName, nil
	}
	return 0, fmt.Errorf("writer-from %q: expected index or name", s)
}

// Source is one sheet to read: its file and its writer's number.
type Source struct {
	Path   string
	Writer int
}

// List returns the sheets args name, in the order they are read: each argument a sheet image
// file, or a folder whose image files (normalize.ImageExtensions; not its sub-folders) are
// taken in natural order (sheet-2 before sheet-10), and the writer of each (WriterFrom). Every
// other entry of a folder is returned in skipped with the reason. Errors: an argument that
// cannot be read, a file that is not an image, no sheet at all, and with WriterName a file
// name without a number (or one above MaxLabel), each naming the file.
func List(args []string, from WriterFrom) (sources []Source, skipped []string, err error) {
	var paths []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, nil, err
		}
		if !fi.IsDir() {
			if !normalize.IsImageFile(a) {
				return nil, nil, fmt.Errorf("%s: not an image file (PNG, JPEG, GIF, BMP, WebP, TIFF)", a)
			}
			paths = append(paths, a)
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			return nil, nil, err
		}
		var names []string
		for _, e := range entries {
			p := filepath.Join(a, e.Name())
			switch {
			case e.IsDir():
				skipped = append(skipped, p+": a folder (sheets are read from the folder given, not below it)")
			case !normalize.IsImageFile(e.Name()):
				skipped = append(skipped, p+": not an image file")
			default:
				names = append(names, e.Name())
			}
		}
		slices.SortFunc(names, naturalCompare)
		for _, n := range names {
			paths = append(paths, filepath.Join(a, n))
		}
	}
	if len(paths) == 0 {
		return nil, skipped, fmt.Errorf("%s: no sheet images (PNG, JPEG, GIF, BMP, WebP, TIFF)", strings.Join(args, ", "))
	}
	for k, p := range paths {
		w := k
		if from == WriterName {
			if w, err = nameNumber(p); err != nil {
				return nil, skipped, err
			}
		}
		sources = append(sources, Source{Path: p, Writer: w})
	}
	return sources, skipped, nil
}

// nameNumber returns the first run of decimal digits in path's base name.
func nameNumber(path string) (int, error) {
	base := filepath.Base(path)
	i := strings.IndexAny(base, "0123456789")
	if i < 0 {
		return 0, fmt.Errorf("%s: no number in the file name to take the writer from (--writer-from name)", path)
	}
	j := i
	for j < len(base) && base[j] >= '0' && base[j] <= '9' {
		j++
	}
	v, err := strconv.ParseUint(base[i:j], 10, 64)
	if err != nil || v > MaxLabel {
		return 0, fmt.Errorf("%s: the writer number %s is above %d", path, base[i:j], MaxLabel)
	}
	return int(v), nil
}

// naturalCompare orders names as a person reads them: runs of digits by their value, the rest
// byte by byte ("sheet-2" before "sheet-10"); names that compare equal so by bytes.
func naturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ca, cb := a[i], b[j]
		if isDigit(ca) && isDigit(cb) {
			si, sj := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na, nb := strings.TrimLeft(a[si:i], "0"), strings.TrimLeft(b[sj:j], "0")
			if len(na) != len(nb) {
				return len(na) - len(nb)
			}
			if c := strings.Compare(na, nb); c != 0 {
				return c
			}
			continue
		}
		if ca != cb {
			return int(ca) - int(cb)
		}
		i++
		j++
	}
	if c := (len(a) - i) - (len(b) - j); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
