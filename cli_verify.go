package main

import (
	"fmt"

	"idxlabel/idx"
	"idxlabel/store"
)

// runVerify reads an image file and a label file to their ends and checks that they form a
// pair by the rule the app opens pairs with (store.CheckImages, CheckLabels, CheckLabel): the
// same number of samples, images N×H×W (or N×1×H×W, N×H×W×1, N×(H·W) with H·W square), integer
// labels N or N×K with every class valid. Both files stream in chunks, so memory stays bounded
// whatever their size. It prints one summary line and returns nil when the pair is valid.
func runVerify(c *cli, args []string) error {
	files, err := c.parse(c.flags("verify"), args, 2, 2)
	if err != nil {
		return err
	}
	imagesName, labelsName := files[0], files[1]
	images, err := idx.OpenFile(imagesName)
	if err != nil {
		return err
	}
	defer images.Close()
	labels, err := idx.OpenFile(labelsName)
	if err != nil {
		return err
	}
	defer labels.Close()
	shape, err := store.CheckImages(imagesName, images.Header, 0, 0)
	if err != nil {
		return err
	}
	if err := store.CheckLabels(labelsName, labels.Header, imagesName, shape.N); err != nil {
		return err
	}
	counts := &classCounts{}
	err = scanClasses(labels, func(i int, v int64) error {
		if err := store.CheckLabel(labelsName, i, v); err != nil {
			return err
		}
		counts.add(v)
		return nil
	})
	if err != nil {
		return err
	}
	if err := drain(images); err != nil {
		return err
	}
	classes := fmt.Sprint(counts.distinct)
	if counts.overflow {
		classes = fmt.Sprintf("more than %d", maxClasses)
	}
	fmt.Fprintf(c.stdout, "ok: %d samples; images %s; labels %s, %s classes (%d–%d)\n",
		shape.N, images.Header, labels.Header, classes, counts.lo, counts.hi)
	return nil
}
