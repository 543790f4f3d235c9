package sheets

import "math"

// maxReadPixels bounds every read of a box from the page: its crop (cropBox), its inside
// (analyse) and its ink read again for the sample (fineInk) each hold at most this many pixels,
// whatever the box's size, so that a box spanning a whole 600 dpi page (a 1×1 layout) is read
// less finely, never with more memory. A box of an ordinary sheet (10×12 boxes of 14 mm, up to
// 1,200 dpi) stays well under it at every read's full scale.
const maxReadPixels = 1 << 22

// readScale returns how many times finer than its source (the page for a crop, the crop for
// the reads of its inside) a region of w×h source pixels is read: want, or, when that would
// take more than maxReadPixels pixels, the finest scale that takes at most that many (less than
// 1 when even the source's own resolution would: the region is then read more coarsely than
// its source; a read coarser than the page samples the page averaged over each of its pixels:
// sampler.fill). Read at the scale returned, int(w·s) × int(h·s) ≤ maxReadPixels.
func readScale(w, h, want float64) float64 {
	if w*h*want*want <= maxReadPixels {
		return want
	}
	return math.Sqrt(maxReadPixels / (w * h))
}
