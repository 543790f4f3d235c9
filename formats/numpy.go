package formats

import (
	"archive/zip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
	"idxlabel/sample"
)

// The .npy format, as the NumPy documentation gives it (numpy.lib.format): the magic
// "\x93NUMPY", a major and a minor version byte, the header's length (little-endian uint16 in
// version 1, uint32 in versions 2 and 3), then the header, a Python dict literal
// {'descr': '<i8', 'fortran_order': False, 'shape': (3, 4), }, then the data.

// maxNPYHeader is the longest .npy header read (NumPy itself refuses more than 10,000 bytes by
// default).
const maxNPYHeader = 64 << 10

// maxZipEntries is the most entries an .npz may list: numpy.savez writes one per array.
const maxZipEntries = 1024

// npyArray is a .npy header: the element type and the array's shape.
type npyArray struct {
	order   binary.ByteOrder
	kind    byte // 'u' unsigned, 'i' signed integer ('b' bool, 'f' float… are refused by the users)
	size    int  // bytes per element
	descr   string
	fortran bool
	shape   []int64
}

// elements returns the number of elements, or −1 when it is above limit.
func (a npyArray) elements(limit int64) int64 {
	n := int64(1)
	for _, d := range a.shape {
		if d != 0 && n > limit/d {
			return -1
		}
		n *= d
	}
	return n
}

// readNPYHeader reads a .npy header from r. name names the array in errors. Errors:
// ErrMalformed (wrapped) for anything but a version 1–3 header holding descr, fortran_order and
// shape with a simple (not structured, not object) dtype.
func readNPYHeader(r io.Reader, name string) (npyArray, int64, error) {
	bad := func(what string) error { return fmt.Errorf("%s: %w: %s", name, ErrMalformed, what) }
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return npyArray{}, 0, bad("not a .npy array (shorter than its magic)")
	}
	if string(pre[:6]) != "\x93NUMPY" {
		return npyArray{}, 0, bad("not a .npy array (no \\x93NUMPY magic)")
	}
	var hlen int64
	var used int64 = 8
	switch pre[6] {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return npyArray{}, 0, bad("truncated header")
		}
		hlen, used = int64(binary.LittleEndian.Uint16(b[:])), used+2
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return npyArray{}, 0, bad("truncated header")
		}
		hlen, used = int64(binary.LittleEndian.Uint32(b[:])), used+4
	default:
		return npyArray{}, 0, bad(fmt.Sprintf(".npy version %d.%d (1.0 to 3.0 are read)", pre[6], pre[7]))
	}
	if hlen > maxNPYHeader {
		return npyArray{}, 0, fmt.Errorf("%s: a header of %d bytes: %w (at most %d)", name, hlen, ErrTooLarge, maxNPYHeader)
	}
	text := make([]byte, hlen)
	if _, err := io.ReadFull(r, text); err != nil {
		return npyArray{}, 0, bad("truncated header")
	}
	a, err := parseNPYDict(string(text))
	if err != nil {
		return npyArray{}, 0, bad(err.Error())
	}
	return a, used + hlen, nil
}

// parseNPYDict parses the header's dict literal.
func parseNPYDict(s string) (npyArray, error) {
	p := &pyLiteral{s: s}
	var a npyArray
	seen := map[string]bool{}
	if !p.eat('{') {
		return a, errors.New("the header is not a dict")
	}
	for !p.eat('}') {
		key, ok := p.str()
		if !ok || !p.eat(':') {
			return a, errors.New("the header's dict is malformed")
		}
		switch key {
		case "descr":
			d, ok := p.str()
			if !ok {
				return a, errors.New("descr is not a simple dtype (structured arrays are not read)")
			}
			if err := a.setDescr(d); err != nil {
				return a, err
			}
		case "fortran_order":
			switch {
			case p.word("True"):
				a.fortran = true
			case p.word("False"):
			default:
				return a, errors.New("fortran_order is neither True nor False")
			}
		case "shape":
			sh, ok := p.tuple()
			if !ok {
				return a, errors.New("shape is not a tuple of sizes")
			}
			a.shape = sh
		default:
			return a, fmt.Errorf("unknown key %q", key)
		}
		seen[key] = true
		if !p.eat(',') && !p.peek('}') {
			return a, errors.New("the header's dict is malformed")
		}
	}
	if !seen["descr"] || !seen["fortran_order"] || !seen["shape"] {
		return a, errors.New("the header lacks descr, fortran_order or shape")
	}
	return a, nil
}

