package formats

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/format"

	"idxlabel/internal/atomicfile"
	"idxlabel/normalize"
	"idxlabel/sample"
)

// pqField is a field of a Parquet schema (parquet.thrift's SchemaElement list, read as a tree).
type pqField struct {
	el       *format.SchemaElement
	children []*pqField
	leaf     int // the column's index among the leaves (a row group's column chunks); −1 for a group
}

func (f *pqField) name() string { return f.el.Name }

func (f *pqField) repeated() bool {
	return f.el.RepetitionType.Valid && f.el.RepetitionType.V == format.Repeated
}

// optional reports a field that may be null: one definition level.
func (f *pqField) optional() int {
	if f.el.RepetitionType.Valid && f.el.RepetitionType.V == format.Optional {
		return 1
	}
	return 0
}

// binary reports a leaf of byte arrays that are not text.
func (f *pqField) binary() bool {
	if f.leaf < 0 || f.repeated() || !f.el.Type.Valid || f.el.Type.V != format.ByteArray {
		return false
	}
	if f.el.ConvertedType.Valid {
		return false // UTF8, ENUM, JSON, BSON, DECIMAL: not a file's bytes
	}
	switch f.el.LogicalType.Value.(type) {
	case nil:
		return true
	}
	return false
}

// integer reports a leaf of integers (INT32 or INT64, plain or with an integer annotation), and
// whether they are unsigned.
func (f *pqField) integer() (ok, unsigned bool) {
	if f.leaf < 0 || f.repeated() || !f.el.Type.Valid || f.el.Type.V != format.Int32 && f.el.Type.V != format.Int64 {
		return false, false
	}
	if c := f.el.ConvertedType; c.Valid {
		switch c.V {
		case deprecated.Uint8, deprecated.Uint16, deprecated.Uint32, deprecated.Uint64:
			return true, true
		case deprecated.Int8, deprecated.Int16, deprecated.Int32, deprecated.Int64:
			return true, false
		}
		return false, false
	}
	switch t := f.el.LogicalType.Value.(type) {
	case nil:
		return true, false
	case *format.IntType:
		return true, !t.IsSigned
	}
	return false, false
}

// imageLeaf returns the leaf holding an image column's file bytes: the field itself (binary), or
// its "bytes" child (Hugging Face's Image: a struct of bytes and path); nil for neither.
func (f *pqField) imageLeaf() *pqField {
	if f.binary() {
		return f
	}
	if f.leaf >= 0 || f.repeated() {
		return nil
	}
	for _, c := range f.children {
		if c.name() == "bytes" && c.binary() {
			return c
		}
	}
	return nil
}

// schemaTree reads the schema list (depth first, each group followed by its children) into the
// root's fields. Errors: a list whose counts do not add up, or deeper than MaxRank levels.
func schemaTree(els []format.SchemaElement) ([]*pqField, error) {
	if len(els) == 0 {
		return nil, errors.New("an empty schema")
	}
	next, leaves := 1, 0
	var build func(parent *format.SchemaElement, depth int) ([]*pqField, error)
	build = func(parent *format.SchemaElement, depth int) ([]*pqField, error) {
		n := int(parent.NumChildren.V)
		if !parent.NumChildren.Valid || n < 0 || n > len(els)-next || depth > 255 {
			return nil, errors.New("a schema whose groups do not add up")
		}
		out := make([]*pqField, 0, n)
		for range n {
			el := &els[next]
			next++
			f := &pqField{el: el, leaf: -1}
			if el.NumChildren.Valid && el.NumChildren.V > 0 {
				var err error
				if f.children, err = build(el, depth+1); err != nil {
					return nil, err
				}
			} else {
				f.leaf = leaves
				leaves++
			}
			out = append(out, f)
		}
		return out, nil
	}
	fields, err := build(&els[0], 0)
	if err == nil && next != len(els) {
		err = errors.New("a schema with elements outside its root")
	}
	return fields, err
}

