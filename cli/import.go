package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"idxlabel/builder"
	"idxlabel/formats"
	"idxlabel/idx"
	"idxlabel/normalize"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// importMemoryLimit is the Go runtime's soft memory limit while import runs (see
// runtime/debug.SetMemoryLimit): the budget of one image decode (normalize.MaxDecodeBytes) and
// room for the samples gathered so far.
const importMemoryLimit = 256 << 20

// runImport builds an IDX pair (ubyte, 28×28 or --size W×H) from an ImageFolder tree
// (normalize.ReadFolder: DIR/<class>/…/*.png|jpg|…, numbered folders keeping their numbers, named
// ones numbered as torchvision's ImageFolder numbers them, with their names written to the
// class-name file beside LABELS): every image through MNIST's preprocessing (or, with
// --no-normalize, only resized to the field), colour made grey by luminance, in torchvision's
// order; --transpose stores each sample transposed, as EMNIST does. Every file of the tree not
// imported is listed on stderr with its reason (another format, unreadable, too large to decode,
// no ink; normalize.MaxPixels), and counted; a folder named by a number above 2^31−1 stops the
// import. Each sample's source, its file's path relative to DIR, goes to the sources file beside
// LABELS (pairfile.SourcesFile: one line a sample). IMAGES, LABELS, the class-name file and the
// sources file must be different files, none of them an input. They are replaced only with
// --force (claimOutputs' rule, checked before any image is decoded, and held until the files are
// written). The pair is checked (pairfile.CheckPair) and written together, atomically
// (pairfile.Claim.WritePair).
func runImport(c *cli, args []string) error {
	fs := c.flags("import")
	var nf normalizeFlags
	nf.register(fs)
	noNormalize := fs.Bool("no-normalize", false, "only resize to the field (for images that are already MNIST-like)")
	size := fs.String("size", "28x28", "the samples' field, WIDTHxHEIGHT pixels: MNIST's preprocessing scaled to it (box 20/28 of the field), or with --no-normalize a plain resize")
	transpose := fs.Bool("transpose", false, "store every sample transposed (rows as columns), as EMNIST stores its images")
	force := fs.Bool("force", false, "replace IMAGES, LABELS and the class-name and sources files beside LABELS if they exist (never a pair open for editing, or whose journal holds unsaved edits)")
	files, err := c.parse(fs, args, 3, 3)
	if err != nil {
		return err
	}
	opts, err := nf.options()
	if err != nil {
		return err
	}
	if opts.Width, opts.Height, err = parseSize(*size); err != nil {
		return err
	}
	dir, imagesPath, labelsPath := files[0], files[1], files[2]
	namesPath := builder.NamesFileFor(labelsPath)
	sourcesPath := pairfile.SourcesFile(imagesPath, labelsPath)
	outputs := []string{imagesPath, labelsPath, namesPath, sourcesPath}
	if err := checkOutputs(files[:1], outputs); err != nil {
		return err
	}
	tree, err := normalize.ReadFolder(dir)
	skipped := 0
	if tree != nil {
		for _, s := range tree.Skipped {
			fmt.Fprintf(c.stderr, "idxlabel: %s (skipped)\n", s)
		}
		skipped = len(tree.Skipped)
	}
	if err != nil {
		return err
	}
	inputs := make([]string, len(tree.Files))
	for i, f := range tree.Files {
		inputs[i] = f.Path
	}
	claim, err := claimOutputs(inputs, outputs, *force, nil)
	if err != nil {
		return err
	}
	defer claim.Release()
	var named func() // what the folders' names made: told once the files are written
	if tree.Named {
		rows, err := tree.Map(normalize.Target{}) // the rule ReadFolder labelled the files by
		if err != nil {
			return err
		}
		named = func() {
			fmt.Fprintf(c.stderr, "import: %d class folders named, not numbered: classes numbered in sorted name order, as torchvision's ImageFolder numbers them (%s); names in %s\n", len(rows), folderClassList(rows), namesPath)
		}
	}
	// One image is decoded at a time (normalize bounds each); a soft memory limit makes the
	// garbage collector return one image's memory before the next grows the heap past it.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(importMemoryLimit))
	var pixels []byte
	var labels []int
	var sources []string
	for _, f := range tree.Files {
		p, err := normalize.LoadFile(f.Path, opts, !*noNormalize)
		if err != nil {
			fmt.Fprintf(c.stderr, "idxlabel: %s (skipped)\n", describe(err))
			skipped++
			continue
		}
		if *transpose {
			p = sample.AppendStored(nil, p, opts.Height, opts.Width, true)
		}
		pixels = append(pixels, p...)
		labels = append(labels, f.Label)
		sources = append(sources, importSource(dir, f.Path))
	}
	if len(labels) == 0 {
		return fmt.Errorf("%s: none of the %d images could be read", dir, len(tree.Files))
	}
	rows, cols := opts.Height, opts.Width
	if *transpose {
		rows, cols = cols, rows
	}
	images, labelArr, err := formats.Arrays(pixels, labels, rows, cols)
	if err != nil {
		return err
	}
	if err := writeNewPair(claim, imagesPath, labelsPath, namesPath, images, labelArr, tree.Names); err != nil {
		return err
	}
	if err := pairfile.WriteSources(sourcesPath, sources); err != nil {
		return err
	}
	if named != nil {
		named()
	}
	how := ""
	if *transpose {
		how = ", stored transposed"
	}
	fmt.Fprintf(c.stdout, "%s, %s: %d samples of %d×%d%s from %s (%d skipped)\n", imagesPath, labelsPath, len(labels), opts.Width, opts.Height, how, dir, skipped)
	return nil
}