// setDescr reads a dtype string: an optional byte order (<, >, |, =), a kind and a size in
// bytes ("<i8", "|u1").
func (a *npyArray) setDescr(d string) error {
	a.descr = d
	a.order = binary.LittleEndian
	rest := d
	if rest != "" && strings.ContainsRune("<>|=", rune(rest[0])) {
		if rest[0] == '>' {
			a.order = binary.BigEndian
		}
		rest = rest[1:]
	}
	if len(rest) < 2 {
		return fmt.Errorf("dtype %q is not read", d)
	}
	a.kind = rest[0]
	size, err := strconv.Atoi(rest[1:])
	if err != nil || size < 1 || size > 16 {
		return fmt.Errorf("dtype %q is not read", d)
	}
	a.size = size
	return nil
}

// pyLiteral reads the few Python literals a .npy header holds.
type pyLiteral struct {
	s string
	i int
}

func (p *pyLiteral) space() {
	for p.i < len(p.s) && strings.ContainsRune(" \t\n\r", rune(p.s[p.i])) {
		p.i++
	}
}

func (p *pyLiteral) peek(c byte) bool { p.space(); return p.i < len(p.s) && p.s[p.i] == c }

func (p *pyLiteral) eat(c byte) bool {
	if p.peek(c) {
		p.i++
		return true
	}
	return false
}

func (p *pyLiteral) word(w string) bool {
	p.space()
	if strings.HasPrefix(p.s[p.i:], w) {
		p.i += len(w)
		return true
	}
	return false
}

