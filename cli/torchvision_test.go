package cli

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
)

// loadImageFolder is run by python3: it loads the tree argv[1] with torchvision's
// datasets.ImageFolder and prints one line per sample, "<file name> <class index>": the index
// ds[i] returns, reading each sample through ds[i] (which decodes its PNG) when argv[2] is
// "decode", else from ds.samples (what ds[i] returns as the target, without the decoding).
const loadImageFolder = `
import os, sys
from torchvision import datasets
ds = datasets.ImageFolder(sys.argv[1])
for i, (path, target) in enumerate(ds.samples):
    if sys.argv[2] == "decode":
        img, target = ds[i]
    print(os.path.basename(path), target)
`

// torchvisionPython returns a python3 that imports torchvision, or skips the test saying how to
// install it.
func torchvisionPython(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import torchvision").Run() == nil {
			return p
		}
	}
	t.Skip("torchvision is not installed (Debian: scripts/deps.sh python3-torchvision, or make torchvision); the folder order is checked by export's TestClassFoldersSortInClassOrder")
	return ""
}

// exportLoadsInTorchvision exports the pair with --classes names, loads the tree with
// torchvision's ImageFolder and checks that every sample's torchvision class index is its
// label: the classes must be 0…K−1, each with samples (ImageFolder numbers the folders present).
func exportLoadsInTorchvision(t *testing.T, py, ip, lp string, decode bool) {
	t.Helper()
	tree := filepath.Join(t.TempDir(), "tree")
	if code, _, stderr := runCLI("export", "--classes", "names", ip, lp, tree); code != 0 {
		t.Fatalf("export: exit %d, %s", code, stderr)
	}
	labels, err := idx.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	how := "samples"
	if decode {
		how = "decode"
	}
	cmd := exec.Command(py, "-c", loadImageFolder, tree, how)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("torchvision: %v\n%s", err, stderr.String())
	}
	n := labels.Dims[0]
	seen := make([]bool, n)
	sc := bufio.NewScanner(bytes.NewReader(out))
	count := 0
	for sc.Scan() {
		name, target, ok := strings.Cut(sc.Text(), " ")
		k, err1 := strconv.Atoi(strings.TrimSuffix(name, ".png"))
		got, err2 := strconv.Atoi(target)
		if !ok || err1 != nil || err2 != nil || k < 0 || k >= n || seen[k] {
			t.Fatalf("torchvision printed %q", sc.Text())
		}
		seen[k] = true
		count++
		if want := int(labels.Int(k)); got != want {
			t.Errorf("sample %d (%s): torchvision's class %d, the label %d", k, name, got, want)
		}
	}
	if count != n {
		t.Fatalf("torchvision loaded %d of %d samples", count, n)
	}
}

// The real MNIST test set, its classes named zero … nine (a classes.txt beside the labels, as
// the case: torchvision used to load them as eight = 0 … zero = 9), exported by name
// and loaded with torchvision's ImageFolder: every one of the 10,000 labels is torchvision's
// class index (from its sample list; the other test reads each sample through ds[i]).
func TestExportByNameLoadsInTorchvisionMNIST(t *testing.T) {
	py := torchvisionPython(t)
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "t10k-images-idx3-ubyte.gz"), filepath.Join(dir, "t10k-labels-idx1-ubyte.gz")
	for _, f := range [][2]string{{mnisttest.TestImages, ip}, {mnisttest.TestLabels, lp}} {
		if err := os.Symlink(mnisttest.Path(t, f[0]), f[1]); err != nil {
			t.Fatal(err)
		}
	}
	names := "zero\none\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n"
	if err := os.WriteFile(filepath.Join(dir, "classes.txt"), []byte(names), 0o644); err != nil {
		t.Fatal(err)
	}
	exportLoadsInTorchvision(t, py, ip, lp, false)
}

// 12 classes whose names collide (the same name twice; EMNIST's "A" and "a", which meet on a
// disk that ignores case) and sort out of class order ("10" and "11" before "2" as numbers),
// a blank line in the class-name file: exported by name, loaded with torchvision's
// ImageFolder, every label is torchvision's class index.
func TestExportByNameLoadsInTorchvisionCollisions(t *testing.T) {
	py := torchvisionPython(t)
	dir := t.TempDir()
	n := 60
	images, _ := idx.New(idx.UByte, n, 28, 28)
	labels, _ := idx.New(idx.UByte, n)
	for i := range images.Data {
		images.Data[i] = byte(i * 13)
	}
	for k := range n {
		labels.Data[k] = byte((k * 5) % 12)
	}
	ip, lp := filepath.Join(dir, "c-images-idx3-ubyte"), filepath.Join(dir, "c-labels-idx1-ubyte")
	if err := idx.WriteFile(ip, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	names := "zero\n\ntwo\nA\na\nsame\nsame\nZ\nz\nnine\n10\neleven\n"
	if err := os.WriteFile(lp+".classes.txt", []byte(names), 0o644); err != nil {
		t.Fatal(err)
	}
	exportLoadsInTorchvision(t, py, ip, lp, true)
}
