package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"

	"idxlabel/builder"
	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
	"idxlabel/normalize"
	"idxlabel/pairfile"
	"idxlabel/sheets"
)

// sheetsMemoryLimit is the Go runtime's soft memory limit while import-sheets runs: one page
// decoded (normalize.MaxDecodeBytes at most), its grey copy and working images, the contact
// sheet (sheets.MaxContactPixels) and the samples gathered.
const sheetsMemoryLimit = 256 << 20

// runImportSheets builds an IDX pair from scanned or photographed sheets of handwritten digits
// (package sheets): on each sheet the grid of ruled boxes is found, and every box the layout
// reads becomes a sample through MNIST's preprocessing (28×28, or --size), an empty box or a
// flagged one (ink crossing into a neighbour: not imported). The labels are int32 N×2: column 0
// the box's label from the layout, column 1 the writer (the sheet's number in reading order, or
// with --writer-from name the first number in its file name), so split --group-column 1 keeps
// each writer on one side. Each sheet's boxes found, filled, empty and flagged go to stderr, or
// why its grid was not found (nothing taken from it); a contact sheet PNG of every sheet with
// its boxes and labels drawn goes beside IMAGES (IMAGES.sheets.png). The outputs follow
// claimOutputs' rule (held from before the first sheet is read until every file is written),
// are written only once every sheet is read (Ctrl+C before: exit 130, nothing written), the pair
// atomically (writeNewPair, as import writes), and each sample's sheet and box go to the sources
// file beside LABELS (pairfile.SourcesFile). --print-template FILE.pdf writes
// instead the sheet this layout reads best, to print.
func runImportSheets(c *cli, args []string) error {
	fs := c.flags("import-sheets")
	layoutFile := fs.String("layout", "", "a layout file (JSON: rows, cols, each box's label or \"skip\"; docs/sheets.md) instead of --rows, --cols and --labels")
	rows := fs.Int("rows", 10, "rows of boxes on each sheet")
	cols := fs.Int("cols", 12, "columns of boxes on each sheet")
	labels := fs.String("labels", "", "each box's label: rows=0123456789 (row k holds the k-th), cols=…, or one a box row by row (- skips a box); default rows=0123456789 for 10 rows")
	writerFrom := fs.String("writer-from", "index", "the writer in label column 1: index (the sheet's number, 0, 1, … in reading order) or name (the first number in the sheet's file name)")
	size := fs.String("size", "28x28", "the samples' field, WIDTHxHEIGHT pixels (MNIST's preprocessing scaled to it)")
	center := fs.String("center", "mass", "centring: mass (MNIST's centre of mass) or box (bounding box)")
	template := fs.String("print-template", "", "write the sheet for this layout as a PDF to FILE, to print, and read nothing")
	force := fs.Bool("force", false, "replace IMAGES, LABELS, the contact sheet and the class-name and sources files beside LABELS if they exist (never a pair open for editing, or whose journal holds unsaved edits)")
	minArgs := 3
	if hasFlag(args, "print-template") {
		minArgs = 0
	}
	files, err := c.parse(fs, args, minArgs, -1)
	if err != nil {
		return err
	}
	layout, err := sheetsLayout(fs, *layoutFile, *rows, *cols, *labels)
	if err != nil {
		return err
	}
	if *template != "" {
		if len(files) > 0 {
			return usagef("import-sheets: --print-template writes the template and reads no sheet; leave out %s", strings.Join(files, " "))
		}
		return writeTemplate(c, *template, layout, *force)
	}
	from, err := sheets.ParseWriterFrom(*writerFrom)
	if err != nil {
		return usagef("--%v", err)
	}
	var opts sheets.Options
	if opts.Width, opts.Height, err = parseSize(*size); err != nil {
		return err
	}
	if opts.Centering, err = normalize.ParseCentering(*center); err != nil {
		return usagef("%v", err)
	}
	n := len(files)
	imagesPath, labelsPath := files[n-2], files[n-1]
	namesPath := builder.NamesFileFor(labelsPath)
	sourcesPath := pairfile.SourcesFile(imagesPath, labelsPath)
	contactPath := contactFor(imagesPath)
	outputs := []string{imagesPath, labelsPath, namesPath, sourcesPath, contactPath}
	if err := checkOutputs(files[:n-2], outputs); err != nil {
		return err
	}
	sources, skipped, err := sheets.List(files[:n-2], from)
	for _, s := range skipped {
		fmt.Fprintf(c.stderr, "idxlabel: %s (skipped)\n", s)
	}
	if err != nil {
		return err
	}
	inputs := make([]string, len(sources))
	for i, s := range sources {
		inputs[i] = s.Path
	}
	claim, err := claimOutputs(inputs, outputs, *force, nil)
	if err != nil {
		return err
	}
	defer claim.Release()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(sheetsMemoryLimit))
	contact := sheets.NewContact(len(sources))
	batch, err := sheets.ReadAll(ctx, sources, layout, opts, func(k int, r sheets.Report, s *sheets.Sheet) {
		c.reportSheet(r)
		contact.Add(k, r, s)
	})
	if err != nil {
		return err
	}
	read, noGrid := 0, 0
	for _, r := range batch.Reports {
		if r.Err == nil {
			read++
		} else if errors.Is(r.Err, sheets.ErrNoGrid) {
			noGrid++
		}
	}
	if batch.N() == 0 {
		return fmt.Errorf("%s: no sample read from %d sheets (%d without a grid of %d×%d boxes found)", strings.Join(files[:n-2], ", "), len(sources), noGrid, layout.Rows, layout.Cols)
	}
	images, labelArr, err := sheetArrays(batch)
	if err != nil {
		return err
	}
	var contactPNG bytes.Buffer
	if err := encodePNG(&contactPNG, contact); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := writeNewPair(claim, imagesPath, labelsPath, namesPath, images, labelArr, nil); err != nil {
		return err
	}
	if err := pairfile.WriteSources(sourcesPath, batch.Sources(files[:n-2], false)); err != nil {
		return err
	}
	atomicfile.RemoveStale(contactPath, atomicfile.StaleAge)
	if err := atomicfile.WriteFileNoFollow(contactPath, func(w io.Writer) error { _, err := w.Write(contactPNG.Bytes()); return err }); err != nil {
		return fmt.Errorf("%w (the pair %s, %s is written)", err, imagesPath, labelsPath)
	}
	shown := ""
	if len(sources) > sheets.MaxContactSheets {
		shown = fmt.Sprintf(" (its first %d sheets)", sheets.MaxContactSheets)
	}
	fmt.Fprintf(c.stdout, "%s, %s: %d samples of %d×%d from %d of %d sheets (labels N×2: class, writer); contact sheet %s%s\n",
		imagesPath, labelsPath, batch.N(), opts.Width, opts.Height, read, len(sources), contactPath, shown)
	return nil
}

