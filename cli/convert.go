package cli

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"idxlabel/builder"
	"idxlabel/formats"
	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
	"idxlabel/pairfile"
)

// runConvert re-encodes an IDX file, or turns a dataset file of another format into an IDX pair.
//
// With two operands, IN OUT: IN is an IDX file, re-encoded as OUT with the same dtype and
// dimensions, gzip-compressed when OUT ends in .gz, plain otherwise. The data streams through in
// chunks (bounded memory whatever the size) and IN is verified to its end before OUT is replaced.
// OUT is written atomically (atomicfile: temporary file beside it, fsync, rename), so it is
// never half-written and an existing OUT survives any failure. Temporary files of OUT left by a
// killed writer more than an hour ago are removed first.
//
// With three operands, FILE IMAGES LABELS: FILE is a Parquet file, a Kaggle CSV, a .npy or an
// .npz (formats.Read), written as the pair IMAGES LABELS (ubyte images; ubyte labels, or int32
// with −2147483648 for samples without one) and its class names (a Parquet ClassLabel's) beside
// LABELS, as import writes a pair (writeNewPair).
//
// A label file IN with accepted marks beside it (pairfile.AcceptedFile) gives OUT the same marks
// (convertMarks): its labels are the same, so they are the same pseudo-labels.
//
// Outputs must not be inputs, and existing ones are replaced only with --force (claimOutputs'
// rule); they must be regular files (a symbolic link is written through to its target).
func runConvert(c *cli, args []string) error {
	fs := c.flags("convert")
	force := fs.Bool("force", false, "replace the outputs if they exist (never a file of a pair open for editing, or whose journal holds unsaved edits)")
	var fo formatFlags
	fo.register(fs)
	files, err := c.parse(fs, args, 2, 3)
	if err != nil {
		return err
	}
	// An input that is none of the formats is left to the reader to refuse, after the outputs'
	// claim (a locked output is said first: --force would not help).
	f, derr := formats.Detect(files[0])
	switch {
	case len(files) == 3 && derr == nil && f == formats.IDX:
		return usagef("convert: %s is an IDX file: convert IN OUT re-encodes it (FILE IMAGES LABELS is for Parquet, Kaggle CSV and NumPy files)", files[0])
	case len(files) == 3:
		return convertDataset(c, files[0], files[1], files[2], fo, *force)
	case derr == nil && f != formats.IDX:
		return usagef("convert: %s is a %s file: convert FILE IMAGES LABELS writes it as an IDX pair", files[0], f)
	}
	in, out := files[0], files[1]
	claim, err := claimOutputs(files[:1], files[1:], *force, nil)
	if err != nil {
		return err
	}
	defer claim.Release()
	src, err := idx.OpenFile(in)
	if err != nil {
		return err
	}
	defer src.Close()
	atomicfile.RemoveStale(out, atomicfile.StaleAge)
	if err := idx.WriteStream(out, src.Header, src); err != nil {
		return err
	}
	claim.Replaced(out) // the accepted marks of a label file it replaced: only now
	if err := c.convertMarks(claim, in, out); err != nil {
		return err
	}
	fi, err := os.Stat(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%s: %s, %d bytes\n", out, src.Header, fi.Size())
	return nil
}

// convertDataset writes the dataset file in as the IDX pair imagesPath labelsPath (runConvert).
// The outputs are claimed before anything is read; progress goes to stderr for reads that take
// over c.progressAfter (progressLine), and the reader's notes (images preprocessed, samples
// without labels) after it.
func convertDataset(c *cli, in, imagesPath, labelsPath string, fo formatFlags, force bool) error {
	opts, err := fo.options()
	if err != nil {
		return err
	}
	namesPath := builder.NamesFileFor(labelsPath)
	claim, err := claimOutputs([]string{in}, []string{imagesPath, labelsPath, namesPath}, force, nil)
	if err != nil {
		return err
	}
	defer claim.Release()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bar := c.progress()
	opts.Progress = func(done, total int) {
		if total > 0 {
			bar.show(done == total, "convert: %d of %d samples", done, total)
		} else {
			bar.show(false, "convert: %d samples", done)
		}
	}
	set, err := formats.Read(ctx, in, opts)
	bar.end()
	if err != nil {
		return err
	}
	for _, n := range set.Notes {
		fmt.Fprintf(c.stderr, "idxlabel: %s\n", n)
	}
	if err := writeNewPair(claim, imagesPath, labelsPath, namesPath, set.Images, set.Labels, set.Names); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%s, %s: %d samples of %d×%d from %s (%s)\n", imagesPath, labelsPath, set.N(), set.Images.Dims[2], set.Images.Dims[1], in, set.Format)
	return nil
}

// formatFlags are the options of reading a dataset file of another format (formats.Options):
// the Parquet columns, the .npz arrays, and the size and preprocessing of images of another
// size, as import has them.
type formatFlags struct {
	imageColumn, labelColumn string
	imagesKey, labelsKey     string
	size                     string
	noNormalize              bool
	normalize                normalizeFlags
}

func (f *formatFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.imageColumn, "image-column", "", "Parquet: the column of images (PNG or JPEG bytes, or a struct of them); found by type when not given")
	fs.StringVar(&f.labelColumn, "label-column", "", "Parquet: the column of integer labels; found by type when not given")
	fs.StringVar(&f.imagesKey, "images-key", "x", ".npz: the array of images (uint8 N×H×W)")
	fs.StringVar(&f.labelsKey, "labels-key", "", ".npz: the array of labels (integers, N; −1 no label) (default y)")
	fs.StringVar(&f.size, "size", "", "Parquet: the samples' size WIDTHxHEIGHT; images of another size go through MNIST's preprocessing (default: the first image's size when at most 64×64, else 28x28)")
	fs.BoolVar(&f.noNormalize, "no-normalize", false, "Parquet: only resize images of another size to the field (else MNIST's preprocessing, with --center, --ink and --threshold)")
	f.normalize.register(fs) // --center, --ink, --threshold: for Parquet images of another size
}

// options returns the flags as formats.Options. Errors: usage errors for a size or a
// preprocessing option that does not parse.
func (f formatFlags) options() (formats.Options, error) {
	n, err := f.normalize.options()
	if err != nil {
		return formats.Options{}, err
	}
	o := formats.Options{ImageColumn: f.imageColumn, LabelColumn: f.labelColumn, ImagesKey: f.imagesKey, LabelsKey: f.labelsKey,
		Normalize: n, NoNormalize: f.noNormalize}
	if f.size != "" {
		if o.Width, o.Height, err = parseSize(f.size); err != nil {
			return formats.Options{}, err
		}
	}
	return o, nil
}

// convertMarks gives out, the label file just re-encoded from in under claim, the accepted
// marks beside in (labelMarks: read for out's labels, which are in's), keyed as in's were, so
// that they fit the pairs in's fit. Nothing is read when in has no marks file; with one, out
// (a label file: at most idx.MaxData bytes) is read back for the marks' key.
func (c *cli) convertMarks(claim *pairfile.Claim, in, out string) error {
	if _, err := os.Lstat(pairfile.AcceptedFile(in)); err != nil {
		return nil
	}
	arr, err := idx.ReadFileLimit(out, idx.MaxData())
	if err != nil {
		return err
	}
	images, marks := c.labelMarks(in, arr)
	return c.keepMarks(claim, out, arr, images, marks)
}
