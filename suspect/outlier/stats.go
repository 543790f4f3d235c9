package outlier

import (
	"context"
	"fmt"
	"math"
	"slices"

	"idxlabel/sample"
	"idxlabel/suspect/nn"
)

// StatCount is the number of pixel statistics Stats gives per sample.
const StatCount = 6

// Stats returns six pixel statistics of every sample (N×6), each standardized over the
// dataset (minus its median, over its interquartile range; a statistic that hardly varies is
// divided by 1 grey level's worth instead):
//
//  0. ln(1 + ink), ink the sum of the pixels over 255 (blank images are low; noise, filled
//     shapes and inverted scans high);
//  1. the share of the ink outside the central box that MNIST fits its digits in (the field
//     less a margin of 1/7 of each side: 4 pixels in 28);
//  2. the share of inked pixels that are grey (1–254: anti-aliased strokes; filled shapes and
//     binary noise have few);
//  3. the long side of the ink's bounding box over the field's (MNIST's is 20/28 for 9,997 of
//     t10k's 10,000 digits);
//  4. the mean value of the inked pixels, over 255;
//  5. the share of the field at 128 or more.
//
// Samples are H×W. Errors: pixels of the wrong length, or the context's error.
func Stats(ctx context.Context, d sample.Set) (nn.Vectors, error) {
	h, w := d.H, d.W
	if h*w != d.Dim() || h <= 0 || w <= 0 {
		return nn.Vectors{}, fmt.Errorf("samples of %d pixels are not %d×%d", d.Dim(), h, w)
	}
	out := nn.Vectors{Data: make([]float32, d.N*StatCount), N: d.N, Dim: StatCount}
	raw := make([][]float64, StatCount)
	for c := range raw {
		raw[c] = make([]float64, d.N)
	}
	my, mx := (h+6)/7, (w+6)/7
	for i := range d.N {
		if i%4096 == 0 && ctx.Err() != nil {
			return nn.Vectors{}, ctx.Err()
		}
		px := d.Pixels(i)
		if len(px) != d.Dim() {
			return nn.Vectors{}, fmt.Errorf("sample %d has %d pixels, not %d", i, len(px), d.Dim())
		}
		var ink, border, valueSum float64
		var inked, grey, bright int
		top, left, bottom, right := h, w, -1, -1
		for y := range h {
			for x, v := range px[y*w : (y+1)*w] {
				if v == 0 {
					continue
				}
				f := float64(v)
				ink += f
				if y < my || y >= h-my || x < mx || x >= w-mx {
					border += f
				}
				inked++
				valueSum += f
				if v < 255 {
					grey++
				}
				if v >= 128 {
					bright++
				}
				top, bottom = min(top, y), max(bottom, y)
				left, right = min(left, x), max(right, x)
			}
		}
		raw[0][i] = math.Log1p(ink / 255)
		if ink > 0 {
			raw[1][i] = border / ink
			raw[2][i] = float64(grey) / float64(inked)
			raw[3][i] = float64(max(bottom-top+1, right-left+1)) / float64(max(h, w))
			raw[4][i] = valueSum / float64(inked) / 255
		}
		raw[5][i] = float64(bright) / float64(h*w)
	}
	for c, col := range raw {
		s := slices.Clone(col)
		slices.Sort(s)
		med := s[len(s)/2]
		scale := s[len(s)*3/4] - s[len(s)/4]
		if scale < 1.0/255 {
			scale = 1.0 / 255
		}
		for i, v := range col {
			out.Data[i*StatCount+c] = float32((v - med) / scale)
		}
	}
	return out, nil
}
