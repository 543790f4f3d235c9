package export

import (
	"bytes"
	"context"
	"fmt"
	"idxlabel/internal/atomicfile"
	"image"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"

	"github.com/parquet-go/parquet-go"

	"idxlabel/formats"
	"idxlabel/sample"
)

// A Hugging Face export is a folder as the datasets library's push_to_hub leaves a dataset on
// the hub: OUT/data/<split>-00000-of-00001.parquet per split and OUT/README.md, the dataset
// card (card.go). Each Parquet file has the columns the library writes for an image
// classification split, image (a struct of bytes, the PNG file, and path, null) and label
// (int64, −1 for no label), and the features in its "huggingface" key-value metadata
// (formats.HFMetadata), so datasets.load_dataset(OUT) gives Image and ClassLabel features.

// Split is one split of a Parquet export: its name ("train", "test"; letters, digits and
// underscores, as the hub's split names), its samples, and the files they were read from,
// named in the dataset card with their SHA-256.
type Split struct {
	Name    string
	Set     sample.Set
	Sources []string
}

// HubMarker is the file a Parquet export's folder holds (OUT/.idxlabel-export, holding
// HubMarkerText), so that an export replaces only an earlier one.
const (
	HubMarker     = Marker
	HubMarkerText = "idxlabel export: a Hugging Face dataset (data/*.parquet and README.md) written by idxlabel; `idxlabel export --force` replaces this folder whole.\n"
)

// RowGroupRows is the most samples a row group of an exported Parquet file holds; a group also
// ends once its images reach rowGroupBytes. The datasets library writes 100 rows a group for
// images (for its viewer's random access to photos); digits are a few hundred bytes each, so
// 1,000 keeps the footer small (70,000 samples: 70 groups) while a group stays well under a
// megabyte.
const RowGroupRows = 1000

// rowGroupBytes ends a row group early when its PNG files reach 32 MiB (large images).
const rowGroupBytes = 32 << 20

// splitName is what a split may be called: the hub's rule (word characters) kept to ASCII.
var splitName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// hfImage and hfRow are a row as the datasets library writes it.
type hfImage struct {
	Bytes []byte  `parquet:"bytes,optional,plain"`
	Path  *string `parquet:"path,optional"`
}

type hfRow struct {
	Image *hfImage `parquet:"image,optional"`
	Label *int64   `parquet:"label,optional"`
}

// ParquetFile returns the name, in OUT, of split's Parquet file: data/<split>-00000-of-00001.parquet
// (the hub's naming of a split in one shard).
func ParquetFile(split string) string {
	return filepath.Join("data", split+"-00000-of-00001.parquet")
}