// str reads a quoted string without escapes.
func (p *pyLiteral) str() (string, bool) {
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != '\'' && p.s[p.i] != '"' {
		return "", false
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", false
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, !strings.ContainsRune(v, '\\')
}

// tuple reads a tuple of non-negative integers ("()", "(5,)", "(3, 4)"; Python 2's "3L" too).
func (p *pyLiteral) tuple() ([]int64, bool) {
	if !p.eat('(') {
		return nil, false
	}
	var out []int64
	for !p.eat(')') {
		p.space()
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		v, err := strconv.ParseInt(p.s[p.i:j], 10, 64)
		if err != nil || len(out) >= idx.MaxRank {
			return nil, false
		}
		p.i = j
		if p.i < len(p.s) && p.s[p.i] == 'L' {
			p.i++
		}
		out = append(out, v)
		if !p.eat(',') && !p.peek(')') {
			return nil, false
		}
	}
	return out, true
}

// readData reads the array's data from r: exactly its elements × size bytes, which must be at
// most avail (the bytes the file or zip entry holds after the header; −1: unknown) and within
// idx.MaxData. The buffer grows as the bytes arrive (growStep at a time), so a compressed entry
// that declares more than it holds costs only what it holds. Errors: ErrTooLarge, ErrMalformed
// (truncated), or r's error, each naming name.
func readData(r io.Reader, a npyArray, avail int64, name string) ([]byte, error) {
	n := a.elements(idx.MaxData() / int64(a.size))
	if n < 0 {
		return nil, fmt.Errorf("%s: an array of shape %v (%s): %w (the limit is %d bytes; %s raises it)", name, a.shape, a.descr, ErrTooLarge, idx.MaxData(), idx.MaxDataEnv)
	}
	size := n * int64(a.size)
	if avail >= 0 && size > avail {
		return nil, fmt.Errorf("%s: %w: shape %v (%s) needs %d bytes, the file holds %d", name, ErrMalformed, a.shape, a.descr, size, avail)
	}
	const growStep = 4 << 20
	buf := make([]byte, 0, min(size, growStep))
	for int64(len(buf)) < size {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, int(min(size-int64(len(buf)), max(growStep, int64(len(buf))))))
		}
		k, err := r.Read(buf[len(buf):min(int64(cap(buf)), size)])
		buf = buf[:len(buf)+k]
		if err == io.EOF && int64(len(buf)) < size {
			return nil, fmt.Errorf("%s: %w: truncated (%d of %d bytes of data)", name, ErrMalformed, len(buf), size)
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return buf, nil
}

// imageShape returns the samples' count, height and width of an images array: uint8 N×H×W,
// N×H×W×1 or N×D with D a square. Errors: ErrMalformed (wrapped) for any other dtype or shape.
func imageShape(a npyArray, name string) (n, h, w int, err error) {
	bad := func(what string) error { return fmt.Errorf("%s: %w: %s", name, ErrMalformed, what) }
	if a.kind != 'u' || a.size != 1 {
		return 0, 0, 0, bad(fmt.Sprintf("images of dtype %s (uint8 is read; convert with x.astype(numpy.uint8))", a.descr))
	}
	sh := a.shape
	if len(sh) == 4 && sh[3] == 1 {
		sh = sh[:3]
	}
	switch len(sh) {
	case 3:
	case 2:
		side := int64(math.Sqrt(float64(sh[1])))
		if side*side != sh[1] {
			return 0, 0, 0, bad(fmt.Sprintf("images of shape %v: %d pixels a sample is not a square; reshape to N×H×W", a.shape, sh[1]))
		}
		sh = []int64{sh[0], side, side}
	default:
		return 0, 0, 0, bad(fmt.Sprintf("images of shape %v (N×H×W is read)", a.shape))
	}
	if a.fortran && !sameInEitherOrder(a.shape) {
		return 0, 0, 0, bad("images in Fortran order (save numpy.ascontiguousarray(x))")
	}
	if sh[0] > MaxRows || sh[1] < 1 || sh[2] < 1 || sh[1] > MaxSide || sh[2] > MaxSide {
		return 0, 0, 0, fmt.Errorf("%s: images of shape %v: %w", name, a.shape, ErrTooLarge)
	}
	return int(sh[0]), int(sh[1]), int(sh[2]), nil
}

// sameInEitherOrder reports whether an array of this shape stores its elements alike in C and
// in Fortran order: at most one of its dimensions is above 1 (a single sample of H×W is not: in
// Fortran order it is stored column by column, transposed).
func sameInEitherOrder(shape []int64) bool {
	above := 0
	for _, d := range shape {
		if d > 1 {
			above++
		}
	}
	return above <= 1
}

// labelValues decodes a labels array of n integers (N or N×1, any integer dtype): −1 is no label
// (labelOf). Errors: ErrMalformed (wrapped) for another dtype, shape or count, or a value outside
// int32.
func labelValues(a npyArray, data []byte, n int, name string) ([]int, error) {
	bad := func(what string) error { return fmt.Errorf("%s: %w: %s", name, ErrMalformed, what) }
	if a.kind != 'u' && a.kind != 'i' || a.size != 1 && a.size != 2 && a.size != 4 && a.size != 8 {
		return nil, bad(fmt.Sprintf("labels of dtype %s (integers are read)", a.descr))
	}
	if !(len(a.shape) == 1 || len(a.shape) == 2 && a.shape[1] == 1) {
		return nil, bad(fmt.Sprintf("labels of shape %v (N labels are read)", a.shape))
	}
	if a.shape[0] != int64(n) {
		return nil, bad(fmt.Sprintf("%d labels for %d images", a.shape[0], n))
	}
	out := make([]int, n)
	for i := range n {
		b := data[i*a.size : (i+1)*a.size]
		var v int64
		switch a.size {
		case 1:
			v = int64(b[0])
			if a.kind == 'i' {
				v = int64(int8(b[0]))
			}
		case 2:
			v = int64(a.order.Uint16(b))
			if a.kind == 'i' {
				v = int64(int16(v))
			}
		case 4:
			v = int64(a.order.Uint32(b))
			if a.kind == 'i' {
				v = int64(int32(v))
			}
		case 8:
			u := a.order.Uint64(b)
			if a.kind == 'u' && u > math.MaxInt64 {
				return nil, bad(fmt.Sprintf("label %d of sample %d is outside the 32-bit labels IDX holds", u, i))
			}
			v = int64(u)
		}
		l, err := labelOf(v)
		if err != nil {
			return nil, bad(fmt.Sprintf("sample %d: %v", i, err))
		}
		out[i] = l
	}
	return out, nil
}

// readNPY reads a .npy file of images (no labels: every sample sample.NoLabel).
func readNPY(path string) (*Set, error) {
	f, fi, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, used, err := readNPYHeader(f, path)
	if err != nil {
		return nil, err
	}
	if len(a.shape) == 1 || len(a.shape) == 2 && a.shape[1] == 1 {
		return nil, fmt.Errorf("%s: %w: a 1-D array (labels?), not images; put images and labels in one .npz (numpy.savez(out, x=images, y=labels))", path, ErrMalformed)
	}
	n, h, w, err := imageShape(a, path)
	if err != nil {
		return nil, err
	}
	px, err := readData(f, a, fi.Size()-used, path)
	if err != nil {
		return nil, err
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = sample.NoLabel
	}
	s := &samples{name: path, h: h, w: w, pixels: px, labels: labels}
	set, err := s.set()
	if err != nil {
		return nil, err
	}
	set.Notes = append(set.Notes, fmt.Sprintf("%s holds images only: %d samples without labels", path, n))
	return set, nil
}

// readNPZ reads images and labels from an .npz: the arrays opts.ImagesKey and opts.LabelsKey
// ("x" and "y" by default, as export writes them). A file holding only the images array gives
// unlabelled samples.
func readNPZ(path string, opts Options) (*Set, error) {
	f, fi, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := checkZipDirectory(f, fi.Size(), path); err != nil {
		return nil, err
	}
	z, err := zip.NewReader(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w: not a readable .npz (zip): %v", path, ErrMalformed, err)
	}
	entries := map[string]*zip.File{}
	var keys []string
	for _, e := range z.File {
		if k, ok := strings.CutSuffix(e.Name, ".npy"); ok {
			entries[k] = e
			keys = append(keys, k)
		}
	}
	imagesKey, labelsKey := opts.ImagesKey, opts.LabelsKey
	if imagesKey == "" {
		imagesKey = "x"
	}
	explicitLabels := labelsKey != ""
	if labelsKey == "" {
		labelsKey = "y"
	}
	list := strings.Join(keys, ", ")
	if len(keys) > 20 {
		list = strings.Join(keys[:20], ", ") + ", …"
	}
	xe := entries[imagesKey]
	if xe == nil {
		return nil, fmt.Errorf("%s: no array %q (it holds %s): name the images and labels with --images-key and --labels-key", path, imagesKey, list)
	}
	ye := entries[labelsKey]
	if ye == nil && (explicitLabels || len(keys) > 1) {
		return nil, fmt.Errorf("%s: no array %q (it holds %s): name the labels with --labels-key", path, labelsKey, list)
	}
	xa, px, err := readEntry(xe, path+": "+imagesKey)
	if err != nil {
		return nil, err
	}
	n, h, w, err := imageShape(xa, path+": "+imagesKey)
	if err != nil {
		return nil, err
	}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = sample.NoLabel
	}
	var notes []string
	if ye != nil {
		ya, data, err := readEntry(ye, path+": "+labelsKey)
		if err != nil {
			return nil, err
		}
		if labels, err = labelValues(ya, data, n, path+": "+labelsKey); err != nil {
			return nil, err
		}
	} else {
		notes = append(notes, fmt.Sprintf("%s holds images only (%s): %d samples without labels", path, imagesKey, n))
	}
	s := &samples{name: path, h: h, w: w, pixels: px, labels: labels}
	set, err := s.set()
	if err != nil {
		return nil, err
	}
	set.Notes = notes
	return set, nil
}

