package cli

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"idxlabel/export"
)

// runExport writes the pair IMAGES LABELS to OUT in a format training code loads (package
// export): an ImageFolder tree of PNGs (the default), Kaggle's CSV or NumPy's .npz. The pair is
// opened read-only and checked by the one pair rule (store.Open); the files are exported as they
// are, every sample included. An existing OUT is replaced only with --force (claimOutputs' rule),
// and then only a regular file (csv, npz) or an earlier PNG export (png), export.Write's rule;
// anything else at OUT exits 1 untouched. Progress goes to
// stderr for exports that take over c.progressAfter (progressLine); Ctrl+C cancels and leaves nothing behind. What an
// earlier export of OUT killed midway left is finished, rolled back or removed first, each said
// on stderr (export.Write).
func runExport(c *cli, args []string) error {
	fs := c.flags("export")
	format := fs.String("format", "png", "png (ImageFolder tree), csv (Kaggle) or npz (NumPy)")
	classes := fs.String("classes", "numbers", "name the PNG class folders by numbers (zero-padded to the widest: 00…46) or names after them (0-zero, 1-one, … from the class-name file), so that sorted folder names, which torchvision's ImageFolder numbers, keep class order")
	force := fs.Bool("force", false, "replace OUT if it is a regular file (csv, npz) or an earlier PNG export (png: a folder with the "+export.Marker+" file and only <class>/<index>.png files); anything else is refused")
	files, err := c.parse(fs, args, 3, 3)
	if err != nil {
		return err
	}
	switch *format {
	case "png", "csv", "npz":
	default:
		return usagef("export: --format is png, csv or npz, not %q", *format)
	}
	if *classes != "numbers" && *classes != "names" {
		return usagef("export: --classes is numbers or names, not %q", *classes)
	}
	release, err := claimOutputs(files[:2], files[2:], *force, func(out string) error { return export.CheckOut(out, export.Format(*format)) })
	if err != nil {
		return err
	}
	defer release()
	ds, err := c.openRead(files[0], files[1])
	if err != nil {
		return err
	}
	defer ds.Close()
	s := ds.Snapshot()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bar := c.progress()
	opts := export.Options{Format: export.Format(*format), ClassNames: *classes == "names", Force: *force,
		Progress: func(done, total int) { bar.show(done == total, "export: %d of %d samples", done, total) },
		Notice:   func(msg string) { fmt.Fprintf(c.stderr, "idxlabel: %s\n", msg) }}
	err = export.Write(ctx, s, files[2], opts)
	bar.end()
	return err
}
