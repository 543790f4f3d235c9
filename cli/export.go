package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"idxlabel/export"
	"idxlabel/internal/version"
)

// runExport writes the pair IMAGES LABELS to OUT in a format training code loads (package
// export): an ImageFolder tree of PNGs (the default), Kaggle's CSV, NumPy's .npz, or a Hugging
// Face dataset of Parquet files. The pair is opened read-only and checked by the one pair rule
// (store.Open); the files are exported as they are, every sample included. An existing OUT is
// replaced only with --force (claimOutputs' rule), and then only a regular file (kaggle-csv,
// npz), an earlier PNG export (png) or an earlier Parquet export (parquet), export's rule;
// anything else at OUT exits 1 untouched. Progress goes to stderr for exports that take over
// c.progressAfter (progressLine); Ctrl+C cancels and leaves nothing behind. What an earlier export of OUT killed midway
// left is finished, rolled back or removed first, each said on stderr (export.Write).
//
// Parquet takes one or more pairs, IMAGES LABELS [IMAGES2 LABELS2 ...] OUT, one split each, into
// the folder OUT (export.WriteParquet); --splits names them, else splitNames does.
func runExport(c *cli, args []string) error {
	fs := c.flags("export")
	format := fs.String("format", "png", "png (ImageFolder tree), kaggle-csv (Kaggle's CSV; csv is the same), npz (NumPy) or parquet (a Hugging Face dataset folder)")
	classes := fs.String("classes", "numbers", "name the PNG class folders by numbers (zero-padded to the widest: 00…46) or names after them (0-zero, 1-one, … from the class-name file), so that sorted folder names, which torchvision's ImageFolder numbers, keep class order")
	splits := fs.String("splits", "", "parquet: the splits' names, one per pair in order (train,test); default: from the image files' names (train, test or t10k, val)")
	force := fs.Bool("force", false, "replace OUT if it is a regular file (kaggle-csv, npz), an earlier PNG export (png: a folder with the "+export.Marker+" file and only <class>/<index>.png files) or an earlier Parquet export (parquet); anything else is refused")
	files, err := c.parse(fs, args, 3, -1)
	if err != nil {
		return err
	}
	f := export.Format(*format)
	switch f {
	case export.PNG, export.CSV, export.KaggleCSV, export.NPZ:
		if len(files) != 3 {
			return usagef("export: --format %s writes one pair: export IMAGES LABELS OUT", f)
		}
	case export.Parquet:
		if len(files)%2 != 1 {
			return usagef("export: --format parquet takes pairs IMAGES LABELS [IMAGES2 LABELS2 ...] and OUT")
		}
	default:
		return usagef("export: --format is png, kaggle-csv, npz or parquet, not %q", *format)
	}
	if *classes != "numbers" && *classes != "names" {
		return usagef("export: --classes is numbers or names, not %q", *classes)
	}
	inputs, out := files[:len(files)-1], files[len(files)-1]
	var names []string
	if f == export.Parquet {
		if names, err = splitNames(*splits, inputs); err != nil {
			return err
		}
	}
	claim, err := claimOutputs(inputs, []string{out}, *force, func(out string) error { return export.CheckOut(out, f) })
	if err != nil {
		return err
	}
	defer claim.Release()
	var parts []export.Split
	for k := 0; k < len(inputs); k += 2 {
		ds, err := c.openRead(inputs[k], inputs[k+1])
		if err != nil {
			return err
		}
		defer ds.Close()
		sp := export.Split{Set: ds.Snapshot(), Sources: inputs[k : k+2]}
		if names != nil {
			sp.Name = names[k/2]
		}
		parts = append(parts, sp)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bar := c.progress()
	opts := export.Options{Format: f, ClassNames: *classes == "names", Force: *force, Made: "idxlabel " + version.Version,
		Progress: func(done, total int) { bar.show(done == total, "export: %d of %d samples", done, total) },
		Notice:   func(msg string) { fmt.Fprintf(c.stderr, "idxlabel: %s\n", msg) }}
	if f == export.Parquet {
		err = export.WriteParquet(ctx, parts, out, opts)
	} else {
		err = export.Write(ctx, parts[0].Set, out, opts)
	}
	bar.end()
	return err
}

// splitNames returns the Parquet splits' names, one per pair of inputs: those of given (a comma-
// separated list), else each image file's by export.SplitOf (train, test or t10k, val); a single
// pair named otherwise is train. Errors (usage): a count that is not the pairs', or names that
// cannot be told from the files or come twice.
func splitNames(given string, inputs []string) ([]string, error) {
	pairs := len(inputs) / 2
	if given != "" {
		names := strings.Split(given, ",")
		if len(names) != pairs {
			return nil, usagef("export: --splits names %d splits for %d pairs", len(names), pairs)
		}
		return names, nil
	}
	names := make([]string, pairs)
	seen := map[string]bool{}
	for k := range pairs {
		switch names[k] = export.SplitOf(inputs[2*k]); {
		case names[k] != "":
		case pairs == 1:
			names[k] = "train"
		default:
			return nil, usagef("export: cannot tell the split of %s from its name: name the splits with --splits (train,test)", inputs[2*k])
		}
		if seen[names[k]] {
			return nil, usagef("export: two pairs would be the %s split: name the splits with --splits (train,test)", names[k])
		}
		seen[names[k]] = true
	}
	return names, nil
}