// readEntry reads one .npy array of an .npz. The entry's declared size bounds what is read
// (and a deflated entry's data grows as it is decompressed, readData); its checksum is checked
// at the end. Errors name name.
func readEntry(e *zip.File, name string) (npyArray, []byte, error) {
	if e.UncompressedSize64 > math.MaxInt64 {
		return npyArray{}, nil, fmt.Errorf("%s: %w", name, ErrTooLarge)
	}
	if e.Method == zip.Store && e.UncompressedSize64 != e.CompressedSize64 {
		return npyArray{}, nil, fmt.Errorf("%s: %w: a stored entry of %d bytes declares %d", name, ErrMalformed, e.CompressedSize64, e.UncompressedSize64)
	}
	rc, err := e.Open()
	if err != nil {
		return npyArray{}, nil, fmt.Errorf("%s: %w: %v", name, ErrMalformed, err)
	}
	defer rc.Close()
	a, used, err := readNPYHeader(rc, name)
	if err != nil {
		return npyArray{}, nil, err
	}
	data, err := readData(rc, a, int64(e.UncompressedSize64)-used, name)
	if err != nil {
		return npyArray{}, nil, err
	}
	// The rest must be nothing: reading to the end checks the entry's size and CRC-32.
	if k, err := io.Copy(io.Discard, io.LimitReader(rc, 1)); k > 0 || err != nil {
		if err == nil {
			err = errors.New("more bytes than the array's shape")
		}
		return npyArray{}, nil, fmt.Errorf("%s: %w: %v", name, ErrMalformed, err)
	}
	return a, data, nil
}