// pqColumns are the columns a Parquet file is read from.
type pqColumns struct {
	image, label       string
	imageLeaf          int // column index of the image bytes
	labelLeaf          int // −1: no label column
	labelUnsigned      bool
	imageStruct        bool // the image column is a struct (Hugging Face's Image)
	imageDef, labelDef int  // the columns' greatest definition levels
	labelPhys          format.Type
	imageCands, labels []string
}

// findColumns chooses the image and label columns among the top-level fields: the ones named
// (opts.ImageColumn, opts.LabelColumn) or else those of the right type (an image: binary, or a
// struct with a binary "bytes" field; a label: integers), preferring "image" and "label" when
// several are; no integer column leaves the samples unlabelled. Errors say what the file holds
// and which option names a column.
func findColumns(fields []*pqField, opts Options) (pqColumns, error) {
	c := pqColumns{labelLeaf: -1}
	var images, labels []*pqField
	byName := map[string]*pqField{}
	for _, f := range fields {
		byName[f.name()] = f
		if f.imageLeaf() != nil {
			images = append(images, f)
			c.imageCands = append(c.imageCands, f.name())
		}
		if ok, _ := f.integer(); ok {
			labels = append(labels, f)
			c.labels = append(c.labels, f.name())
		}
	}
	names := func() string {
		var all []string
		for _, f := range fields {
			all = append(all, f.name())
		}
		return strings.Join(all, ", ")
	}
	pick := func(want, preferred, kind, flag string, cands []*pqField, ok func(*pqField) bool) (*pqField, error) {
		if want != "" {
			f := byName[want]
			if f == nil {
				return nil, fmt.Errorf("no column %q (it has %s)", want, names())
			}
			if !ok(f) {
				return nil, fmt.Errorf("column %q is not %s", want, kind)
			}
			return f, nil
		}
		if f := byName[preferred]; f != nil && ok(f) {
			return f, nil
		}
		switch len(cands) {
		case 0:
			return nil, nil
		case 1:
			return cands[0], nil
		}
		var list []string
		for _, f := range cands {
			list = append(list, f.name())
		}
		return nil, fmt.Errorf("several columns could be %s (%s): name one with %s", kind, strings.Join(list, ", "), flag)
	}
	img, err := pick(opts.ImageColumn, "image", "images (PNG or JPEG bytes, or a struct of them)", "--image-column", images, func(f *pqField) bool { return f.imageLeaf() != nil })
	if err != nil {
		return c, err
	}
	if img == nil {
		return c, fmt.Errorf("no column of images (binary, or a struct with a binary bytes field; it has %s): name one with --image-column", names())
	}
	lab, err := pick(opts.LabelColumn, "label", "integer labels", "--label-column", labels, func(f *pqField) bool { ok, _ := f.integer(); return ok })
	if err != nil {
		return c, err
	}
	c.image, c.imageLeaf, c.imageStruct = img.name(), img.imageLeaf().leaf, img.leaf < 0
	c.imageDef = img.optional()
	if c.imageStruct {
		c.imageDef += img.imageLeaf().optional()
	}
	if lab != nil {
		c.label, c.labelLeaf, c.labelPhys, c.labelDef = lab.name(), lab.leaf, lab.el.Type.V, lab.optional()
		_, c.labelUnsigned = lab.integer()
	}
	return c, nil
}

