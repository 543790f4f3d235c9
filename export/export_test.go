package export

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/csv"
	"errors"
	"idxlabel/sample"
	"image"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gen returns n generated samples of h×w pixels (sample k's pixel p is (k*7+p) mod 256), labels
// k mod 3 with sample 4 unlabelled, named by the numbers 100+k.
func gen(n, h, w int) sample.Set {
	px := make([]byte, n*h*w)
	for i := range px {
		px[i] = byte((i/(h*w))*7 + i%(h*w))
	}
	s := sample.Set{N: n, H: h, W: w, Labels: make([]int, n), Index: make([]int, n)}
	s.Pixels = func(k int) []byte { return px[k*h*w : (k+1)*h*w] }
	for k := range n {
		s.Labels[k], s.Index[k] = k%3, 100+k
	}
	if n > 4 {
		s.Labels[4] = sample.NoLabel
	}
	s.ClassName = func(c int) string { return []string{"zero/nil", "one", "one"}[c] }
	return s
}

// Every PNG decodes to the sample's pixels, in its class's folder, named by its index.
func TestPNGTreeReadsBack(t *testing.T) {
	s := gen(12, 5, 7)
	out := filepath.Join(t.TempDir(), "tree")
	if err := Write(context.Background(), s, out, Options{Format: PNG}); err != nil {
		t.Fatal(err)
	}
	for k := range s.N {
		name := filepath.Join(out, folderName(s, s.Labels[k], false, classWidth(s.Labels)), strconv.Itoa(s.Index[k])+".png")
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		g, ok := img.(*image.Gray)
		if err != nil || !ok || g.Rect.Dx() != 7 || g.Rect.Dy() != 5 || !bytes.Equal(g.Pix, s.Pixels(k)) {
			t.Fatalf("%s: %v %T", name, err, img)
		}
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("the tree's folder: %v %v", fi.Mode(), err)
	}
}

// Class names become safe folder names after the class number, unique even when two names are
// the same; an existing OUT is refused unless Force.
func TestClassNamesAndExistingOut(t *testing.T) {
	s := gen(6, 2, 2)
	out := filepath.Join(t.TempDir(), "tree")
	if err := Write(context.Background(), s, out, Options{Format: PNG, ClassNames: true}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(out)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != Marker+" 0-zero_nil 1-one 2-one unlabelled" {
		t.Fatalf("folders %v", names)
	}
	if err := Write(context.Background(), s, out, Options{Format: PNG}); !errors.Is(err, ErrExists) {
		t.Fatalf("existing OUT: %v", err)
	}
	if err := Write(context.Background(), s, out, Options{Format: PNG, Force: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "0-zero_nil")); !os.IsNotExist(err) {
		t.Fatal("--force left the old tree's folders")
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".tree.idxlabel-export-*"))
	if len(left) != 0 {
		t.Fatalf("temporaries left: %v", left)
	}
}

// A cancelled export leaves nothing behind.
func TestCancelLeavesNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	for _, f := range []Format{PNG, CSV, NPZ} {
		if err := Write(ctx, gen(5000, 4, 4), filepath.Join(dir, "out"), Options{Format: f}); !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: %v", f, err)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

// The CSV parses to the header and one row per sample, labels empty where there is none.
func TestCSVReadsBack(t *testing.T) {
	s := gen(9, 3, 4)
	out := filepath.Join(t.TempDir(), "x.csv")
	if err := Write(context.Background(), s, out, Options{Format: CSV}); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(out)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) != 10 || len(rows[0]) != 13 || rows[0][0] != "label" || rows[0][12] != "pixel11" {
		t.Fatalf("%v rows, header %v", len(rows), rows[0])
	}
	for k, row := range rows[1:] {
		want := strconv.Itoa(s.Labels[k])
		if s.Labels[k] == sample.NoLabel {
			want = ""
		}
		if row[0] != want {
			t.Fatalf("row %d label %q, want %q", k, row[0], want)
		}
		for p, v := range s.Pixels(k) {
			if row[1+p] != strconv.Itoa(int(v)) {
				t.Fatalf("row %d pixel %d: %s, want %d", k, p, row[1+p], v)
			}
		}
	}
}

// readNPY parses a .npy v1.0 file: its header dict and data.
func readNPY(t *testing.T, f *zip.File) (string, []byte) {
	t.Helper()
	r, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r)
	if string(b[:8]) != "\x93NUMPY\x01\x00" {
		t.Fatalf("%s: magic %q", f.Name, b[:8])
	}
	n := int(binary.LittleEndian.Uint16(b[8:]))
	if (10+n)%64 != 0 || b[10+n-1] != '\n' {
		t.Fatalf("%s: header of %d bytes", f.Name, n)
	}
	return strings.TrimSpace(string(b[10 : 10+n])), b[10+n:]
}

