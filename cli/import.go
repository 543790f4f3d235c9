package cli

import (
	"fmt"
	"runtime/debug"

	"idxlabel/idx"
	"idxlabel/normalize"
	"idxlabel/store"
)

// importMemoryLimit is the Go runtime's soft memory limit while import runs (see
// runtime/debug.SetMemoryLimit): the budget of one image decode (normalize.MaxDecodeBytes) and
// room for the samples gathered so far.
const importMemoryLimit = 256 << 20

// runImport builds an IDX pair (ubyte, 28×28) from an ImageFolder tree (DIR/<label>/*.png|jpg):
// every image through MNIST's preprocessing (or, with --no-normalize, only resized to 28×28), in
// sorted order. Unreadable files, and images too large to decode (normalize.MaxPixels), are
// reported on stderr and skipped, never silently; a folder named by a number above 2^31−1 stops
// the import. IMAGES and LABELS must be two different files, neither of them an input, and are
// replaced only with --force (claimOutputs' rule, checked before any image is decoded). Both
// files are checked as a pair (store.CheckPair) and written together, atomically
// (store.WritePair).
func runImport(c *cli, args []string) error {
	fs := c.flags("import")
	var nf normalizeFlags
	nf.register(fs)
	noNormalize := fs.Bool("no-normalize", false, "only resize to 28×28 (for images that are already MNIST-like)")
	force := fs.Bool("force", false, "replace IMAGES and LABELS if they exist (never a pair open for editing, or whose journal holds unsaved edits)")
	files, err := c.parse(fs, args, 3, 3)
	if err != nil {
		return err
	}
	opts, err := nf.options()
	if err != nil {
		return err
	}
	dir, imagesPath, labelsPath := files[0], files[1], files[2]
	if err := checkOutputs(files[:1], files[1:]); err != nil {
		return err
	}
	list, skippedDirs, err := normalize.ImageFolder(dir)
	for _, s := range skippedDirs {
		fmt.Fprintf(c.stderr, "idxlabel: %s (skipped)\n", s)
	}
	if err != nil {
		return err
	}
	inputs := make([]string, len(list))
	for i, f := range list {
		inputs[i] = f.Path
	}
	release, err := claimOutputs(inputs, files[1:], *force, nil)
	if err != nil {
		return err
	}
	defer func() { release() }()
	// One image is decoded at a time (normalize bounds each); a soft memory limit makes the
	// garbage collector return one image's memory before the next grows the heap past it.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(importMemoryLimit))
	var pixels []byte
	var labels []int
	skipped := 0
	for _, f := range list {
		p, err := normalize.LoadFile(f.Path, opts, !*noNormalize)
		if err != nil {
			fmt.Fprintf(c.stderr, "idxlabel: %s (skipped)\n", describe(err))
			skipped++
			continue
		}
		pixels = append(pixels, p...)
		labels = append(labels, f.Label)
	}
	if len(labels) == 0 {
		return fmt.Errorf("%s: none of the %d images could be read", dir, len(list))
	}
	images, labelArr, err := importArrays(pixels, labels)
	if err != nil {
		return err
	}
	if _, err := store.CheckPair(imagesPath, images, labelsPath, labelArr, 0, 0); err != nil {
		return err
	}
	// WritePair takes the locks itself and checks the journals again.
	release()
	release = func() {}
	if err := store.WritePair(imagesPath, labelsPath, images, labelArr); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%s, %s: %d samples of 28×28 from %s (%d skipped)\n", imagesPath, labelsPath, len(labels), dir, skipped)
	return nil
}

// importArrays wraps the samples as IDX arrays: images N×28×28 ubyte, labels N ubyte (int32 when
// a label is above 255).
func importArrays(pixels []byte, labels []int) (*idx.Array, *idx.Array, error) {
	n := len(labels)
	images := &idx.Array{Header: idx.Header{Type: idx.UByte, Dims: []int{n, normalize.FieldSize, normalize.FieldSize}}, Data: pixels}
	dt := idx.UByte
	for _, l := range labels {
		if l > 255 {
			dt = idx.Int32
		}
	}
	la, err := idx.New(dt, n)
	if err != nil {
		return nil, nil, err
	}
	for i, l := range labels {
		la.SetInt(i, int64(l))
	}
	return images, la, nil
}
