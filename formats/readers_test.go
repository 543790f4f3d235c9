package formats_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/export"
	"idxlabel/fixture/mnisttest"
	"idxlabel/formats"
	"idxlabel/idx"
	"idxlabel/sample"
)

// FormatsCheckEnv names the folder where make formats-check installed hyparquet and pngjs with
// npm; the Parquet test against them runs when it is set (and fails, never skips, when node or
// the modules are missing then).
const FormatsCheckEnv = "IDXLABEL_FORMATSCHECK"

// wantFile writes what scripts/formatscheck.mjs compares a Parquet file with: N, H, W, the
// labels (−1 for none), the pixels.
func wantFile(t *testing.T, path string, images, labels *idx.Array) {
	t.Helper()
	n, h, w := images.Dims[0], images.Dims[1], images.Dims[2]
	b := binary.LittleEndian.AppendUint32(nil, uint32(n))
	b = binary.LittleEndian.AppendUint32(b, uint32(h))
	b = binary.LittleEndian.AppendUint32(b, uint32(w))
	for k := range n {
		l := labels.Int(k)
		if l == sample.NoLabel {
			l = -1
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(int32(l)))
	}
	if err := os.WriteFile(path, append(b, images.Data...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// hyparquet (a Parquet reader in JavaScript, written apart from ours) reads our export of
// generated samples and of MNIST's test set: every label, and every pixel of every PNG decoded by
// pngjs, is what we wrote; the huggingface metadata declares an Image and a ClassLabel.
func TestHyparquetReadsOurParquet(t *testing.T) {
	modules := os.Getenv(FormatsCheckEnv)
	if modules == "" {
		t.Skipf("%s is not set: make formats-check installs hyparquet and pngjs with npm and runs this test", FormatsCheckEnv)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatalf("%s is set but node is not installed: %v", FormatsCheckEnv, err)
	}
	script, _ := filepath.Abs("../scripts/formatscheck.mjs")
	check := func(name string, images, labels *idx.Array, names map[int]string, want string) {
		dir := t.TempDir()
		out := filepath.Join(dir, "hub")
		if err := export.WriteParquet(context.Background(), []export.Split{{Name: "train", Set: fromArrays(images, labels, names)}}, out, export.Options{}); err != nil {
			t.Fatal(err)
		}
		wantFile(t, filepath.Join(dir, "want"), images, labels)
		got, err := exec.Command(node, script, modules, filepath.Join(out, export.ParquetFile("train")), filepath.Join(dir, "want")).CombinedOutput()
		if err != nil || string(got) != want+"\n" {
			t.Fatalf("%s: %v\n%s\nwant %s", name, err, got, want)
		}
	}
	images, labels := generated(7, 2500, 28, false)
	check("generated", images, labels, map[int]string{2: "two"}, "ok 2500 28 28 ClassLabel 10")
	images, labels = mnisttest.Load(t)
	check("t10k", images, labels, nil, "ok 10000 28 28 ClassLabel 10")
}

// python returns a python3 that imports numpy, skipping t when there is none (make test installs
// Debian's python3-numpy).
func python(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import numpy").Run() == nil {
			return p
		}
	}
	t.Skip("numpy is not installed (Debian: apt-get install python3-numpy; make test installs it)")
	return ""
}

// numpy reads our Kaggle CSV (numpy.loadtxt) and .npz (numpy.load) exports of generated samples
// and of MNIST's test set to the same pixels and labels.
func TestNumpyReadsOurExports(t *testing.T) {
	py := python(t)
	check := func(name string, images, labels *idx.Array) {
		dir := t.TempDir()
		s := fromArrays(images, labels, nil)
		raw := filepath.Join(dir, "raw")
		wantFile(t, raw, images, labels)
		for _, f := range []export.Format{export.KaggleCSV, export.NPZ} {
			out := filepath.Join(dir, "out."+string(f))
			if err := export.Write(context.Background(), s, out, export.Options{Format: f}); err != nil {
				t.Fatal(err)
			}
			got, err := exec.Command(py, "-c", `import sys, numpy as np
out, raw = sys.argv[1], sys.argv[2]
want = np.fromfile(raw, dtype=np.uint8)
n, h, w = np.frombuffer(want[:12].tobytes(), dtype="<u4")
labels = np.frombuffer(want[12:12 + 4 * n].tobytes(), dtype="<i4")
pixels = want[12 + 4 * n:].reshape(n, h, w)
if out.endswith(".npz"):
    d = np.load(out)
    x, y = d["x"], d["y"]
else:
    header = open(out).readline().strip().split(",")
    try:
        t = np.loadtxt(out, delimiter=",", skiprows=1, dtype=np.int64)
    except ValueError:  # an empty label field (no label): genfromtxt reads it as -1
        t = np.genfromtxt(out, delimiter=",", skip_header=1, dtype=np.int64, filling_values=-1)
    assert header[0] == "label" and header[1] == "pixel0" and header[-1] == "pixel%d" % (h * w - 1), header[:3]
    x, y = t[:, 1:].reshape(n, h, w), t[:, 0]
assert x.shape == (n, h, w), x.shape
assert (x == pixels).all(), "pixels differ"
assert (y == labels).all(), "labels differ"
print("ok", n)`, out, raw).CombinedOutput()
			if err != nil || string(got) != fmt.Sprintf("ok %d\n", images.Dims[0]) {
				t.Fatalf("%s, %s: %v\n%s", name, f, err, got)
			}
		}
	}
	images, labels := generated(3, 700, 28, false)
	check("generated", images, labels)
	if !testing.Short() {
		images, labels = mnisttest.Load(t)
		check("t10k", images, labels)
	}
}

// We read what numpy writes: numpy.save (images only), numpy.savez and numpy.savez_compressed
// (images and labels under our names or Keras' x_train and y_train, int64, uint8 or int32
// labels, big-endian too), to the same pixels and labels.
func TestWeReadNumpyFiles(t *testing.T) {
	py := python(t)
	dir := t.TempDir()
	images, labels := generated(5, 300, 28, false)
	raw := filepath.Join(dir, "raw")
	wantFile(t, raw, images, labels)
	out, err := exec.Command(py, "-c", `import sys, os, numpy as np
d, raw = sys.argv[1], sys.argv[2]
want = np.fromfile(raw, dtype=np.uint8)
n, h, w = np.frombuffer(want[:12].tobytes(), dtype="<u4")
y = np.frombuffer(want[12:12 + 4 * n].tobytes(), dtype="<i4")
x = want[12 + 4 * n:].reshape(n, h, w)
np.save(os.path.join(d, "images.npy"), x)
np.savez(os.path.join(d, "ours.npz"), x=x, y=y.astype(np.int64))
np.savez_compressed(os.path.join(d, "keras.npz"), x_train=x, y_train=y.astype(">i4"), x_test=x[:5], y_test=y[:5])
np.savez(os.path.join(d, "channel.npz"), x=x[:, :, :, None], y=y.astype(np.int16).reshape(-1, 1))
print("written")`, dir, raw).CombinedOutput()
	if err != nil {
		t.Fatalf("numpy: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		file string
		opts formats.Options
	}{
		{"ours.npz", formats.Options{}},
		{"keras.npz", formats.Options{ImagesKey: "x_train", LabelsKey: "y_train"}},
		{"channel.npz", formats.Options{}},
		{"images.npy", formats.Options{}},
	} {
		got, err := formats.Read(context.Background(), filepath.Join(dir, tc.file), tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if !bytes.Equal(got.Images.Data, images.Data) {
			t.Fatalf("%s: pixels differ", tc.file)
		}
		for k := range labels.Len() {
			want := labels.Int(k)
			if strings.HasSuffix(tc.file, ".npy") {
				want = sample.NoLabel
			}
			if got.Labels.Int(k) != want {
				t.Fatalf("%s: label %d is %d, want %d", tc.file, k, got.Labels.Int(k), want)
			}
		}
	}
}