// WriteParquet writes splits as a Hugging Face dataset into the folder out: a Parquet file per
// split (ParquetFile) and the dataset card README.md (WriteCard's content, naming opts.Made and
// each source's SHA-256). The folder is built beside out and renamed into place at the end, so a
// failed or cancelled export leaves nothing; an existing out is replaced only with opts.Force and
// only when it is an earlier Parquet export (its HubMarker file, README.md and data/*.parquet,
// nothing else) or an empty folder. Pixels are the samples as shown (sample.Set.Shown, EMNIST
// upright), each an 8-bit grey PNG. Errors: no splits, a split name that is not letters, digits
// and underscores or is given twice, splits of different sizes, ErrInTheWay, ErrExists, the
// context's error, a source that cannot be read, and any write error.
func WriteParquet(ctx context.Context, splits []Split, out string, opts Options) error {
	if opts.Progress == nil {
		opts.Progress = func(int, int) {}
	}
	if len(splits) == 0 {
		return fmt.Errorf("export: no split to write")
	}
	seen := map[string]bool{}
	total := 0
	for _, sp := range splits {
		if !splitName.MatchString(sp.Name) {
			return fmt.Errorf("export: split name %q: letters, digits and underscores only (train, test, validation)", sp.Name)
		}
		if seen[sp.Name] {
			return fmt.Errorf("export: split %q given twice", sp.Name)
		}
		seen[sp.Name] = true
		s := sp.Set
		if s.N < 0 || s.H < 1 || s.W < 1 || len(s.Labels) != s.N {
			return fmt.Errorf("export: split %s: %d samples of %d×%d with %d labels", sp.Name, s.N, s.H, s.W, len(s.Labels))
		}
		h, w := s.ShownSize()
		if h0, w0 := splits[0].Set.ShownSize(); h != h0 || w != w0 {
			return fmt.Errorf("export: split %s holds %d×%d samples, split %s %d×%d: a dataset's splits have one size", sp.Name, w, h, splits[0].Name, w0, h0)
		}
		total += s.N
	}
	out = filepath.Clean(out)
	if err := checkHubOut(out, opts.Force); err != nil {
		return err
	}
	recoverHub(out)
	card, err := newCard(splits, opts.Made)
	if err != nil {
		return err
	}
	meta := formats.HFMetadata(card.className, card.classes, card.classLabel)
	fo := folderOutput{what: "the Parquet export", marker: HubMarker, markerText: HubMarkerText, place: hubPlace,
		replaceable: folderReplaceable, find: hubTree}
	return fo.write(ctx, out, func(tmp string) error {
		if err := os.Mkdir(filepath.Join(tmp, "data"), 0o755); err != nil {
			return err
		}
		done := 0
		for i, sp := range splits {
			name := filepath.Join(tmp, ParquetFile(sp.Name))
			f, err := os.Create(name)
			if err != nil {
				return err
			}
			n, err := writeSplit(ctx, f, sp.Set, meta, opts.Made, func(k int) { opts.Progress(done+k, total) })
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
			card.splits[i].bytes = n
			done += sp.Set.N
		}
		return atomicfile.WriteNew(filepath.Join(tmp, "README.md"), []byte(card.text()))
	})
}

// writeSplit writes one split's Parquet file to w: rows of RowGroupRows (or rowGroupBytes of
// PNG files), Snappy-compressed as pyarrow writes by default, with the features' metadata. The
// PNG files are encoded by one goroutine per CPU, a row group at a time. It returns the bytes
// of image and label data (the card's num_bytes). progress gets the samples written.
func writeSplit(ctx context.Context, w io.Writer, s sample.Set, meta, made string, progress func(int)) (int64, error) {
	app, version, _ := strings.Cut(made, " ")
	pw := parquet.NewGenericWriter[hfRow](w, parquet.Compression(&parquet.Snappy),
		parquet.KeyValueMetadata(formats.HFMetadataKey, meta), parquet.CreatedBy(app, version, ""))
	h, wd := s.ShownSize()
	var size int64
	rows := make([]hfRow, 0, RowGroupRows)
	labels := make([]int64, RowGroupRows)
	for k0 := 0; k0 < s.N; k0 += RowGroupRows {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		k1 := min(s.N, k0+RowGroupRows)
		pngs, err := encodePNGs(s, k0, k1, h, wd)
		if err != nil {
			return 0, err
		}
		rows, held := rows[:0], 0
		for k := k0; k < k1; k++ {
			labels[k-k0] = int64(s.Labels[k])
			if s.Labels[k] == sample.NoLabel {
				labels[k-k0] = -1
			}
			rows = append(rows, hfRow{Image: &hfImage{Bytes: pngs[k-k0]}, Label: &labels[k-k0]})
			size += int64(len(pngs[k-k0])) + 8
			if held += len(pngs[k-k0]); held >= rowGroupBytes || k == k1-1 {
				if _, err := pw.Write(rows); err != nil {
					return 0, err
				}
				if err := pw.Flush(); err != nil {
					return 0, err
				}
				rows, held = rows[:0], 0
			}
		}
		progress(k1)
	}
	return size, pw.Close()
}

