package store

// DisplayOrder returns one sample's pixels in display order: height×width (as Dataset.Size
// reports, as a viewer shows them), row-major, 0 = background, 255 = ink. px are the pixels as
// stored (Dataset.Pixels): row-major, or, when transposed (EMNIST stores every image
// transposed), the width×height transpose. For a transposed sample it writes the transpose into
// buf (grown when shorter than height·width) and returns it; otherwise it returns px itself, not
// a copy. It panics if px holds fewer than height·width pixels.
//
// This is the one place that undoes EMNIST's transposed storage for display; Append does the
// reverse for new samples.
func DisplayOrder(px []byte, height, width int, transposed bool, buf []byte) []byte {
	n := height * width
	px = px[:n]
	if !transposed {
		return px
	}
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	return appendTransposed(buf[:0], px, width, height)
}

// DisplayPixels returns sample i's pixels in display order (see DisplayOrder): Height×Width,
// row-major. For a transposed dataset it fills buf (grown as needed); otherwise it returns the
// stored pixels themselves, which must not be modified. It panics if i is out of range.
func (d *Dataset) DisplayPixels(i int, buf []byte) []byte {
	h, w := d.Size()
	return DisplayOrder(d.Pixels(i), h, w, d.transposed, buf)
}
