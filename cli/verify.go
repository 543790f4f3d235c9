package cli

import (
	"fmt"

	"idxlabel/idx"
	"idxlabel/store"
)

// runVerify reads an image file and a label file to their ends and checks that they form a
// pair by the rule the app opens pairs with (store.CheckImages, CheckLabels, CheckLabel): the
// same number of samples, images N×H×W (or N×1×H×W, N×H×W×1, N×(H·W) with H·W square), integer
// labels N or N×K with every class valid. Both files stream in chunks, so memory stays bounded
// whatever their size. A pair whose save was cut off between its renames is checked as saved
// (store.ReadView), with a note on stderr. Samples labelled store.NoLabel (−2147483648: not
// labelled yet, as idxlabel saves labels typed on part of an image file) are counted apart. It
// prints one summary line and returns nil when the pair is valid.
func runVerify(c *cli, args []string) error {
	files, err := c.parse(c.flags("verify"), args, 2, 2)
	if err != nil {
		return err
	}
	imagesName, labelsName := files[0], files[1]
	// A save cut off between its renames is checked as saved (its temporary files stand in),
	// as the app reads it; nothing is finished or removed here.
	readImages, readLabels, note := store.ReadView(imagesName, labelsName)
	if note != "" {
		fmt.Fprintf(c.stderr, "idxlabel: %s\n", note)
	}
	images, err := idx.OpenFile(readImages)
	if err != nil {
		return err
	}
	defer images.Close()
	labels, err := idx.OpenFile(readLabels)
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
	unlabelled := 0
	err = scanClasses(labels, func(i int, v int64) error {
		if err := store.CheckLabel(labelsName, i, v); err != nil {
			return err
		}
		if v == store.NoLabel {
			unlabelled++ // a sample not labelled yet, as idxlabel saves it
			return nil
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
	none := ""
	if unlabelled > 0 {
		none = fmt.Sprintf("; %d unlabelled (%d)", unlabelled, store.NoLabel)
	}
	fmt.Fprintf(c.stdout, "ok: %d samples; images %s; labels %s, %s classes (%d–%d)%s\n",
		shape.N, images.Header, labels.Header, classes, counts.lo, counts.hi, none)
	return nil
}