// checkLayout checks the row groups against the file before any page is read: their rows add
// up to the file's, every group has a chunk for each column, no chunk lives in another file (a
// path read from a file never leads out of it), and the two columns' chunks pass checkChunk.
func checkLayout(r io.ReaderAt, name string, md *format.FileMetaData, leaves int, cols pqColumns, dataEnd int64) error {
	if md.NumRows < 0 || md.NumRows > MaxRows {
		return fmt.Errorf("%s: %d rows: %w (at most %d)", name, md.NumRows, ErrTooLarge, MaxRows)
	}
	var rows int64
	for g, rg := range md.RowGroups {
		if rg.NumRows < 0 || rg.NumRows > md.NumRows-rows {
			return fmt.Errorf("%s: %w: row group %d declares %d rows, more than the file's %d", name, ErrMalformed, g, rg.NumRows, md.NumRows)
		}
		rows += rg.NumRows
		if len(rg.Columns) != leaves {
			return fmt.Errorf("%s: %w: row group %d has %d columns, the schema %d", name, ErrMalformed, g, len(rg.Columns), leaves)
		}
		for _, cc := range rg.Columns {
			if cc.FilePath != "" {
				return fmt.Errorf("%s: row group %d keeps a column in another file (%.60q): not read", name, g, cc.FilePath)
			}
		}
		if err := checkChunk(r, name, column{cols.image, imageEncodings, cols.imageDef}, g, &rg.Columns[cols.imageLeaf].MetaData, rg.NumRows, dataEnd); err != nil {
			return err
		}
		if cols.labelLeaf >= 0 {
			if err := checkChunk(r, name, column{cols.label, labelEncodings, cols.labelDef}, g, &rg.Columns[cols.labelLeaf].MetaData, rg.NumRows, dataEnd); err != nil {
				return err
			}
		}
	}
	if rows != md.NumRows {
		return fmt.Errorf("%s: %w: row groups of %d rows, the file declares %d", name, ErrMalformed, rows, md.NumRows)
	}
	return nil
}

// readParquet reads a Parquet file of images and labels (see Read and Options). The footer and
// every page of the two columns are checked first (checkFooter, checkLayout); then each row
// group's labels are read, and its images decoded a batch at a time by opts.Workers goroutines.
// The class names come from the "huggingface" metadata's ClassLabel of the label column.
func readParquet(ctx context.Context, path string, opts Options) (*Set, error) {
	f, fi, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := fi.Size()
	dataEnd, err := checkFooter(f, size, path)
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, size, parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true), parquet.ReadBufferSize(64<<10))
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", path, ErrMalformed, err)
	}
	md := pf.Metadata()
	fields, err := schemaTree(md.Schema)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %v", path, ErrMalformed, err)
	}
	cols, err := findColumns(fields, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	leaves := 0
	for _, el := range md.Schema[1:] {
		if !el.NumChildren.Valid || el.NumChildren.V == 0 {
			leaves++
		}
	}
	if err := checkLayout(f, path, md, leaves, cols, dataEnd); err != nil {
		return nil, err
	}
	r := &pqReader{name: path, opts: opts, cols: cols, total: int(md.NumRows), s: &samples{name: path}}
	for g, rg := range pf.RowGroups() {
		if err := r.group(ctx, rg, md.RowGroups[g].NumRows); err != nil {
			return nil, err
		}
	}
	if r.total == 0 {
		if err := r.s.reserve(r.fieldSize(image.Point{})); err != nil {
			return nil, err
		}
	}
	set, err := r.s.set()
	if err != nil {
		return nil, err
	}
	if v, ok := pf.Lookup("huggingface"); ok && cols.labelLeaf >= 0 {
		names, note := classNames(v, cols.label)
		set.Names = names
		if note != "" {
			set.Notes = append(set.Notes, path+": "+note)
		}
	}
	if r.normalized > 0 {
		set.Notes = append(set.Notes, fmt.Sprintf("%s: %d of %d images were not %d×%d: made %d×%d by MNIST's preprocessing, as import does", path, r.normalized, r.total, r.s.w, r.s.h, r.s.w, r.s.h))
	}
	if r.blank > 0 {
		set.Notes = append(set.Notes, fmt.Sprintf("%s: %d images had no ink: blank samples", path, r.blank))
	}
	if cols.labelLeaf < 0 {
		set.Notes = append(set.Notes, fmt.Sprintf("%s has no integer label column: %d samples without labels", path, r.total))
	}
	return set, nil
}