// importBeforeWrite, when set (by a test), runs just before import or convert writes its pair:
// the moment at which another writer must still find the outputs claimed.
var importBeforeWrite func()

// importSource is the source of the sample imported from file, a file of the tree dir: its path
// relative to dir, slash-separated ("3/a.png"), as the sources file beside the pair holds it.
func importSource(dir, file string) string {
	rel, err := filepath.Rel(dir, file)
	if err != nil {
		rel = file
	}
	return filepath.ToSlash(rel)
}

// parseSize reads --size WIDTHxHEIGHT ("28x28", "32×32"): 1 to pairfile.MaxSide pixels each.
func parseSize(s string) (w, h int, err error) {
	a, b, ok := strings.Cut(strings.ReplaceAll(strings.ToLower(s), "×", "x"), "x")
	w, err1 := strconv.Atoi(a)
	h, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || w < 1 || h < 1 || w > pairfile.MaxSide || h > pairfile.MaxSide {
		return 0, 0, usagef("--size %q: expected WIDTHxHEIGHT, 1 to %d pixels each (28x28)", s, pairfile.MaxSide)
	}
	return w, h, nil
}

// writeNewPair writes a pair made by a command (import, convert) under claim, the outputs'
// claim the command made before it read anything (its locks held all along):
// pairfile.Claim.WriteNewPair, the arrays checked, the pair written together, atomically, then
// the class names to namesPath (or a class-name file left by an earlier run removed). Errors:
// those of pairfile.Claim.WriteNewPair.
func writeNewPair(claim *pairfile.Claim, imagesPath, labelsPath, namesPath string, images, labels *idx.Array, names map[int]string) error {
	if importBeforeWrite != nil {
		importBeforeWrite()
	}
	return claim.WriteNewPair(context.Background(), imagesPath, labelsPath, namesPath, images, labels, names, nil)
}

// folderClassList formats the folder → class mapping rows (Folder.Map's, in folder order) as
// "A → 0, cat → 1, dog → 2", at most 10 of them and then how many more. A folder whose name is
// not printable text (no class name: FolderClass.Name) is shown quoted, with "no name"; a folder
// without images (a class all the same, as torchvision numbers it) with "no images".
func folderClassList(rows []normalize.FolderClass) string {
	var parts []string
	for _, r := range rows[:min(len(rows), 10)] {
		part := fmt.Sprintf("%s → %d", r.Name, r.Class)
		if r.Name == "" {
			part = fmt.Sprintf("%q → %d (no name: not printable text)", r.Folder, r.Class)
		}
		if r.Images == 0 {
			part += " (no images)"
		}
		parts = append(parts, part)
	}
	if len(rows) > 10 {
		parts = append(parts, fmt.Sprintf("… %d more", len(rows)-10))
	}
	return strings.Join(parts, ", ")
}
