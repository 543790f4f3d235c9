package store

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
	"idxlabel/pairfile"
)

// copyPair writes an n-sample MNIST-shaped pair made here (genArrays: no real file needed, so
// the tests of what store promises never skip) into a temporary folder (raw or gzip), named as
// t10k is, and returns the paths.
func copyPair(t testing.TB, n int, gz bool) (string, string) {
	t.Helper()
	return writeMNISTPair(t, t.TempDir(), n, gz)
}

// writeMNISTPair writes an n-sample pair of genArrays into dir, named as t10k is.
func writeMNISTPair(t testing.TB, dir string, n int, gz bool) (string, string) {
	t.Helper()
	images, labels := genArrays(n)
	suffix := ""
	if gz {
		suffix = ".gz"
	}
	ip := filepath.Join(dir, "t10k-images-idx3-ubyte"+suffix)
	lp := filepath.Join(dir, "t10k-labels-idx1-ubyte"+suffix)
	if err := idx.WriteFile(ip, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// genArrays returns an n-sample set shaped as MNIST's, the same for the same n: n×28×28 ubyte
// images, each three strokes of grey levels at places of its own on a background of 0 (as a
// digit's ink covers a fifth of its field), and n ubyte labels, t10k's first ten in turn (7 2 1 0
// 4 1 4 9 5 9).
func genArrays(n int) (images, labels *idx.Array) {
	images, _ = idx.New(idx.UByte, n, 28, 28)
	labels, _ = idx.New(idx.UByte, n)
	first := []byte{7, 2, 1, 0, 4, 1, 4, 9, 5, 9}
	rng := rand.New(rand.NewPCG(uint64(n), 28))
	for i := range n {
		labels.Data[i] = first[i%10]
		px := images.Data[i*784 : (i+1)*784]
		for range 3 {
			y, x := 4+rng.IntN(20), 4+rng.IntN(20)
			dy, dx := rng.IntN(3)-1, rng.IntN(3)-1
			for k := range 8 {
				yy, xx := y+k*dy, x+k*dx
				if yy >= 0 && yy < 28 && xx >= 0 && xx < 28 {
					px[yy*28+xx] = byte(128 + rng.IntN(128))
				}
			}
		}
	}
	return images, labels
}

// realCopy copies the real MNIST files named into a temporary folder and returns their paths
// there: a test that opens them for editing takes their locks beside them, which must not depend
// on (or block) whoever else has the shared files open.
func realCopy(t testing.TB, names ...string) []string {
	t.Helper()
	dir := t.TempDir()
	var out []string
	for _, n := range names {
		b, err := os.ReadFile(mnisttest.Path(t, n))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func TestOpenRealPair(t *testing.T) {
	pair := realCopy(t, mnisttest.TestImages, mnisttest.TestLabels)
	d, err := Open(pair[0], pair[1], Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if d.Len() != 10000 || !d.HasLabels() || d.Transposed() {
		t.Fatalf("Len %d, HasLabels %v, Transposed %v", d.Len(), d.HasLabels(), d.Transposed())
	}
	if h, w := d.Size(); h != 28 || w != 28 {
		t.Fatalf("size %d×%d", h, w)
	}
	first := []int{7, 2, 1, 0, 4, 1, 4, 9, 5, 9}
	for i, want := range first {
		if d.Label(i) != want || d.OriginalLabel(i) != want {
			t.Fatalf("label %d = %d", i, d.Label(i))
		}
	}
	if !slices.Equal(d.Classes(), []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) {
		t.Fatalf("classes %v", d.Classes())
	}
	counts := d.Counts()
	if len(counts) != 10 || counts[1].Count != 1135 || counts[5].Count != 892 {
		t.Fatalf("counts %v", counts)
	}
	// Views, not copies: two calls return the same memory.
	a, b := d.Pixels(3), d.Pixels(3)
	if &a[0] != &b[0] || len(a) != 784 {
		t.Fatal("Pixels does not return a view of the one buffer")
	}
	if d.Recovery() != nil || d.Dirty() {
		t.Fatal("a fresh open has a recovery or is dirty")
	}
}

func TestOpenCountMismatchNamesBothFiles(t *testing.T) {
	pair := realCopy(t, mnisttest.TestImages, mnisttest.TrainLabels)
	images, labels := pair[0], pair[1]
	_, err := Open(images, labels, Options{})
	want := labels + " has 60000 labels, but " + images + " has 10000 images: the counts must match"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// The refusal of TestOpenCountMismatchNamesBothFiles on a pair made here, so that it runs where
// the real files are not: 100 images, 600 labels.
func TestOpenCountMismatchNamesBothFilesGenerated(t *testing.T) {
	dir := t.TempDir()
	images, _ := writeMNISTPair(t, dir, 100, true)
	_, labels := writeMNISTPair(t, t.TempDir(), 600, true)
	_, err := Open(images, labels, Options{})
	want := labels + " has 600 labels, but " + images + " has 100 images: the counts must match"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

func TestOpenMalformedNamesFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad-images-idx3-ubyte")
	os.WriteFile(bad, []byte{0, 0, 8, 3, 0, 0, 0, 9, 0, 0, 0, 28, 0, 0, 0, 28, 1, 2}, 0o644)
	_, err := Open(bad, "", Options{})
	if !errors.Is(err, idx.ErrTruncated) || !strings.HasPrefix(err.Error(), bad+": ") {
		t.Fatalf("got %v", err)
	}
}

func TestRelabelSaveRoundTrip(t *testing.T) {
	for _, gz := range []bool{false, true} {
		ip, lp := copyPair(t, 10000, gz)
		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Relabel([]int{0, 5, 9999}, 3); err != nil {
			t.Fatal(err)
		}
		if err := d.Delete([]int{1, 2}); err != nil {
			t.Fatal(err)
		}
		px := make([]byte, 784)
		px[400] = 255
		if _, err := d.Append([]Sample{{Pixels: px, Label: 8}}); err != nil {
			t.Fatal(err)
		}
		if !d.Dirty() || d.Len() != 10001 {
			t.Fatalf("dirty %v len %d", d.Dirty(), d.Len())
		}
		if _, err := os.Stat(lp + pairfile.JournalSuffix); err != nil {
			t.Fatalf("no journal beside the labels: %v", err)
		}
		var steps []float64
		if err := d.Save(func(f float64) { steps = append(steps, f) }); err != nil {
			t.Fatal(err)
		}
		if steps[len(steps)-1] != 1 || !slices.IsSorted(steps) {
			t.Fatalf("progress %v", steps)
		}
		if _, err := os.Stat(lp + pairfile.JournalSuffix); !os.IsNotExist(err) {
			t.Fatal("the journal survived the save")
		}
		// Saved, but what changed since opening stays visible: sample 0 was 7 in the t10k file.
		if d.Dirty() || d.Len() != 9999 || d.Label(0) != 3 || !d.State(0).Edited || d.State(0).Original != 7 || !d.State(9998).Added {
			t.Fatalf("after save: dirty %v len %d label %d state %+v", d.Dirty(), d.Len(), d.Label(0), d.State(0))
		}
		if c := d.Counters(); c.Relabelled != 0 || c.Appended != 0 || c.Edited != 3 || c.Added != 1 {
			t.Fatalf("after save: counters %+v", c)
		}
		images, _ := idx.ReadFile(ip)
		labels, _ := idx.ReadFile(lp)
		if isGz, _ := idx.IsGzipFile(ip); isGz != gz {
			t.Fatalf("gzip %v, want %v", isGz, gz)
		}
		orig, origLabels := genArrays(10000)
		want := bytes.Clone(origLabels.Data)
		want[0], want[5], want[9999] = 3, 3, 3
		want = append(slices.Delete(want, 1, 3), 8)
		if !bytes.Equal(labels.Data, want) {
			t.Fatalf("saved labels %v… differ from the edits", labels.Data[:8])
		}
		if !bytes.Equal(images.Data[784:2*784], orig.Data[3*784:4*784]) || !bytes.Equal(images.Data[9998*784:], px) {
			t.Fatal("saved images are not the kept samples in order plus the new one")
		}
		d.Close()
	}
}

// skipShort skips a test that takes seconds (a property test of many random steps, the crash
// tests' kills) under go test -short, the fast inner loop; make test runs it.
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("takes seconds: run without -short (make test does)")
	}
}