// encodePNGs encodes samples k0…k1−1 (shown h×w) as 8-bit grey PNG files, in parallel.
func encodePNGs(s sample.Set, k0, k1, h, w int) ([][]byte, error) {
	out := make([][]byte, k1-k0)
	errs := make([]error, k1-k0)
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.NumCPU(), k1-k0) {
		wg.Go(func() {
			var enc png.Encoder
			var buf []byte
			for k := range next {
				buf = s.Shown(k, buf[:0])
				var b bytes.Buffer
				errs[k-k0] = enc.Encode(&b, &image.Gray{Pix: buf, Stride: w, Rect: image.Rect(0, 0, w, h)})
				out[k-k0] = b.Bytes()
			}
		})
	}
	for k := k0; k < k1; k++ {
		next <- k
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// hubPlace returns where WriteParquet builds out: its parent folder and the prefix of its
// temporary folders, ".<name>.idxlabel-hub-".
func hubPlace(out string) (parent, pattern string) {
	return filepath.Dir(out), "." + filepath.Base(out) + ".idxlabel-hub-"
}

// CheckParquetOut returns an error wrapping ErrInTheWay when something is at out that
// WriteParquet would refuse to replace even with Options.Force: anything but an earlier Parquet
// export or an empty folder. Errors: ErrInTheWay (wrapped, naming out and what is there),
// Lstat's error.
func CheckParquetOut(out string) error {
	return checkHubOut(filepath.Clean(out), true)
}

// checkHubOut is WriteParquet's rule for out: nothing there, an empty folder, or (with force)
// an earlier Parquet export. Errors: ErrInTheWay for anything else; ErrExists (wrapped) for an
// earlier export without force.
func checkHubOut(out string, force bool) error {
	fi, err := os.Lstat(out)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	if err := folderReplaceable(out, fi); err != nil {
		return err
	}
	t, err := hubTree(out, out)
	if err != nil {
		return err
	}
	if len(t.samples) > 0 && !force {
		return fmt.Errorf("%s: %w", out, ErrExists)
	}
	return nil
}

// hubTree checks that dir is empty or an earlier Parquet export: a folder (not a link) holding
// the HubMarker file with HubMarkerText, README.md and a folder data holding only regular
// .parquet files, nothing else; and returns what it holds (its files as samples, data as its
// one class folder, for tree.remove). Errors name what is in the way by its path under name
// (wrapping ErrInTheWay), or are a read error.
func hubTree(dir, name string) (*tree, error) {
	fi, entries, err := listFolder(dir, name)
	if err != nil {
		return nil, err
	}
	t := &tree{dir: dir, fi: fi}
	if len(entries) == 0 {
		return t, nil
	}
	if !hasMarkerText(filepath.Join(dir, HubMarker), HubMarkerText) {
		return nil, inTheWay(name, fmt.Sprintf("a folder that is not an idxlabel Parquet export (it has no %s file of one; it holds %q)", HubMarker, entries[0].Name()))
	}
	foreign := func(rel string) error {
		return inTheWay(name, "an earlier export with something added: "+filepath.Join(name, rel))
	}
	for _, e := range entries {
		switch n := e.Name(); {
		case n == HubMarker:
		case n == "README.md" && e.Type().IsRegular():
			t.samples = append(t.samples, n)
		case n == "data" && e.Type() == fs.ModeDir:
			files, err := os.ReadDir(filepath.Join(dir, n))
			if err != nil {
				return nil, err
			}
			for _, f := range files {
				if !f.Type().IsRegular() || !strings.HasSuffix(f.Name(), ".parquet") {
					return nil, foreign(filepath.Join(n, f.Name()))
				}
				t.samples = append(t.samples, filepath.Join(n, f.Name()))
			}
			t.classes = append(t.classes, n)
		default:
			return nil, foreign(n)
		}
	}
	return t, nil
}

// recoverHub removes what earlier Parquet exports of out that were killed midway left beside
// it (recoverFolders, by hubPlace's names and hubTree's rule).
func recoverHub(out string) { recoverFolders(out, hubPlace, HubMarker, hubTree) }
