package normalize

import (
	"fmt"
	"image"
	_ "image/jpeg" // register the JPEG decoder for LoadFile
	_ "image/png"  // register the PNG decoder for LoadFile
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/disintegration/imaging"
)

// ImageExtensions are the file name endings LoadFile and ImageFolder take (any case).
var ImageExtensions = []string{".png", ".jpg", ".jpeg"}

// IsImageFile reports whether name ends in one of ImageExtensions.
func IsImageFile(name string) bool {
	return slices.Contains(ImageExtensions, strings.ToLower(filepath.Ext(name)))
}

// File is one image of an ImageFolder tree and its label.
type File struct {
	Path  string
	Label int
}

// ImageFolder lists an ImageFolder tree (torchvision's layout: DIR/<label>/<image>, the label
// being the folder's integer name): every PNG or JPEG file one level down, in sorted order —
// folders by label value, files by name. Folders whose name is not a non-negative integer are
// returned in skipped with the reason. Errors: DIR cannot be read, or holds no image at all.
func ImageFolder(dir string) (files []File, skipped []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	type folder struct {
		label int
		name  string
	}
	var folders []folder
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		l, err := strconv.Atoi(e.Name())
		if err != nil || l < 0 {
			skipped = append(skipped, fmt.Sprintf("%s: folder name is not a label (a non-negative integer)", filepath.Join(dir, e.Name())))
			continue
		}
		folders = append(folders, folder{l, e.Name()})
	}
	slices.SortFunc(folders, func(a, b folder) int { return a.label - b.label })
	for _, f := range folders {
		sub := filepath.Join(dir, f.name)
		names, err := os.ReadDir(sub)
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%s: %v", sub, err))
			continue
		}
		for _, n := range names {
			if !n.IsDir() && IsImageFile(n.Name()) {
				files = append(files, File{Path: filepath.Join(sub, n.Name()), Label: f.label})
			}
		}
	}
	if len(files) == 0 {
		return nil, skipped, fmt.Errorf("%s: no PNG or JPEG images in label folders (DIR/<label>/*.png)", dir)
	}
	return files, skipped, nil
}

// LoadFile decodes an image file (PNG or JPEG) and returns its 28×28 MNIST sample (or
// opts.Width×Height), row-major, 0 = background, 255 = ink: through Digit with opts, or, when
// normalizeDigit is false, only converted to ink (opts.Polarity, opts.Threshold) and resized to
// the field (for images that are already MNIST-like). Errors: the file cannot be read or decoded (named), or has no ink.
func LoadFile(path string, opts Options, normalizeDigit bool) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	img, _, err := image.Decode(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: cannot decode: %v", path, err)
	}
	if !normalizeDigit {
		ink := Ink(img, opts.Polarity, opts.Threshold)
		if _, ok := BoundingBox(ink); !ok {
			return nil, fmt.Errorf("%s: %w", path, ErrEmpty)
		}
		width, height := FieldSize, FieldSize
		if opts.Width > 0 && opts.Height > 0 {
			width, height = opts.Width, opts.Height
		}
		if ink.Rect.Dx() == width && ink.Rect.Dy() == height {
			return ink.Pix, nil
		}
		filter := DefaultFilter
		if opts.Filter != nil {
			filter = *opts.Filter
		}
		return toGray(imaging.Resize(ink, width, height, filter)).Pix, nil
	}
	g, err := Digit(img, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return g.Pix, nil
}
