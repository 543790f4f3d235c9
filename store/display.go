package store

import "idxlabel/sample"

// DisplayPixels returns sample i's pixels upright, as a viewer shows them (sample.Upright):
// Height×Width as Size reports, row-major. For a transposed dataset it fills buf (grown as
// needed); otherwise it returns the stored pixels themselves, which must not be modified. It
// panics if i is out of range.
func (m *model) DisplayPixels(i int, buf []byte) []byte {
	h, w := m.Size()
	return sample.Upright(m.Pixels(i), h, w, m.transposed, buf)
}
