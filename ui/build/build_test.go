package build

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/fixture/digits"
	"idxlabel/normalize"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/classes"
)

// digitPair writes n generated digits (fixture/digits) as a pair in dir and returns its paths.
func digitPair(t *testing.T, dir string, n int) (string, string) {
	t.Helper()
	images, labels := digits.Load(t, n)
	ip, lp := filepath.Join(dir, "extra-images-idx3-ubyte"), filepath.Join(dir, "extra-labels-idx1-ubyte")
	if err := pairfile.WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// writeDigit writes a generated digit (fixture/digits) as a PNG at path, making its folder.
func writeDigit(t *testing.T, path string) {
	t.Helper()
	images, _ := digits.Load(t, 1)
	img := &image.Gray{Pix: images.Data[:28*28], Stride: 28, Rect: image.Rect(0, 0, 28, 28)}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
}

// Cancelled, the reading of the pair stops with the context's error and returns no samples.
func TestAppendDatasetCancelled(t *testing.T) {
	ip, lp := digitPair(t, t.TempDir(), 10)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := readAppended(ctx, ip, lp, 28, 28, true, func(float64) {})
	if !errors.Is(err, context.Canceled) || got.Samples != nil {
		t.Fatalf("cancelled: %d samples, error %v", len(got.Samples), err)
	}
	if got, err = readAppended(context.Background(), ip, "", 28, 28, true, func(float64) {}); err == nil || !strings.Contains(err.Error(), "no label file") {
		t.Fatalf("images without labels appended to a labelled dataset: %d samples, error %v", len(got.Samples), err)
	}
}

// Every imported sample carries its source: its file's path relative to the folder chosen,
// slash-separated; a file that could not be read is skipped with its reason.
func TestImportSources(t *testing.T) {
	dir := t.TempDir()
	writeDigit(t, filepath.Join(dir, "zero", "in", "a.png"))
	writeDigit(t, filepath.Join(dir, "one", "b.png"))
	os.WriteFile(filepath.Join(dir, "one", "bad.png"), []byte("nope"), 0o644)
	tree, err := normalize.ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := plan{dir: dir, tree: tree, files: tree.Files, opts: normalize.Options{Width: 28, Height: 28}, digit: true}
	samples, skipped := loadImages(context.Background(), p, func(float64) {})
	var got []string
	for _, s := range samples {
		got = append(got, fmt.Sprintf("%d %s", s.Label, s.Source))
	}
	if strings.Join(got, ",") != "0 one/b.png,1 zero/in/a.png" || len(skipped) != 1 || !strings.Contains(skipped[0], "bad.png") {
		t.Fatalf("samples %q, skipped %q", got, skipped)
	}
	if s := sourceOf(dir, "/elsewhere/x.png"); s != "/elsewhere/x.png" {
		t.Fatalf("a path outside the folder: %q", s)
	}
}

// The report counts the first classes one by one and says how many more there are.
func TestPerClassIsBounded(t *testing.T) {
	var samples []store.Sample
	for k := range 1000 {
		samples = append(samples, store.Sample{Label: k})
	}
	got := perClass(samples, classes.Names{}) // classes without names, as the demo's

	if !strings.HasPrefix(got, "class 0: 1, class 1: 1") || !strings.HasSuffix(got, "class 19: 1, … and 980 more classes") {
		t.Fatalf("perClass: %q", got)
	}
}

// The names proposed come from the open pair's.
func TestSplitNames(t *testing.T) {
	for in, want := range map[string][2]string{
		"/d/x-images-idx3-ubyte.gz":              {"x-train", "x-test"},
		"/d/train-images-idx3-ubyte":             {"train-train", "train-test"},
		"/d/emnist-letters-train-images.idx3.gz": {"emnist-letters-train-train", "emnist-letters-train-test"},
	} {
		if a, b := splitNames(in); a != want[0] || b != want[1] {
			t.Errorf("%s: %s, %s; want %v", in, a, b, want)
		}
	}
}

// The dialog's fields read as split's flags: a fraction or a count, the seed, a group column or
// none; a wrong field is refused by name.
func TestSplitOptions(t *testing.T) {
	o, err := splitOptions(" 0.25 ", "7", "", true, false)
	if err != nil || o.Test != 0.25 || o.TestCount != -1 || o.Seed != 7 || o.GroupColumn != -1 || !o.Stratify || o.Shuffle {
		t.Fatalf("0.25, 7, none: %+v %v", o, err)
	}
	o, err = splitOptions("2000", "0", "2", false, true)
	if err != nil || o.TestCount != 2000 || o.GroupColumn != 2 || o.Stratify || !o.Shuffle {
		t.Fatalf("2000, 0, column 2: %+v %v", o, err)
	}
	for _, bad := range [][3]string{{"0", "1", ""}, {"1.5", "1", ""}, {"-3", "1", ""}, {"x", "1", ""}, {"0.2", "-1", ""}, {"0.2", "1", "-1"}, {"0.2", "1", "a"}} {
		if _, err := splitOptions(bad[0], bad[1], bad[2], true, false); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
