package sheets

// asOnPagePixels moves a digit's ink (bin, w×h, read fineSample times finer than the page) by
// half a fine pixel, on average, toward the top or left side of the square normalize's square
// crop widens its bounding box to, so that the crop leaves it where it leaves the same digit
// on the page's own pixels.
//
// The crop (QMNIST's fim-crop, normalize.Digit) widens the ink's bounding box along its
// shorter side to a square and puts the ink ⌊(side − width)/2⌋ pixels from the square's edge:
// half a pixel short of the middle when side − width is odd, a quarter of a pixel on average,
// of whatever pixels it is given. A digit imported alone (import's path, and the reference the
// reader is measured against) is given the page's pixels: a quarter of a page pixel; the ink
// read three times finer, a twelfth. One fine pixel of ink set beside the last along the shorter
// side (right of the rightmost ink, in a row holding it, or below the lowest) makes the width
// one more: the ink then lies ⌊(side − width − 1)/2⌋ fine pixels from the edge, half a fine pixel
// less on average, a quarter of a page pixel in all, as on the page. The pixel is 1/9 of a page
// pixel of ink beside a stroke's end, which the 20×20 fit does not show. A square bounding box,
// or ink reaching the read's edge on that side, is left as it is.
//
// Measured (bench/sheets, scans, 50 sheets of each of seeds 1, 2, 3, the blur undone:
// bench/sheets/README.md): the samples' whole-pixel jumps across, 381 to the left against 146
// to the right on seed 1, even out (265, 242); the mean correlation with the digit imported
// alone moves by +0.0008, −0.0001, +0.0015, at the best shift of ±2 px by +0.0006, +0.0005,
// +0.0005.
func asOnPagePixels(bin []bool, w, h int) {
	minX, minY, maxX, maxY := w, h, -1, -1
	for k, v := range bin {
		if v {
			x, y := k%w, k/w
			minX, maxX = min(minX, x), max(maxX, x)
			minY, maxY = min(minY, y), max(maxY, y)
		}
	}
	if maxX < 0 {
		return
	}
	width, height := maxX-minX+1, maxY-minY+1
	switch {
	case width < height && maxX+1 < w:
		for y := minY; y <= maxY; y++ {
			if bin[y*w+maxX] {
				bin[y*w+maxX+1] = true
				return
			}
		}
	case height < width && maxY+1 < h:
		for x := minX; x <= maxX; x++ {
			if bin[maxY*w+x] {
				bin[(maxY+1)*w+x] = true
				return
			}
		}
	}
}
