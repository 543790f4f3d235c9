package export

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/csv"
	"errors"
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
func gen(n, h, w int) Samples {
	px := make([]byte, n*h*w)
	for i := range px {
		px[i] = byte((i/(h*w))*7 + i%(h*w))
	}
	s := Samples{N: n, H: h, W: w, Labels: make([]int, n), Index: make([]int, n)}
	s.Pixels = func(k int) []byte { return px[k*h*w : (k+1)*h*w] }
	for k := range n {
		s.Labels[k], s.Index[k] = k%3, 100+k
	}
	if n > 4 {
		s.Labels[4] = NoLabel
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
		name := filepath.Join(out, folderName(s, s.Labels[k], false), strconv.Itoa(s.Index[k])+".png")
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

// Class names become safe, unique folder names; an existing OUT is refused unless Force.
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
	if strings.Join(names, " ") != "one one-2 unlabelled zero_nil" {
		t.Fatalf("folders %v", names)
	}
	if err := Write(context.Background(), s, out, Options{Format: PNG}); !errors.Is(err, ErrExists) {
		t.Fatalf("existing OUT: %v", err)
	}
	if err := Write(context.Background(), s, out, Options{Format: PNG, Force: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "zero_nil")); !os.IsNotExist(err) {
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
		if s.Labels[k] == NoLabel {
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
		if s.Labels[k] == NoLabel {
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
