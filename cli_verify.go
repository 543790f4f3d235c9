package main

import (
	"fmt"

	"idxlabel/idx"
)

// runVerify decodes an image file and a label file fully and checks that they form a pair: the
// same number of samples, and integer labels (1-D, or QMNIST's N×8 with the class in column 0).
// It prints one summary line and returns nil when the pair is valid.
func runVerify(c *cli, args []string) error {
	files, err := c.parse(c.flags("verify"), args, 2, 2)
	if err != nil {
		return err
	}
	imagesName, labelsName := files[0], files[1]
	images, err := idx.ReadFile(imagesName)
	if err != nil {
		return err
	}
	labels, err := idx.ReadFile(labelsName)
	if err != nil {
		return err
	}
	if images.Rank() < 2 {
		return fmt.Errorf("%s: images must have at least 2 dimensions (N×H×W or N×(H·W)), found %s", imagesName, images.Header)
	}
	if !labels.Type.IsInteger() {
		return fmt.Errorf("%s: labels must be integers, found dtype %s", labelsName, labels.Type)
	}
	if labels.Rank() > 2 {
		return fmt.Errorf("%s: labels must be 1-D (N) or N×K with the class in column 0, found %s", labelsName, labels.Header)
	}
	if images.Dims[0] != labels.Dims[0] {
		return fmt.Errorf("%s: %d labels, but %s has %d images", labelsName, labels.Dims[0], imagesName, images.Dims[0])
	}
	stride := labels.Stride()
	lo, hi := labels.Int(0), labels.Int(0)
	classes := map[int64]bool{}
	for i := range labels.Dims[0] {
		v := labels.Int(i * stride)
		lo, hi = min(lo, v), max(hi, v)
		classes[v] = true
	}
	fmt.Fprintf(c.stdout, "ok: %d samples; images %s; labels %s, %d classes (%d–%d)\n",
		images.Dims[0], images.Header, labels.Header, len(classes), lo, hi)
	return nil
}