// The NPZ holds x (N×H×W uint8) and y (N int64, −1 unlabelled) with valid .npy headers.
func TestNPZReadsBack(t *testing.T) {
	s := gen(9, 3, 4)
	out := filepath.Join(t.TempDir(), "x.npz")
	if err := Write(context.Background(), s, out, Options{Format: NPZ}); err != nil {
		t.Fatal(err)
	}
	z, err := zip.OpenReader(out)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	hx, x := readNPY(t, z.File[0])
	hy, y := readNPY(t, z.File[1])
	if hx != "{'descr': '|u1', 'fortran_order': False, 'shape': (9, 3, 4), }" || hy != "{'descr': '<i8', 'fortran_order': False, 'shape': (9,), }" {
		t.Fatalf("headers %q %q", hx, hy)
	}
	for k := range s.N {
		if !bytes.Equal(x[k*12:(k+1)*12], s.Pixels(k)) {
			t.Fatalf("x[%d]", k)
		}
		want := int64(s.Labels[k])
		if s.Labels[k] == sample.NoLabel {
			want = -1
		}
		if got := int64(binary.LittleEndian.Uint64(y[8*k:])); got != want {
			t.Fatalf("y[%d] = %d, want %d", k, got, want)
		}
	}
}

// numpy.load reads the NPZ (Debian's python3-numpy; skipped with a message where it is absent).
func TestNumpyLoadsNPZ(t *testing.T) {
	py := ""
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import numpy").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		t.Skip("numpy is not installed (Debian: apt-get install python3-numpy); the .npy headers are checked by TestNPZReadsBack")
	}
	s := gen(9, 3, 4)
	out := filepath.Join(t.TempDir(), "x.npz")
	if err := Write(context.Background(), s, out, Options{Format: NPZ}); err != nil {
		t.Fatal(err)
	}
	got, err := exec.Command(py, "-c", `import sys, numpy as np
d = np.load(sys.argv[1]); x, y = d["x"], d["y"]
print(x.dtype, x.shape, y.dtype, y.shape, int(x[8].sum()), y.tolist())`, out).CombinedOutput()
	sum := 0
	for _, v := range s.Pixels(8) {
		sum += int(v)
	}
	want := "uint8 (9, 3, 4) int64 (9,) " + strconv.Itoa(sum) + " [0, 1, 2, 0, -1, 2, 0, 1, 2]\n"
	if err != nil || !strings.HasSuffix(string(got), want) {
		t.Fatalf("numpy.load: %v\n%s\nwant %s", err, got, want)
	}
}