// pqReader reads a Parquet file's rows into samples.
type pqReader struct {
	name       string
	opts       Options
	cols       pqColumns
	s          *samples
	total      int // rows in the file
	row        int // rows read so far
	sized      bool
	normalized int // images that went through the preprocessing
	blank      int // of them, images without ink
}

// fieldSize returns the samples' height and width: opts.Width×Height, else the first image's
// size (first) when it is at most DefaultMaxSide a side, else 28×28.
func (r *pqReader) fieldSize(first image.Point) (n int64, h, w int) {
	n = int64(r.total)
	switch {
	case r.opts.Width > 0 && r.opts.Height > 0:
		return n, r.opts.Height, r.opts.Width
	case first.X > 0 && first.Y > 0 && first.X <= DefaultMaxSide && first.Y <= DefaultMaxSide:
		return n, first.Y, first.X
	}
	return n, normalize.FieldSize, normalize.FieldSize
}

// group reads one row group of rows rows: its labels whole, then its images page by page.
func (r *pqReader) group(ctx context.Context, rg parquet.RowGroup, rows int64) error {
	var labels []int
	if r.cols.labelLeaf >= 0 {
		labels = make([]int, 0, min(rows, MaxPageValues))
		err := r.values(rg.ColumnChunks()[r.cols.labelLeaf], func(v parquet.Value) error {
			l, err := r.label(v)
			labels = append(labels, l)
			return err
		})
		if err != nil {
			return fmt.Errorf("%s: column %s: row %d: %w", r.name, r.cols.label, r.row+len(labels)-1, err)
		}
		if int64(len(labels)) != rows {
			return fmt.Errorf("%s: %w: column %s holds %d values for %d rows", r.name, ErrMalformed, r.cols.label, len(labels), rows)
		}
	}
	const batchBytes = 8 << 20
	var batch [][]byte
	held, done := 0, 0
	flush := func() error {
		if int64(done+len(batch)) > rows {
			return fmt.Errorf("%s: %w: column %s holds more values than its %d rows", r.name, ErrMalformed, r.cols.image, rows)
		}
		var lb []int
		if labels != nil {
			lb = labels[done : done+len(batch)]
		}
		err := r.decode(ctx, batch, lb)
		done += len(batch)
		batch, held = batch[:0], 0
		return err
	}
	err := r.values(rg.ColumnChunks()[r.cols.imageLeaf], func(v parquet.Value) error {
		if v.IsNull() {
			return fmt.Errorf("%s: row %d: no image (null)", r.name, r.row+len(batch))
		}
		b := append([]byte(nil), v.ByteArray()...)
		batch = append(batch, b)
		if held += len(b); held >= batchBytes || len(batch) >= 1024 {
			return flush()
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	if err != nil {
		var re *rowError
		if errors.As(err, &re) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return fmt.Errorf("%s: column %s: row %d: %w", r.name, r.cols.image, r.row, err)
	}
	if int64(done) != rows {
		return fmt.Errorf("%s: %w: column %s holds %d values for %d rows", r.name, ErrMalformed, r.cols.image, done, rows)
	}
	return nil
}

// label returns the sample label of a label column's value (labelOf; null is no label).
func (r *pqReader) label(v parquet.Value) (int, error) {
	if v.IsNull() {
		return sample.NoLabel, nil
	}
	var x int64
	switch {
	case r.cols.labelPhys == format.Int32 && r.cols.labelUnsigned:
		x = int64(uint32(v.Int32()))
	case r.cols.labelPhys == format.Int32:
		x = int64(v.Int32())
	default:
		x = v.Int64()
		if r.cols.labelUnsigned && x < 0 {
			return 0, fmt.Errorf("label %d is outside the 32-bit labels IDX holds", uint64(x))
		}
	}
	return labelOf(x)
}

// rowError is a row whose image cannot be made a sample; its message names the file and the
// row.
type rowError struct{ msg string }

func (e *rowError) Error() string { return e.msg }

// values calls fn with every value of a column chunk, in order, a page at a time.
func (r *pqReader) values(cc parquet.ColumnChunk, fn func(parquet.Value) error) error {
	pages := cc.Pages()
	defer pages.Close()
	buf := make([]parquet.Value, 256)
	for {
		p, err := pages.ReadPage()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %v", ErrMalformed, err)
		}
		err = readPage(p, buf, fn)
		parquet.Release(p)
		if err != nil {
			return err
		}
	}
}

// readPage calls fn with every value of page p, read into buf a few at a time.
func readPage(p parquet.Page, buf []parquet.Value, fn func(parquet.Value) error) error {
	vr := p.Values()
	for {
		n, err := vr.ReadValues(buf)
		for _, v := range buf[:n] {
			if err := fn(v); err != nil {
				return err
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: %v", ErrMalformed, err)
		}
	}
}

// decode turns a batch of image files (rows r.row…) into samples with their labels (nil: no
// label column), opts.Workers at a time. The first image fixes the samples' size (fieldSize).
func (r *pqReader) decode(ctx context.Context, batch [][]byte, labels []int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !r.sized {
		cfg, _, err := image.DecodeConfig(bytes.NewReader(batch[0]))
		if err != nil {
			return &rowError{fmt.Sprintf("%s: row %d: the image cannot be decoded: %v", r.name, r.row, err)}
		}
		if err := r.s.reserve(r.fieldSize(image.Pt(cfg.Width, cfg.Height))); err != nil {
			return err
		}
		r.sized = true
	}
	h, w := r.s.h, r.s.w
	out := make([]byte, len(batch)*h*w)
	errs := make([]error, len(batch))
	kind := make([]int8, len(batch)) // 1 preprocessed, 2 preprocessed and blank
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(r.opts.Workers, len(batch)) {
		wg.Go(func() {
			for k := range next {
				kind[k], errs[k] = r.sample(r.row+k, batch[k], out[k*h*w:(k+1)*h*w])
			}
		})
	}
	for k := range batch {
		next <- k
	}
	close(next)
	wg.Wait()
	for k, err := range errs {
		if err != nil {
			return err
		}
		label := sample.NoLabel
		if labels != nil {
			label = labels[k]
		}
		r.s.add(out[k*h*w:(k+1)*h*w], label)
		if kind[k] > 0 {
			r.normalized++
		}
		if kind[k] > 1 {
			r.blank++
		}
	}
	r.row += len(batch)
	r.opts.Progress(r.row, r.total)
	return nil
}

// sample decodes the image file b of row row into px (H×W): as it is (grey by luminance) when
// it is H×W, else through the preprocessing (normalize.Sample with opts.Normalize at H×W;
// kind 1, and 2 for an image without ink, left blank). Errors: a *rowError naming the file and
// the row.
func (r *pqReader) sample(row int, b []byte, px []byte) (kind int8, err error) {
	name := fmt.Sprintf("%s: row %d", r.name, row)
	img, err := normalize.DecodeBytes(name, b)
	if err != nil {
		return 0, &rowError{err.Error()}
	}
	h, w := r.s.h, r.s.w
	if sz := img.Bounds().Size(); sz.X == w && sz.Y == h {
		copy(px, normalize.Ink(img, normalize.InkLight).Pix)
		return 0, nil
	}
	o := r.opts.Normalize
	o.Width, o.Height = w, h
	got, err := normalize.Sample(name, img, o, !r.opts.NoNormalize)
	if errors.Is(err, normalize.ErrEmpty) {
		return 2, nil
	}
	if err != nil {
		return 0, &rowError{err.Error()}
	}
	copy(px, got)
	return 1, nil
}
