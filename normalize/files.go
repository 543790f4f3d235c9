package normalize

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/gif"  // register the GIF decoder for LoadFile (the first frame)
	_ "image/jpeg" // register the JPEG decoder for LoadFile
	_ "image/png"  // register the PNG decoder for LoadFile
	"io"
	"math"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	_ "golang.org/x/image/bmp"  // register the BMP decoder for LoadFile
	_ "golang.org/x/image/tiff" // register the TIFF decoder for LoadFile
	_ "golang.org/x/image/webp" // register the WebP decoder for LoadFile

	"idxlabel/internal/atomicfile"
)

// ImageExtensions are the file name endings LoadFile and ImageFolder take (any case).
var ImageExtensions = []string{".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tif", ".tiff"}

// IsImageFile reports whether name ends in one of ImageExtensions.
func IsImageFile(name string) bool {
	return slices.Contains(ImageExtensions, strings.ToLower(filepath.Ext(name)))
}

// File is one image of an ImageFolder tree: its path, its class, and its class folder's name
// ("" for an image not in a class folder).
type File struct {
	Path   string
	Label  int
	Folder string
}

// ImageFolder is ReadFolder for callers that take only the images and what was skipped.
func ImageFolder(dir string) (files []File, skipped []string, err error) {
	f, err := ReadFolder(dir)
	if f == nil {
		return nil, nil, err
	}
	if err != nil {
		return nil, f.Skipped, err
	}
	return f.Files, f.Skipped, nil
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
// as width × height × (the decoded bytes per pixel + 2 for the ink images; + 1 for DecodeGray's
// grey copy): 192 MiB, so an import stays under 300 MB. Bytes per pixel come from the colour model image.DecodeConfig
// reports (1 grey, 2 grey 16-bit, 4 RGBA, 8 RGBA 16-bit) and, for JPEG, from its frame header:
// the planes of its components at their sampling factors, and for a progressive JPEG 4 more
// bytes for each of their pixels (image/jpeg keeps every DCT coefficient until the last scan).
// For example a grey PNG may have 40 megapixels, an 8-bit RGBA PNG 33, a 16-bit RGBA PNG 20, a
// baseline 4:2:0 colour JPEG 40, a progressive 4:4:4 one 11.
const MaxDecodeBytes = 192 << 20

// largeDecode is the estimated decode size (bytes) above which decodeBounded collects garbage
// before decoding.
const largeDecode = 32 << 20

// ErrTooLarge: an image is larger than MaxPixels or would need more than MaxDecodeBytes.
var ErrTooLarge = errors.New("image too large")

// bytesPerPixel estimates the decoded size of one pixel of an image of format (as
// image.DecodeConfig names it) and colour model; r is the file, for JPEG's frame header.
func bytesPerPixel(format string, m color.Model, r io.ReadSeeker) float64 {
	switch {
	case format == "jpeg":
		return jpegBytesPerPixel(r)
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

// jpegWorst is the estimate for a JPEG whose frame header cannot be read: progressive CMYK.
const jpegWorst = 20

// jpegBytesPerPixel reads a JPEG's frame header (the SOFn segment, ITU T.81 B.2.2) and estimates
// what image/jpeg allocates per pixel: one byte per component plane pixel (a subsampled plane
// has fewer), twice that for 4 components (CMYK is converted at the end), plus 4 bytes per
// plane pixel for a progressive JPEG (SOF2, SOF6, SOF10, SOF14).
func jpegBytesPerPixel(r io.ReadSeeker) float64 {
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return jpegWorst
	}
	br := bufio.NewReaderSize(io.LimitReader(r, 1<<20), 4096)
	var soi [2]byte
	if _, err := io.ReadFull(br, soi[:]); err != nil || soi != [2]byte{0xff, 0xd8} {
		return jpegWorst
	}
	for range 1000 {
		b, err := br.ReadByte()
		if err != nil || b != 0xff {
			return jpegWorst
		}
		m, err := br.ReadByte()
		for err == nil && m == 0xff { // fill bytes
			m, err = br.ReadByte()
		}
		if err != nil {
			return jpegWorst
		}
		if m == 0x01 || m >= 0xd0 && m <= 0xd8 { // markers without a length
			continue
		}
		var l [2]byte
		if _, err := io.ReadFull(br, l[:]); err != nil {
			return jpegWorst
		}
		n := int(l[0])<<8 | int(l[1]) - 2
		if n < 0 || m == 0xda { // a scan before any frame header
			return jpegWorst
		}
		seg := make([]byte, n)
		if _, err := io.ReadFull(br, seg); err != nil {
			return jpegWorst
		}
		if m < 0xc0 || m > 0xcf || m == 0xc4 || m == 0xc8 || m == 0xcc {
			continue
		}
		if len(seg) < 6 || len(seg) < 6+3*int(seg[5]) || seg[5] == 0 {
			return jpegWorst
		}
		comps := int(seg[5])
		hmax, vmax := 1, 1
		for i := range comps {
			hv := seg[6+3*i+1]
			hmax, vmax = max(hmax, int(hv>>4)), max(vmax, int(hv&15))
		}
		planes := 0.0
		for i := range comps {
			hv := seg[6+3*i+1]
			planes += float64(max(1, int(hv>>4))*max(1, int(hv&15))) / float64(hmax*vmax)
		}
		bpp := planes
		if comps == 4 {
			bpp *= 2
		}
		if m == 0xc2 || m == 0xc6 || m == 0xca || m == 0xce {
			bpp += 4 * planes
		}
		return bpp
	}
	return jpegWorst
}

// decodeBounded decodes an image from the regular file path, checking its dimensions with
// image.DecodeConfig first: at most MaxPixels, and the decoded image plus extra bytes per pixel
// (what the caller makes of it) at most MaxDecodeBytes. Errors name the file: not a regular file
// (atomicfile.ErrNotRegular), not a decodable image, or ErrTooLarge.
func decodeBounded(path string, extra float64) (image.Image, error) {
	f, _, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return decodeFrom(path, f, extra)
}

// decodeFrom decodes the image r holds as decodeBounded does, name naming it in errors.
func decodeFrom(name string, r io.ReadSeeker, extra float64) (image.Image, error) {
	cfg, format, err := image.DecodeConfig(r)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot decode: %v", name, err)
	}
	pixels := int64(cfg.Width) * int64(cfg.Height)
	if pixels > MaxPixels {
		return nil, fmt.Errorf("%s: %w: %d×%d pixels (%.1f megapixels), above the %d megapixels idxlabel decodes",
			name, ErrTooLarge, cfg.Width, cfg.Height, float64(pixels)/1e6, MaxPixels/1_000_000)
	}
	bpp := bytesPerPixel(format, cfg.ColorModel, r)
	if need := float64(pixels) * (bpp + extra); need > MaxDecodeBytes {
		return nil, fmt.Errorf("%s: %w: %d×%d pixels of %s at %.3g bytes each would need %.0f MiB to decode, above the %d MiB idxlabel allows",
			name, ErrTooLarge, cfg.Width, cfg.Height, format, bpp, need/(1<<20), MaxDecodeBytes>>20)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	if need := float64(pixels) * (bpp + extra); need > largeDecode {
		// The decoder allocates its planes in one go, before the collector can run: collect
		// the previous image's garbage first, or the heap holds both (measured: 5 RGBA images
		// of 32 megapixels peaked at 352 MB without this, 270 MB with it).
		runtime.GC()
	}
	img, _, err := image.Decode(r)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot decode: %v", name, err)
	}
	return img, nil
}

// DecodeFile decodes the image file path as LoadFile does before its preprocessing: a regular
// file (never a FIFO or device), its dimensions checked with image.DecodeConfig before it is
// decoded. Errors, naming the file: it cannot be read, is not a regular file
// (atomicfile.ErrNotRegular), cannot be decoded, or is too large (ErrTooLarge).
func DecodeFile(path string) (image.Image, error) { return decodeBounded(path, 2) }

// DecodeBytes decodes an image file held in memory (PNG, JPEG, GIF's first frame, BMP, WebP or
// TIFF: a Parquet file's image cell), checking its dimensions with image.DecodeConfig first, as
// LoadFile does. name names it in errors ("train.parquet: row 12"). Errors: not a decodable
// image, or ErrTooLarge (above MaxPixels or MaxDecodeBytes).
func DecodeBytes(name string, data []byte) (image.Image, error) {
	return decodeFrom(name, bytes.NewReader(data), 2)
}

// LoadFile decodes an image file (PNG, JPEG, GIF's first frame, BMP, WebP or TIFF) and returns its 28×28 MNIST sample (or
// opts.Width×Height), row-major, 0 = background, 255 = ink: through Digit with opts, or, when
// normalizeDigit is false, only converted to ink (opts.Polarity; made bilevel only when
// opts.Threshold is 1–255, else keeping its grey levels) and resized to the field by area
// coverage (Resize; for images that are already MNIST-like). The file must be a regular file;
// its dimensions are checked (image.DecodeConfig) before it is decoded. Errors, each naming the
// file: it cannot be read, is not a regular file (atomicfile.ErrNotRegular), cannot be decoded,
// is too large (ErrTooLarge: above MaxPixels or MaxDecodeBytes), or has no ink (ErrEmpty).
func LoadFile(path string, opts Options, normalizeDigit bool) ([]byte, error) {
	img, err := decodeBounded(path, 2) // the ink image and its bilevel copy
	if err != nil {
		return nil, err
	}
	return Sample(path, img, opts, normalizeDigit)
}

// Sample turns a decoded image into a sample as LoadFile does (MNIST's preprocessing, or with
// normalizeDigit false ink resized to the field): opts.Width×Height pixels (28×28 when 0),
// row-major, 0 = background, 255 = ink. name names the image in errors. Errors: ErrEmpty (no
// ink), naming it.
func Sample(name string, img image.Image, opts Options, normalizeDigit bool) ([]byte, error) {
	if !normalizeDigit {
		ink := Ink(img, opts.Polarity)
		if opts.Threshold > 0 {
			Bilevel(ink, opts.Threshold)
		}
		if _, ok := BoundingBox(ink); !ok {
			return nil, fmt.Errorf("%s: %w", name, ErrEmpty)
		}
		width, height := opts.field()
		return Resize(ink, width, height).Pix, nil
	}
	g, err := Digit(img, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return g.Pix, nil
}

// DecodeGray decodes an image file (the formats LoadFile reads) into grey levels, one byte a
// pixel (0 black, 255 white): a JPEG's Y channel as it is (its colour planes dropped), a grey
// image as it is, any other colour by luminance (Ink's rule), an image with transparency as
// dark ink on white paper (255 − alpha). It is for pages too large to hold twice, such as a
// 600 dpi A4 scan (35 megapixels): the file must be a regular file, its dimensions are checked
// with image.DecodeConfig before decoding (at most MaxPixels; the decoded image plus its grey
// copy at most MaxDecodeBytes), and the decoded image is released once the grey one is made.
// Errors, each naming the file: it cannot be read, is not a regular file
// (atomicfile.ErrNotRegular), cannot be decoded, or is too large (ErrTooLarge).
func DecodeGray(path string) (*image.Gray, error) {
	img, err := decodeBounded(path, 1)
	if err != nil {
		return nil, err
	}
	switch m := img.(type) {
	case *image.Gray:
		return m, nil
	case *image.YCbCr:
		return &image.Gray{Pix: m.Y, Stride: m.YStride, Rect: m.Rect}, nil
	}
	g, transparent := luminance(img)
	if transparent {
		for k, v := range g.Pix {
			g.Pix[k] = 255 - v
		}
	}
	return g, nil
}