// hasFlag reports whether args set the option name (--name or --name=…) before a "--".
func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		k, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && k == name {
			return true
		}
	}
	return false
}

// sheetsLayout returns the layout a command line gives: the layout file, or --rows, --cols and
// --labels (not both).
func sheetsLayout(fs *flag.FlagSet, file string, rows, cols int, labels string) (*sheets.Layout, error) {
	if file != "" {
		var clash []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "rows" || f.Name == "cols" || f.Name == "labels" {
				clash = append(clash, "--"+f.Name)
			}
		})
		if len(clash) > 0 {
			return nil, usagef("import-sheets: --layout gives the rows, columns and labels; leave out %s", strings.Join(clash, " "))
		}
		return sheets.ReadLayout(file)
	}
	l, err := sheets.ParseLayout(rows, cols, labels)
	if err != nil {
		return nil, usagef("import-sheets: %v", err)
	}
	return l, nil
}

// reportSheet prints one sheet's line on stderr, and a line for each flagged box.
func (c *cli) reportSheet(r sheets.Report) {
	if r.Err != nil {
		fmt.Fprintf(c.stderr, "idxlabel: %s (no sample taken)\n", describe(r.Err))
		return
	}
	fmt.Fprintf(c.stderr, "import-sheets: %s: %s\n", r.Path, r.Summary())
	for _, f := range r.Flagged {
		fmt.Fprintf(c.stderr, "import-sheets: %s: %s (not imported)\n", r.Path, f)
	}
}

// sheetArrays wraps a batch as IDX arrays: images N×H×W ubyte, labels N×2 int32 (class,
// writer), the shape QMNIST's label files have (with 8 columns).
func sheetArrays(b *sheets.Batch) (*idx.Array, *idx.Array, error) {
	n := b.N()
	images := &idx.Array{Header: idx.Header{Type: idx.UByte, Dims: []int{n, b.Height, b.Width}}, Data: b.Pixels}
	la, err := idx.New(idx.Int32, n, 2)
	if err != nil {
		return nil, nil, err
	}
	for i := range n {
		la.SetInt(2*i, int64(b.Labels[i]))
		la.SetInt(2*i+1, int64(b.Writers[i]))
	}
	return images, la, nil
}

// contactFor returns the contact sheet's path for an images file: beside it, its name without
// .gz, then .sheets.png.
func contactFor(images string) string {
	return strings.TrimSuffix(images, ".gz") + ".sheets.png"
}

// encodePNG encodes the contact sheet (best speed: a contact sheet of many pages is large).
func encodePNG(w io.Writer, c *sheets.Contact) error {
	e := png.Encoder{CompressionLevel: png.BestSpeed}
	return e.Encode(w, c.Image())
}

// writeTemplate writes the template PDF for a layout (claimOutputs' rule: replaced only with
// --force).
func writeTemplate(c *cli, path string, l *sheets.Layout, force bool) error {
	claim, err := claimOutputs(nil, []string{path}, force, nil)
	if err != nil {
		return err
	}
	defer claim.Release()
	atomicfile.RemoveStale(path, atomicfile.StaleAge)
	if err := atomicfile.WriteFile(path, func(w io.Writer) error { return sheets.WritePDF(w, sheets.Template(l)) }); err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%s: an A4 sheet of %d×%d boxes; print it at actual size (any size reads)\n", path, l.Rows, l.Cols)
	return nil
}
