package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// runVerify reads an image file and a label file to their ends and checks that they form a
// pair by the rule the app opens pairs with (pairfile.CheckImages, CheckLabels, CheckLabel): the
// same number of samples (0 or more), images N×H×W (or N×1×H×W, N×H×W×1, N×(H·W) with H·W
// square), integer labels N or N×K with every class valid. Both files stream in chunks, so memory
// stays bounded whatever their size. Samples labelled sample.NoLabel (−2147483648: not labelled
// yet, as idxlabel saves labels typed on part of an image file) are counted apart. It prints one
// summary line and returns nil when the pair is valid. When a save of the pair was cut off
// between its renames (pairfile.ReadView finds its record with a temporary file not yet renamed),
// it checks the files as they stand and as that save left them to be (the temporary files
// standing in), says so on stderr, and fails when either is not a valid pair; a save that had
// renamed some of its files and not others (pairfile.SaveProgress) left a mix of old and new files
// that is no pair, whatever their counts, so it always fails. Nothing on disk is changed.
func runVerify(c *cli, args []string) error {
	files, err := c.parse(c.flags("verify"), args, 2, 2)
	if err != nil {
		return err
	}
	imagesName, labelsName := files[0], files[1]
	readImages, readLabels, note := pairfile.ReadView(imagesName, labelsName)
	if readImages == imagesName && readLabels == labelsName {
		if note != "" {
			fmt.Fprintf(c.stderr, "idxlabel: %s\n", note)
		}
		summary, err := verifyPair(imagesName, labelsName, imagesName, labelsName)
		if err != nil {
			return err
		}
		fmt.Fprintln(c.stdout, summary)
		return nil
	}
	asSaved, savedErr := verifyPair(imagesName, labelsName, readImages, readLabels)
	if savedErr == nil {
		asSaved = "as saved they are valid (" + asSaved + ")"
	} else {
		asSaved = "as saved they would not be a pair: " + describe(savedErr)
	}
	const finish = "open the pair in idxlabel (for editing) to finish the save"
	if n, placed := pairfile.SaveProgress(imagesName, labelsName); placed == 0 || placed == n {
		// Nothing renamed yet: the files as they stand are the pair from before the save.
		fmt.Fprintf(c.stderr, "idxlabel: a save of this pair was cut off before its renames: the files are as they were before it; %s; %s\n", asSaved, finish)
		summary, err := verifyPair(imagesName, labelsName, imagesName, labelsName)
		if err != nil {
			return err
		}
		if savedErr != nil {
			return errReported
		}
		fmt.Fprintln(c.stdout, summary)
		return nil
	}
	var stale []string
	for _, f := range [][2]string{{imagesName, readImages}, {labelsName, readLabels}} {
		if f[0] != f[1] {
			stale = append(stale, fmt.Sprintf("%s is still the file from before it (the new one waits in %s)", f[0], filepath.Base(f[1])))
		}
	}
	asIs := "each comes from a different save"
	if err := checkHeaders(imagesName, labelsName); err != nil {
		asIs = describe(err)
	}
	fmt.Fprintf(c.stderr, "idxlabel: a save of this pair was cut off between its renames: %s, so the files as they stand are not a pair: %s\n", strings.Join(stale, "; "), asIs)
	fmt.Fprintf(c.stderr, "idxlabel: %s; %s\n", asSaved, finish)
	return errReported
}

// checkHeaders checks the headers of the pair's files as they are on disk against the pair rule
// (pairfile.CheckImages, CheckLabels), reading nothing past them.
func checkHeaders(imagesName, labelsName string) error {
	ih, err := idx.ReadHeaderFile(imagesName)
	if err != nil {
		return err
	}
	lh, err := idx.ReadHeaderFile(labelsName)
	if err != nil {
		return err
	}
	shape, err := pairfile.CheckImages(imagesName, ih, 0, 0)
	if err != nil {
		return err
	}
	return pairfile.CheckLabels(labelsName, lh, imagesName, shape.N)
}

// verifyPair streams readImages and readLabels (the pair's files, or the temporary files of an
// interrupted save standing in for them; messages name the pair's files) through the pair rule
// and returns the summary line "ok: N samples; images …; labels …, K classes (lo–hi)".
func verifyPair(imagesName, labelsName, readImages, readLabels string) (string, error) {
	images, err := idx.OpenFile(readImages)
	if err != nil {
		return "", err
	}
	defer images.Close()
	labels, err := idx.OpenFile(readLabels)
	if err != nil {
		return "", err
	}
	defer labels.Close()
	shape, err := pairfile.CheckImages(imagesName, images.Header, 0, 0)
	if err != nil {
		return "", err
	}
	if err := pairfile.CheckLabels(labelsName, labels.Header, imagesName, shape.N); err != nil {
		return "", err
	}
	counts := &classCounts{}
	err = scanClasses(labels, func(i int, v int64) error {
		if err := pairfile.CheckLabel(labelsName, i, v); err != nil {
			return err
		}
		counts.add(v)
		return nil
	})
	if err != nil {
		return "", err
	}
	if err := drain(images); err != nil {
		return "", err
	}
	classes := fmt.Sprintf("%d classes (%d–%d)", counts.distinct, counts.lo, counts.hi)
	switch {
	case counts.overflow:
		classes = fmt.Sprintf("more than %d classes (%d–%d)", maxClasses, counts.lo, counts.hi)
	case counts.total == 0:
		classes = "0 classes"
	}
	none := ""
	if counts.unlabelled > 0 {
		none = fmt.Sprintf("; %d unlabelled (%d)", counts.unlabelled, sample.NoLabel)
	}
	return fmt.Sprintf("ok: %d samples; images %s; labels %s, %s%s", shape.N, images.Header, labels.Header, classes, none), nil
}