// checkZipDirectory reads a zip's end-of-central-directory record (and the zip64 one it points
// to) and refuses a directory of more than maxZipEntries entries or larger than the file, before
// archive/zip reads it whole. Errors: ErrTooLarge or ErrMalformed, wrapped, naming path.
func checkZipDirectory(f *os.File, size int64, path string) error {
	const eocdLen, maxComment = 22, 65535
	tail := min(size, eocdLen+maxComment)
	buf := make([]byte, tail)
	if _, err := f.ReadAt(buf, size-tail); err != nil && err != io.EOF {
		return fmt.Errorf("%s: %w", path, err)
	}
	at := -1
	for i := len(buf) - eocdLen; i >= 0; i-- {
		if string(buf[i:i+4]) == "PK\x05\x06" {
			at = i
			break
		}
	}
	if at < 0 {
		return fmt.Errorf("%s: %w: not a zip file (no end of central directory)", path, ErrMalformed)
	}
	count := uint64(binary.LittleEndian.Uint16(buf[at+10:]))
	dirSize := uint64(binary.LittleEndian.Uint32(buf[at+12:]))
	if count == 0xffff || dirSize == 0xffffffff { // zip64: the locator sits just before
		loc := int64(at) + (size - tail) - 20
		var l [20]byte
		if loc < 0 {
			return fmt.Errorf("%s: %w: a zip64 file without its locator", path, ErrMalformed)
		}
		if _, err := f.ReadAt(l[:], loc); err != nil || string(l[:4]) != "PK\x06\x07" {
			return fmt.Errorf("%s: %w: a zip64 file without its locator", path, ErrMalformed)
		}
		off := binary.LittleEndian.Uint64(l[8:])
		var r [56]byte
		if off > uint64(size) || uint64(size)-off < 56 {
			return fmt.Errorf("%s: %w: a zip64 record outside the file", path, ErrMalformed)
		}
		if _, err := f.ReadAt(r[:], int64(off)); err != nil || string(r[:4]) != "PK\x06\x06" {
			return fmt.Errorf("%s: %w: a damaged zip64 record", path, ErrMalformed)
		}
		count, dirSize = binary.LittleEndian.Uint64(r[32:]), binary.LittleEndian.Uint64(r[40:])
	}
	if count > maxZipEntries {
		return fmt.Errorf("%s: a zip of %d entries: %w (an .npz holds at most %d arrays here)", path, count, ErrTooLarge, maxZipEntries)
	}
	if dirSize > uint64(size) {
		return fmt.Errorf("%s: %w: a zip directory of %d bytes in a file of %d", path, ErrMalformed, dirSize, size)
	}
	return nil
}