// put creates the files named in files (path relative to root → content) and returns root.
func put(t *testing.T, root string, files map[string]string) string {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// listing returns every path under root (relative, sorted, folders marked "/") with each
// regular file's content, to show that nothing under root changed.
func listing(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case d.Type()&os.ModeSymlink != 0:
			to, _ := os.Readlink(p)
			b.WriteString(rel + " -> " + to + "\n")
		case d.IsDir():
			b.WriteString(rel + "/\n")
		default:
			c, _ := os.ReadFile(p)
			b.WriteString(rel + ": " + string(c) + "\n")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Only an earlier export is replaced: anything else at OUT is refused with or without Force,
// with an error naming OUT and what is in the way, and nothing under OUT's folder changes (no
// temporaries left either). Without Force a replaceable OUT is ErrExists, so the window asks
// "Replace?" only where the answer can be yes.
func TestForceRefusesWhatIsNotAnExport(t *testing.T) {
	s := gen(6, 2, 2)
	for _, c := range []struct {
		name   string
		format Format
		make   func(t *testing.T, out string) // creates what is at out
		says   string                         // in the error
	}{
		{"thesis folder", PNG, func(t *testing.T, out string) {
			put(t, out, map[string]string{"thesis.tex": "mine"})
		}, "thesis.tex"},
		{"empty folder", PNG, func(t *testing.T, out string) { os.Mkdir(out, 0o755) }, "not an idxlabel PNG export"},
		{"ImageFolder dataset of the user's", PNG, func(t *testing.T, out string) {
			put(t, out, map[string]string{"3/0001.png": "a digit I drew", "7/0002.png": "another"})
		}, "not an idxlabel PNG export"},
		{"export without the marker (older idxlabel)", PNG, func(t *testing.T, out string) {
			if err := Write(context.Background(), s, out, Options{Format: PNG}); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(out, Marker))
		}, Marker},
		{"export with a file added at the top", PNG, func(t *testing.T, out string) {
			if err := Write(context.Background(), s, out, Options{Format: PNG}); err != nil {
				t.Fatal(err)
			}
			put(t, out, map[string]string{"notes.txt": "mine"})
		}, "notes.txt"},
		{"export with a file added to a class folder", PNG, func(t *testing.T, out string) {
			if err := Write(context.Background(), s, out, Options{Format: PNG}); err != nil {
				t.Fatal(err)
			}
			put(t, out, map[string]string{"1/mine.png": "mine"})
		}, filepath.Join("1", "mine.png")},
		{"export with a folder added in a class folder", PNG, func(t *testing.T, out string) {
			if err := Write(context.Background(), s, out, Options{Format: PNG}); err != nil {
				t.Fatal(err)
			}
			put(t, out, map[string]string{"1/sub/x": "mine"})
		}, filepath.Join("1", "sub")},
		{"export with a marker that is not ours", PNG, func(t *testing.T, out string) {
			put(t, out, map[string]string{Marker: "something else", "1/101.png": "mine"})
		}, Marker},
		{"symbolic link to an export", PNG, func(t *testing.T, out string) {
			real := filepath.Join(filepath.Dir(out), "real")
			if err := Write(context.Background(), s, real, Options{Format: PNG}); err != nil {
				t.Fatal(err)
			}
			os.Symlink("real", out)
		}, "symbolic link"},
		{"file for a PNG tree", PNG, func(t *testing.T, out string) {
			os.WriteFile(out, []byte("mine"), 0o644)
		}, "a file"},
		{"folder for a CSV", CSV, func(t *testing.T, out string) {
			put(t, out, map[string]string{"thesis.tex": "mine"})
		}, "a folder"},
		{"export folder for an NPZ", NPZ, func(t *testing.T, out string) {
			if err := Write(context.Background(), s, out, Options{Format: PNG}); err != nil {
				t.Fatal(err)
			}
		}, "a folder"},
		{"symbolic link to a file for a CSV", CSV, func(t *testing.T, out string) {
			os.WriteFile(filepath.Join(filepath.Dir(out), "real.csv"), []byte("mine"), 0o644)
			os.Symlink("real.csv", out)
		}, "symbolic link"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			c.make(t, out)
			before := listing(t, dir)
			for _, force := range []bool{false, true} {
				err := Write(context.Background(), s, out, Options{Format: c.format, Force: force})
				if !errors.Is(err, ErrInTheWay) || errors.Is(err, ErrExists) || !strings.Contains(err.Error(), out) || !strings.Contains(err.Error(), c.says) {
					t.Fatalf("Force %v: %v; want ErrInTheWay naming %s and %q", force, err, out, c.says)
				}
				if after := listing(t, dir); after != before {
					t.Fatalf("Force %v changed the folder:\n%s\nwas\n%s", force, after, before)
				}
			}
		})
	}
}

// An earlier export is replaced with Force (and is ErrExists without): a PNG tree by a new tree
// (the old class folders gone), a CSV or NPZ file by the new file; nothing temporary is left.
func TestForceReplacesAnEarlierExport(t *testing.T) {
	s := gen(6, 2, 2)
	for _, f := range []Format{PNG, CSV, NPZ} {
		dir := t.TempDir()
		out := filepath.Join(dir, "out")
		if err := Write(context.Background(), s, out, Options{Format: f, ClassNames: true}); err != nil {
			t.Fatal(err)
		}
		if f != PNG {
			os.WriteFile(out, []byte("an older export"), 0o644)
		}
		if err := Write(context.Background(), s, out, Options{Format: f}); !errors.Is(err, ErrExists) {
			t.Fatalf("%s without Force: %v", f, err)
		}
		if err := Write(context.Background(), s, out, Options{Format: f, Force: true}); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 || entries[0].Name() != "out" {
			t.Fatalf("%s: the folder holds %v", f, entries)
		}
		if f == PNG {
			if got := listing(t, out); !strings.Contains(got, "0/\n") || strings.Contains(got, "zero_nil") || !strings.Contains(got, Marker+": ") {
				t.Fatalf("the replaced tree:\n%s", got)
			}
		} else if b, _ := os.ReadFile(out); string(b) == "an older export" {
			t.Fatalf("%s: not replaced", f)
		}
	}
}

// Something added to an earlier export while the new one is being built is seen when the new
// tree is about to be renamed into place: the export is refused, the earlier export and the
// addition stay, and the new tree is removed.
func TestForceChecksAgainBeforeReplacing(t *testing.T) {
	s := gen(6, 2, 2)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if err := Write(context.Background(), s, out, Options{Format: PNG}); err != nil {
		t.Fatal(err)
	}
	opts := Options{Format: PNG, Force: true, Progress: func(done, total int) {
		if done == total {
			put(t, out, map[string]string{"0/added while exporting.txt": "mine"})
		}
	}}
	if err := Write(context.Background(), s, out, opts); !errors.Is(err, ErrInTheWay) || !strings.Contains(err.Error(), "added while exporting.txt") {
		t.Fatalf("%v", err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "0", "added while exporting.txt")); err != nil || string(b) != "mine" {
		t.Fatalf("the added file: %q %v", b, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}
