package similar

import (
	"context"
	"fmt"

	"idxlabel/sample"
	"idxlabel/suspect"
)

// EmbedWith returns an Options.Embed that places new images of h×w pixels (as stored) among a
// scan's features with its model (suspect.CNNResult.Model of the scan whose Features the index
// compares: Model.Features maps into their space). A scan read from the cache has no model:
// leave Embed nil then, and queries by pixels are answered by pixel descriptors. Errors: images
// of another size, the model's.
func EmbedWith(m *suspect.Model, h, w int) func(ctx context.Context, images [][]byte) ([]float32, error) {
	return func(ctx context.Context, images [][]byte) ([]float32, error) {
		for _, im := range images {
			if len(im) != h*w {
				return nil, fmt.Errorf("similar: an image of %d pixels, the model's are %d×%d", len(im), h, w)
			}
		}
		d := sample.Set{N: len(images), H: h, W: w, Labels: make([]int, len(images)), Pixels: func(i int) []byte { return images[i] }}
		rows := make([]int, len(images))
		for i := range rows {
			rows[i], d.Labels[i] = i, sample.NoLabel
		}
		return m.Features(ctx, d, rows)
	}
}
