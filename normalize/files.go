package normalize

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg" // register the JPEG decoder for LoadFile
	_ "image/png"  // register the PNG decoder for LoadFile
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/disintegration/imaging"

	"idxlabel/internal/atomicfile"
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
// being the folder's integer name, see ParseLabel): every PNG or JPEG file one level down, in
// sorted order — folders by label value, files by name. Folders whose name is not a
// non-negative integer are returned in skipped with the reason. Errors: DIR cannot be read,
// holds no image at all, or a folder's name is a number above MaxLabel (naming the folder,
// wrapping strconv.ErrRange): it was meant as a label, and wrapping it to another would be wrong.
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
		l, err := ParseLabel(e.Name())
		if errors.Is(err, strconv.ErrRange) {
			return nil, skipped, fmt.Errorf("%s: %w", filepath.Join(dir, e.Name()), err)
		}
		if err != nil {
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

// MaxLabel is the largest label a folder name may give: the largest IDX int32, 2^31−1.
const MaxLabel = math.MaxInt32

// ParseLabel reads a folder name as a label: decimal digits only (no sign, no spaces), value
// 0 to MaxLabel. Errors: strconv.ErrSyntax for any other name, and, for digits whose value is
// above MaxLabel, an error wrapping strconv.ErrRange that says so (never wrapped around:
// 4294967296 is not 0).
func ParseLabel(name string) (int, error) {
	if name == "" || strings.Trim(name, "0123456789") != "" {
		return 0, strconv.ErrSyntax
	}
	v, err := strconv.ParseUint(name, 10, 64)
	if err != nil || v > MaxLabel {
		return 0, fmt.Errorf("folder name %s is above the largest label an IDX file holds (%d): %w", name, MaxLabel, strconv.ErrRange)
	}
	return int(v), nil
}

// MaxPixels is the largest image LoadFile decodes, width × height: 40 megapixels (a 7,300×5,500
// photo); a digit needs far fewer. MaxDecodeBytes bounds the memory of one decode as well.
const MaxPixels = 40_000_000

// MaxDecodeBytes bounds the memory LoadFile may need for one image, estimated before decoding
// as width × height × (the decoded bytes per pixel of its colour model + 2 for the ink images):
// 192 MiB, so an import stays well under 300 MB. For example an 8-bit grey PNG may have 40
// megapixels, an 8-bit RGBA one 33, a 16-bit RGBA one 20, a JPEG (counted at 8 bytes per pixel:
// a progressive JPEG holds its coefficients) 20.
const MaxDecodeBytes = 192 << 20

// ErrTooLarge: an image is larger than MaxPixels or would need more than MaxDecodeBytes.
var ErrTooLarge = errors.New("image too large")

// bytesPerPixel estimates the decoded size of one pixel of an image of format (as
// image.DecodeConfig names it) and colour model.
func bytesPerPixel(format string, m color.Model) int {
	switch {
	case format == "jpeg":
		return 8
	case m == color.GrayModel || m == color.AlphaModel:
		return 1
	case m == color.Gray16Model || m == color.Alpha16Model:
		return 2
	case m == color.RGBAModel || m == color.NRGBAModel:
		return 4
	}
	if _, ok := m.(color.Palette); ok {
		return 1
	}
	return 8
}

// decodeBounded decodes an image from the regular file path, checking its dimensions with
// image.DecodeConfig first. Errors name the file: not a regular file (atomicfile.ErrNotRegular),
// not a decodable image, or ErrTooLarge (above MaxPixels or MaxDecodeBytes).
func decodeBounded(path string) (image.Image, error) {
	f, _, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cfg, format, err := image.DecodeConfig(f)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot decode: %v", path, err)
	}
	pixels := int64(cfg.Width) * int64(cfg.Height)
	if pixels > MaxPixels {
		return nil, fmt.Errorf("%s: %w: %d×%d pixels (%.1f megapixels), above the %d megapixels idxlabel decodes",
			path, ErrTooLarge, cfg.Width, cfg.Height, float64(pixels)/1e6, MaxPixels/1_000_000)
	}
	bpp := bytesPerPixel(format, cfg.ColorModel)
	if need := pixels * int64(bpp+2); need > MaxDecodeBytes {
		return nil, fmt.Errorf("%s: %w: %d×%d pixels of %s at %d bytes each would need %d MB to decode, above the %d MB idxlabel allows",
			path, ErrTooLarge, cfg.Width, cfg.Height, format, bpp, need>>20, MaxDecodeBytes>>20)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	img, _, err := image.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot decode: %v", path, err)
	}
	return img, nil
}

// LoadFile decodes an image file (PNG or JPEG) and returns its 28×28 MNIST sample (or
// opts.Width×Height), row-major, 0 = background, 255 = ink: through Digit with opts, or, when
// normalizeDigit is false, only converted to ink (opts.Polarity, opts.Threshold) and resized to
// the field (for images that are already MNIST-like). The file must be a regular file; its
// dimensions are checked (image.DecodeConfig) before it is decoded. Errors, each naming the
// file: it cannot be read, is not a regular file (atomicfile.ErrNotRegular), cannot be
// decoded, is too large (ErrTooLarge: above MaxPixels or MaxDecodeBytes), or has no ink
// (ErrEmpty).
func LoadFile(path string, opts Options, normalizeDigit bool) ([]byte, error) {
	img, err := decodeBounded(path)
	if err != nil {
		return nil, err
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
