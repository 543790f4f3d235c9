package store

import "idxlabel/sample"

// DisplayPixels returns sample i's pixels upright, as a viewer shows them (sample.Upright):
// Height×Width as Size reports, row-major. For a transposed dataset it fills buf (grown as
// needed); otherwise it returns the stored pixels themselves, which must not be modified. It
// panics if i is out of range.
func (d *Dataset) DisplayPixels(i int, buf []byte) []byte {
	h, w := d.Size()
	return sample.Upright(d.Pixels(i), h, w, d.transposed, buf)
}
