// Package export writes a dataset's samples in the formats training code loads: an ImageFolder
// tree of PNG files (torchvision.datasets.ImageFolder, Keras' image_dataset_from_directory),
// Kaggle's digit-recognizer CSV (train.csv, or test.csv's layout for unlabelled samples), NumPy's
// .npz, and a Hugging Face dataset of Parquet files with its dataset card (WriteParquet). Every
// format reads back exactly (package formats reads the last three): the pixels are the samples'
// H×W display pixels (0 = background, 255 = ink for MNIST), the labels their classes. The output
// is written atomically (a folder or file under a temporary name beside OUT, renamed at the end),
// so a cancelled or failed export leaves nothing half-written, and what an export killed midway
// leaves the next export of the same OUT makes good. Options.Force replaces only what the format
// writes: a regular file for CSV and NPZ, for PNG a folder that is an earlier PNG export (the
// Marker file and class folders of <index>.png files, nothing else), for Parquet an earlier
// Parquet export; anything else in the way is refused (ErrInTheWay) and left untouched.
//
// It also puts a health report's folder in place (WriteReportFolder: its page and pictures are
// package report's), under the same rules. export knows nothing of scans and never imports
// Fyne; the command line and the window both call Write.
package export

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"idxlabel/internal/atomicfile"
	"idxlabel/sample"
)

// Format is an export format.
type Format string

// The formats.
const (
	PNG       Format = "png"        // OUT/<class>/<index>.png, 8-bit grayscale
	KaggleCSV Format = "kaggle-csv" // label,pixel0,…,pixel{H·W−1}; one row per sample (Kaggle's train.csv; test.csv when unlabelled)
	CSV       Format = "csv"        // KaggleCSV by its earlier name
	NPZ       Format = "npz"        // x: N×H×W uint8; y: N int64
	Parquet   Format = "parquet"    // a Hugging Face dataset folder: data/<split>-00000-of-00001.parquet and README.md (WriteParquet; Options.Split)
)

// Options adjust Write.
type Options struct {
	Format Format
	// ClassNames names the PNG tree's class folders by class name (made safe for file names)
	// instead of by number.
	ClassNames bool
	// Force replaces an existing OUT that is what the format writes: a regular file for CSV
	// and NPZ (not a symbolic link), for PNG an earlier PNG export (a folder with the Marker
	// file and only class folders of <index>.png files). Without it any existing OUT is
	// refused; with it anything else still is (ErrInTheWay).
	Force bool
	// Progress (may be nil) is called with the samples written so far and N.
	Progress func(done, total int)
	// Notice (may be nil) is called with a sentence for the person about what an earlier export
	// of OUT that was killed midway had left, and what Write did with it (see Write).
	Notice func(msg string)
	// Made names the program that writes a Parquet export, in its dataset card and its files'
	// created_by ("idxlabel 0.1.0").
	Made string
	// Split names the one split of a Parquet export by Write (data/<Split>-00000-of-00001.parquet
	// and the card's split; letters, digits and underscores); "" is "train". SplitOf gives it
	// from the image file's name.
	Split string
}

// ErrExists: OUT exists, Options.Force would replace it, and Force is not set. It is
// atomicfile.ErrExists, the refusal of every writer's rule (pairfile.ClaimOutputs returns it too):
// its message states the fact; the command line adds its advice (--force), the window asks.
var ErrExists = atomicfile.ErrExists

// Write exports s to out in opts.Format ("" is PNG). First it makes good what earlier exports of
// out that were killed midway left beside it (recoverTrees: a PNG export killed between its
// renames is finished or rolled back, the hidden folders of killed PNG exports are removed once
// abandoned, and for CSV and NPZ the temporary files of killed writes, atomicfile.RemoveStale),
// saying so through opts.Notice. Errors: ErrInTheWay (wrapped, naming out and what is there)
// when out exists and Force may not replace it, with or without Force; ErrExists (wrapped,
// naming out) when it may and Force is not set; an unknown format; samples of the wrong size;
// the context's error when cancelled (nothing is left behind); and any write error.
func Write(ctx context.Context, s sample.Set, out string, opts Options) error {
	if opts.Progress == nil {
		opts.Progress = func(int, int) {}
	}
	if opts.Notice == nil {
		opts.Notice = func(string) {}
	}
	if s.N < 0 || s.H < 1 || s.W < 1 || len(s.Labels) != s.N || s.Index != nil && len(s.Index) != s.N {
		return fmt.Errorf("export: %d samples of %d×%d with %d labels", s.N, s.H, s.W, len(s.Labels))
	}
	if opts.Format == "" {
		opts.Format = PNG
	}
	switch opts.Format {
	case PNG, CSV, KaggleCSV, NPZ:
	case Parquet:
		name := opts.Split
		if name == "" {
			name = "train"
		}
		return WriteParquet(ctx, []Split{{Name: name, Set: s}}, out, opts)
	default:
		return fmt.Errorf("export: unknown format %q (png, kaggle-csv, npz or parquet)", opts.Format)
	}
	out = filepath.Clean(out)
	for _, msg := range recoverTrees(out) {
		opts.Notice(msg)
	}
	if err := checkOut(out, opts.Format, opts.Force); err != nil {
		return err
	}
	if opts.Format != PNG {
		for _, p := range atomicfile.RemoveStale(out, atomicfile.StaleAge) {
			opts.Notice(fmt.Sprintf("removed %s, left by a write of %s that was killed", p, filepath.Base(out)))
		}
	}
	switch opts.Format {
	case CSV, KaggleCSV:
		return atomicfile.WriteFile(out, func(w io.Writer) error { return writeCSV(ctx, s, w, opts.Progress) })
	case NPZ:
		return atomicfile.WriteFile(out, func(w io.Writer) error { return writeNPZ(ctx, s, w, opts.Progress) })
	}
	return writeTree(ctx, s, out, opts)
}

// place returns a temporary name beside out for building a folder: ".<name>.idxlabel-export-*".
// (A single file is written by atomicfile.WriteFile.)
func place(out string) (dir, pattern string) {
	return filepath.Dir(out), "." + filepath.Base(out) + ".idxlabel-export-"
}

// maxFolderName is the most bytes of a class's name in its folder's name: a class name may
// hold 64 characters of up to 4 bytes each, and a file name at most 255 bytes (Linux, macOS).
const maxFolderName = 128

// folderName returns the PNG tree's folder for class c: its number zero-padded to width digits
// (classWidth), and with names "<number>-<name>", the name made safe for file names on Linux,
// macOS and Windows and cut to maxFolderName bytes at a character's end (a class without a
// name, or named by its number, is its number alone); "unlabelled" for sample.NoLabel.
func folderName(s sample.Set, c int, names bool, width int) string {
	if c == sample.NoLabel {
		return "unlabelled"
	}
	num := fmt.Sprintf("%0*d", width, c)
	if !names || s.ClassName == nil {
		return num
	}
	name := strings.Map(func(r rune) rune {
		switch {
		case strings.ContainsRune(`/\:*?"<>|`, r), !unicode.IsPrint(r):
			return '_'
		}
		return r
	}, s.ClassName(c))
	if len(name) > maxFolderName {
		cut := maxFolderName
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		name = name[:cut]
	}
	name = strings.Trim(name, " .")
	if name == "" || name == strconv.Itoa(c) {
		return num
	}
	return num + "-" + name
}
