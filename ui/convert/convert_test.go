package convert

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	stdimage "image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/parquet-go/parquet-go"

	"idxlabel/export"
	"idxlabel/formats"
	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/testhook"
	"idxlabel/ui/widgets"
)

// TestMain sets a locale Fyne can parse and keeps Fyne's preferences out of the home folder.
func TestMain(m *testing.M) {
	os.Setenv("LANG", "en_US.UTF-8")
	dir, err := os.MkdirTemp("", "idxlabel-ui-convert-test")
	if err == nil {
		os.Setenv("XDG_CONFIG_HOME", dir)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// generated returns n samples of 28×28 random pixels with labels (k·7 mod 10), sample 3
// unlabelled when unlabelled is set.
func generated(seed uint64, n int, unlabelled bool) sample.Set {
	rng := rand.New(rand.NewPCG(seed, 2))
	px := make([]byte, n*28*28)
	for i := range px {
		px[i] = byte(rng.IntN(256))
	}
	s := sample.Set{N: n, H: 28, W: 28, Labels: make([]int, n)}
	s.Pixels = func(k int) []byte { return px[k*784 : (k+1)*784] }
	for k := range n {
		s.Labels[k] = (7 * k) % 10
	}
	if unlabelled {
		s.Labels[3] = sample.NoLabel
	}
	return s
}

// written returns the file at path written by export in format f from s: a Parquet file (the
// train split of a Hugging Face folder, its classes named), a Kaggle CSV or an .npz.
func written(t *testing.T, dir string, s sample.Set, f export.Format) string {
	t.Helper()
	opts := export.Options{Format: f, Made: "idxlabel test"}
	if f == export.Parquet {
		s.ClassName = func(c int) string { return "class " + string(rune('a'+c)) }
		out := filepath.Join(dir, "hf")
		if err := export.Write(context.Background(), s, out, opts); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "digits.parquet")
		if err := os.Rename(filepath.Join(out, export.ParquetFile("train")), p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := filepath.Join(dir, "digits."+map[export.Format]string{export.KaggleCSV: "csv", export.NPZ: "npz"}[f])
	if err := export.Write(context.Background(), s, p, opts); err != nil {
		t.Fatal(err)
	}
	return p
}

func sum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// Each format's file, written by the export writers, is written as the IDX pair beside it
// holding its samples and labels exactly (a Parquet ClassLabel's names beside the labels), the
// file itself untouched; a second write is refused while the pair is there, and replaces it
// when told to.
func TestWriteEachFormat(t *testing.T) {
	for _, f := range []export.Format{export.Parquet, export.KaggleCSV, export.NPZ} {
		t.Run(string(f), func(t *testing.T) {
			dir := t.TempDir()
			s := generated(uint64(len(f)), 250, true)
			path := written(t, dir, s, f)
			before := sum(t, path)
			if !Reads(path) || !IsName(path) {
				t.Fatalf("%s: Reads %v, IsName %v", path, Reads(path), IsName(path))
			}
			var told []string
			set, err := Write(context.Background(), path, false, formats.Options{}, func(text string, _ float64) { told = append(told, text) })
			if err != nil {
				t.Fatal(err)
			}
			// The .npz reader reads its arrays whole: it tells nothing until they are read.
			if len(told) < 2 || f != export.NPZ && !strings.HasPrefix(told[0], "Reading digits.") || !strings.HasPrefix(told[len(told)-1], "Writing digits-images") {
				t.Errorf("progress %q", told)
			}
			images, labels, names := Outputs(path)
			if filepath.Base(images) != "digits-images-idx3-ubyte.gz" || filepath.Base(labels) != "digits-labels-idx1-ubyte.gz" {
				t.Fatalf("outputs %s %s", images, labels)
			}
			ia, err := idx.ReadFile(images)
			if err != nil {
				t.Fatal(err)
			}
			la, err := idx.ReadFile(labels)
			if err != nil {
				t.Fatal(err)
			}
			if ia.Dims[0] != 250 || ia.Dims[1] != 28 || ia.Dims[2] != 28 || la.Dims[0] != 250 || set.N() != 250 {
				t.Fatalf("shapes %v %v", ia.Dims, la.Dims)
			}
			for k := range 250 {
				if !bytes.Equal(ia.Data[k*784:(k+1)*784], s.Pixels(k)) {
					t.Fatalf("sample %d's pixels differ", k)
				}
				if got := int(la.Int(k)); got != s.Labels[k] {
					t.Fatalf("sample %d: label %d, want %d", k, got, s.Labels[k])
				}
			}
			_, err = os.Stat(names)
			if (f == export.Parquet) != (err == nil) {
				t.Errorf("class-name file %s: %v", names, err)
			}
			if f == export.Parquet {
				got, err := pairfile.ReadClassNames(names)
				if err != nil || got[2] != "class c" {
					t.Errorf("class names %v %v", got, err)
				}
			}
			if sum(t, path) != before {
				t.Fatal("the file converted was changed")
			}
			if _, err := Write(context.Background(), path, false, formats.Options{}, nil); !errors.Is(err, pairfile.ErrExists) {
				t.Fatalf("a second write without replace: %v", err)
			}
			if _, err := Write(context.Background(), path, true, formats.Options{}, nil); err != nil {
				t.Fatalf("a second write with replace: %v", err)
			}
		})
	}
}

// hostile returns files a person may be handed: a Parquet file whose footer claims 2 GiB, one
// whose second image is not an image, a CSV whose second line has a pixel of 300, and an .npz
// that is a zip of nothing; each with what its error must say beside the file's name.
func hostile(t *testing.T, dir string) map[string]string {
	t.Helper()
	huge := filepath.Join(dir, "huge.parquet")
	b := append([]byte("PAR1"), make([]byte, 64)...)
	b = binary.LittleEndian.AppendUint32(b, 0x7fffffff)
	if err := os.WriteFile(huge, append(b, "PAR1"...), 0o644); err != nil {
		t.Fatal(err)
	}
	type image struct {
		Bytes []byte  `parquet:"bytes,optional"`
		Path  *string `parquet:"path,optional"`
	}
	type row struct {
		Image *image `parquet:"image,optional"`
		Label int64  `parquet:"label"`
	}
	var good bytes.Buffer
	if err := png.Encode(&good, &stdimage.Gray{Pix: generated(9, 1, false).Pixels(0), Stride: 28, Rect: stdimage.Rect(0, 0, 28, 28)}); err != nil {
		t.Fatal(err)
	}
	undecodable := filepath.Join(dir, "undecodable.parquet")
	rows := []row{{Image: &image{Bytes: good.Bytes()}, Label: 1}, {Image: &image{Bytes: []byte("\x89PNG\r\n\x1a\nnot the rest of a PNG")}, Label: 2}}
	if err := parquet.WriteFile(undecodable, rows); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "badrow.csv")
	var c strings.Builder
	c.WriteString("label")
	for i := range 784 {
		c.WriteString(",pixel" + strconv.Itoa(i))
	}
	for _, v := range []string{"0", "300"} {
		c.WriteString("\n1")
		for range 784 {
			c.WriteString("," + v)
		}
	}
	if err := os.WriteFile(csv, []byte(c.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.npz")
	if err := os.WriteFile(empty, []byte("PK\x05\x06"+strings.Repeat("\x00", 18)), 0o644); err != nil {
		t.Fatal(err)
	}
	return map[string]string{huge: "footer", undecodable: "row 1", csv: "line 3", empty: "x"}
}

// Bad input gets an error naming the file (and the row or line where there is one), never a
// panic, and leaves no pair.
func TestWriteHostile(t *testing.T) {
	dir := t.TempDir()
	for path, what := range hostile(t, dir) {
		_, err := Write(context.Background(), path, false, formats.Options{}, nil)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), what) {
			t.Errorf("%s: error %v, want one naming the file and %q", filepath.Base(path), err, what)
		}
		images, labels, _ := Outputs(path)
		for _, p := range []string{images, labels} {
			if _, err := os.Lstat(p); err == nil {
				t.Errorf("%s: %s written", filepath.Base(path), p)
			}
		}
	}
}

// Cancelled, the conversion writes nothing.
func TestWriteCancelled(t *testing.T) {
	dir := t.TempDir()
	path := written(t, dir, generated(4, 100, false), export.KaggleCSV)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Write(ctx, path, false, formats.Options{}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	images, labels, _ := Outputs(path)
	for _, p := range []string{images, labels} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s written", p)
		}
	}
}

// host records what the converter asks of the window.
type host struct {
	opened [][2]string
	said   []string
}

func (h *host) OpenPair(images, labels string) {
	h.opened = append(h.opened, [2]string{images, labels})
}

func (h *host) Say(text string) {
	h.said = append(h.said, text)
}

// Release runs then at once: the test's window shows no pair.
func (h *host) Release(images string, then func()) { then() }

// testConverter makes a converter in a headless window, with its jobs and dialogs. The test's
// goroutine is the UI thread: what the jobs schedule waits in ui until run (idle).
func testConverter(t *testing.T) (*Converter, *host, *jobs.Jobs, *dialogs.Dialogs, chan func()) {
	t.Helper()
	a := test.NewTempApp(t)
	win := a.NewWindow("test")
	win.Resize(fyne.NewSize(1280, 820))
	t.Cleanup(win.Close)
	ui := make(chan func(), 1000)
	j := jobs.New(func(f func()) { ui <- f }, nil)
	d := dialogs.New(win, a.Preferences(), nil, nil)
	h := &host{}
	return New(h, j, d, win), h, j, d, ui
}

// idle runs what the jobs schedule on the UI thread until no job of j runs.
func idle(t *testing.T, j *jobs.Jobs, ui chan func()) {
	t.Helper()
	for j.Running() > 0 {
		select {
		case f := <-ui:
			f()
		case <-time.After(time.Minute):
			t.Fatal("the conversion did not end")
		}
	}
}

// Open in the window: the file is converted and its pair opened; opened again, the window asks
// (Enter opens the pair there, no conversion); a hostile file is an error on screen naming it,
// and nothing opens.
func TestOpenInWindow(t *testing.T) {
	dir := t.TempDir()
	path := written(t, dir, generated(5, 120, false), export.NPZ)
	c, h, j, d, ui := testConverter(t)
	c.Open(path)
	idle(t, j, ui)
	images, labels, _ := Outputs(path)
	if len(h.opened) != 1 || h.opened[0] != [2]string{images, labels} {
		t.Fatalf("opened %v", h.opened)
	}
	if _, open := d.Top(); open {
		t.Fatal("a prompt stays open after the conversion")
	}
	stamp := sum(t, labels)
	c.Open(path)
	if key, _ := d.Top(); key != "convert exists" {
		t.Fatalf("opened again: prompt %q", key)
	}
	if !d.Key(&fyne.KeyEvent{Name: fyne.KeyReturn}) {
		t.Fatal("Enter was not taken by the question")
	}
	idle(t, j, ui)
	if len(h.opened) != 2 || h.opened[1] != [2]string{images, labels} || sum(t, labels) != stamp {
		t.Fatalf("Enter on the question: opened %v", h.opened)
	}
	for bad, what := range hostile(t, t.TempDir()) {
		c.Open(bad)
		idle(t, j, ui)
		key, _ := d.Top()
		if !strings.HasPrefix(key, "error: ") || !strings.Contains(key, bad) || !strings.Contains(key, what) {
			t.Errorf("%s: prompt %q (open: %q)", filepath.Base(bad), key, d.Open())
		}
		d.Key(&fyne.KeyEvent{Name: fyne.KeyEscape})
	}
	if len(h.opened) != 2 {
		t.Fatalf("a hostile file opened: %v", h.opened)
	}
}

// The progress dialog's Cancel button stops the conversion: nothing is written or opened, and
// the status bar says so.
func TestCancelButton(t *testing.T) {
	dir := t.TempDir()
	path := written(t, dir, generated(6, 50, false), export.KaggleCSV)
	t.Setenv(testhook.ConvertGate, filepath.Join(dir, "never")) // the job waits until cancelled
	c, h, j, d, ui := testConverter(t)
	c.Open(path)
	if key, _ := d.Top(); key != "convert" {
		t.Fatalf("no progress dialog: prompt %q", key)
	}
	var cancel *widgets.PassingButton
	walk(c.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if b, ok := o.(*widgets.PassingButton); ok && b.Text == "Cancel" {
			cancel = b
		}
	})
	if cancel == nil {
		t.Fatal("the progress dialog has no Cancel button")
	}
	test.Tap(cancel)
	idle(t, j, ui)
	images, labels, _ := Outputs(path)
	for _, p := range []string{images, labels} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s written", p)
		}
	}
	if len(h.opened) != 0 || len(h.said) != 1 || !strings.Contains(h.said[0], "cancelled") {
		t.Fatalf("opened %v, said %q", h.opened, h.said)
	}
}

// walk visits o and everything in it, depth first.
func walk(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	visit(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			walk(c, visit)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			walk(c, visit)
		}
	}
}
