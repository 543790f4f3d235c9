package store

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

func write(t *testing.T, p string, a *idx.Array) string {
	t.Helper()
	if err := idx.WriteFile(p, a); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestQMNISTLabelsKeepTheirOtherColumns(t *testing.T) {
	dir := t.TempDir()
	images, _ := idx.New(idx.UByte, 3, 28, 28)
	labels, _ := idx.New(idx.Int32, 3, 8)
	for i := range 24 {
		labels.SetInt(i, int64(100+i))
	}
	for i := range 3 {
		labels.SetInt(i*8, int64(i)) // column 0: the class
	}
	ip := write(t, filepath.Join(dir, "qmnist-test-images-idx3-ubyte"), images)
	lp := write(t, filepath.Join(dir, "qmnist-test-labels-idx2-int"), labels)
	if got := pairfile.FindLabels(ip); got != lp {
		t.Fatalf("FindLabels found %q", got)
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Label(2) != 2 || !slices.Equal(d.Classes(), []int{0, 1, 2}) {
		t.Fatalf("label %d classes %v", d.Label(2), d.Classes())
	}
	d.Relabel([]int{1}, 9)
	d.Append([]Sample{{Pixels: make([]byte, 784), Label: 4}})
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	got, _ := idx.ReadFile(lp)
	if got.Header.String() != "0x00000c02 int32 4×8" {
		t.Fatalf("saved labels %s", got.Header)
	}
	want := []int64{0, 101, 102, 103, 104, 105, 106, 107, 9, 109, 110, 111, 112, 113, 114, 115, 2, 117, 118, 119, 120, 121, 122, 123, 4, 0, 0, 0, 0, 0, 0, 0}
	if !slices.Equal(got.Ints(), want) {
		t.Fatalf("saved %v", got.Ints())
	}
	d.Close()
}

func TestFloatImagesKeepValuesAndMapAppended(t *testing.T) {
	dir := t.TempDir()
	images, _ := idx.New(idx.Float32, 2, 2, 2)
	vals := []float64{0, 0.5, 1, 0.25, 0.125, 0.75, 1, 0}
	for i, v := range vals {
		images.SetFloat(i, v)
	}
	labels, _ := idx.New(idx.UByte, 2)
	ip := write(t, filepath.Join(dir, "f-images-idx3-float"), images)
	lp := write(t, filepath.Join(dir, "f-labels-idx1-ubyte"), labels)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Pixels(0), []byte{0, 128, 255, 64}) {
		t.Fatalf("display pixels %v", d.Pixels(0))
	}
	d.Append([]Sample{{Pixels: []byte{255, 0, 51, 0}, Label: 1}})
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	got, _ := idx.ReadFile(ip)
	if got.Type != idx.Float32 || !slices.Equal(got.Floats(), append(vals, 1, 0, float64(float32(0.2)), 0)) {
		t.Fatalf("saved %s %v", got.Header, got.Floats())
	}
	d.Close()
}

func TestFlatImagesAndTransposedEMNIST(t *testing.T) {
	dir := t.TempDir()
	flat, _ := idx.New(idx.UByte, 2, 6)
	if _, err := Open(write(t, filepath.Join(dir, "flat"), flat), "", Options{}); err == nil || !strings.Contains(err.Error(), "not a perfect square") {
		t.Fatalf("6 pixels per sample: %v", err)
	}
	d, err := Open(filepath.Join(dir, "flat"), "", Options{Height: 2, Width: 3})
	if err != nil {
		t.Fatal(err)
	}
	if h, w := d.Size(); h != 2 || w != 3 {
		t.Fatalf("size %d×%d", h, w)
	}
	d.Close()

	em, _ := idx.New(idx.UByte, 1, 2, 3)
	lab, _ := idx.New(idx.UByte, 1)
	lab.Data[0] = 1
	ip := write(t, filepath.Join(dir, "emnist-letters-train-images-idx3-ubyte"), em)
	lp := write(t, filepath.Join(dir, "emnist-letters-train-labels-idx1-ubyte"), lab)
	// EMNIST letters' mapping: label, upper-case code point, lower-case code point.
	os.WriteFile(filepath.Join(dir, "emnist-letters-mapping.txt"), []byte("1 65 97\n2 66 98\n"), 0o644)
	e, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !e.Transposed() || e.ClassName(1) != "Aa" || e.ClassName(2) != "Bb" || !slices.Equal(e.Classes(), []int{1, 2}) {
		t.Fatalf("transposed %v names %q %q classes %v", e.Transposed(), e.ClassName(1), e.ClassName(2), e.Classes())
	}
	if h, w := e.Size(); h != 3 || w != 2 {
		t.Fatalf("displayed size %d×%d, want 3×2 (transposed 2×3)", h, w)
	}
	// A sample drawn as displayed (3 rows × 2 cols) is stored transposed (2 rows × 3 cols).
	e.Append([]Sample{{Pixels: []byte{1, 2, 3, 4, 5, 6}, Label: 2}})
	if !bytes.Equal(e.Pixels(1), []byte{1, 3, 5, 2, 4, 6}) {
		t.Fatalf("stored %v", e.Pixels(1))
	}
	e.Close()
}

func TestClassNameFormats(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "classes.txt")
	os.WriteFile(p, []byte("T-shirt/top\nTrouser\nPullover\n"), 0o644)
	names, err := pairfile.ReadClassNames(p)
	if err != nil || names[0] != "T-shirt/top" || names[2] != "Pullover" {
		t.Fatalf("one name per line: %v %v", names, err)
	}
	os.WriteFile(p, []byte("index,codepoint,char\n0,12362,お\n1,12365,き\n"), 0o644)
	names, err = pairfile.ReadClassNames(p)
	if err != nil || names[0] != "お" || names[1] != "き" {
		t.Fatalf("KMNIST classmap: %v %v", names, err)
	}
	os.WriteFile(p, []byte("0 48\n10 65\n"), 0o644)
	names, err = pairfile.ReadClassNames(p)
	if err != nil || names[0] != "0" || names[10] != "A" {
		t.Fatalf("EMNIST balanced mapping: %v %v", names, err)
	}
	os.WriteFile(p, []byte("0 48\n10 sixty-five\n"), 0o644)
	if _, err = pairfile.ReadClassNames(p); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("bad mapping line: %v", err)
	}
}

func TestUnlabelledImagesGetLabelsAndSave(t *testing.T) {
	dir := t.TempDir()
	images, _ := idx.New(idx.UByte, 3, 2, 2)
	ip := write(t, filepath.Join(dir, "my-images-idx3-ubyte"), images)
	if pairfile.FindLabels(ip) != "" {
		t.Fatal("found labels that do not exist")
	}
	d, err := Open(ip, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.HasLabels() || d.Label(0) != sample.NoLabel || d.Counts()[0].Class != sample.NoLabel || d.Counts()[0].Count != 3 {
		t.Fatalf("unlabelled: %v %v", d.Label(0), d.Counts())
	}
	d.Relabel([]int{0, 1}, 4)
	lp := filepath.Join(dir, "my-labels-idx1-ubyte.gz")
	// Sample 2 has no label yet: it is stored as sample.NoLabel, which takes an int32 file.
	if err := saveAs(d, ip, lp, nil); err != nil {
		t.Fatalf("saving with an unlabelled sample: %v", err)
	}
	if got, _ := idx.ReadFile(lp); got.Type != idx.Int32 || !slices.Equal(got.Ints(), []int64{4, 4, sample.NoLabel}) {
		t.Fatalf("saved partial labels %s %v", got.Header, got.Ints())
	}
	d.Relabel([]int{2}, 300)
	if err := saveAs(d, ip, lp, nil); err != nil {
		t.Fatal(err)
	}
	got, _ := idx.ReadFile(lp)
	if got.Type != idx.Int32 || !slices.Equal(got.Ints(), []int64{4, 4, 300}) {
		t.Fatalf("saved labels %s %v", got.Header, got.Ints())
	}
	if pairfile.FindLabels(ip) != lp || pairfile.FindImages(lp) != ip {
		t.Fatalf("partners: %q %q", pairfile.FindLabels(ip), pairfile.FindImages(lp))
	}
	d.Close()
}

func TestFindPartnerNames(t *testing.T) {
	dir := t.TempDir()
	pairs := [][2]string{
		{"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"},
		{"t10k-images.idx3-ubyte", "t10k-labels.idx1-ubyte"},
		{"emnist-balanced-test-images-idx3-ubyte.gz", "emnist-balanced-test-labels-idx1-ubyte.gz"},
		{"qmnist-train-images-idx3-ubyte", "qmnist-train-labels-idx2-int"},
		{"kmnist-Train-Images-idx3-ubyte.gz", "kmnist-Train-Labels-idx1-ubyte.gz"},
		{"x-images-idx3-ubyte", "x-labels-idx1-ubyte.gz"},
	}
	for _, p := range pairs {
		for _, name := range p {
			os.WriteFile(filepath.Join(dir, name), nil, 0o644)
		}
	}
	for _, p := range pairs {
		ip, lp := filepath.Join(dir, p[0]), filepath.Join(dir, p[1])
		if got := pairfile.FindLabels(ip); got != lp {
			t.Errorf("pairfile.FindLabels(%s) = %q, want %s", p[0], filepath.Base(got), p[1])
		}
		if got := pairfile.FindImages(lp); got != ip {
			t.Errorf("pairfile.FindImages(%s) = %q, want %s", p[1], filepath.Base(got), p[0])
		}
	}
}

func TestNewDatasetSaveAsAndJournalRecovery(t *testing.T) {
	dir := t.TempDir()
	jp := filepath.Join(dir, "unsaved", "new-1.idxlabel-journal")
	d, err := New(28, 28, nil, map[int]string{3: "three"}, jp)
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 0 || !slices.Equal(d.Classes(), []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) || !d.HasLabels() {
		t.Fatalf("new: %d %v", d.Len(), d.Classes())
	}
	if err := d.Save(nil); err != ErrNoPath {
		t.Fatalf("Save of a new dataset: %v", err)
	}
	px := make([]byte, 784)
	px[100] = 200
	d.Append([]Sample{{Pixels: px, Label: 3}, {Pixels: px, Label: 3}})
	d.Append([]Sample{{Pixels: px, Label: 7}})
	d.Delete([]int{1})
	want := snap(d)
	d.Close() // crash before saving

	e, err := OpenJournal(jp)
	if err != nil {
		t.Fatal(err)
	}
	if !equalSnap(snap(e), want) || e.ClassName(3) != "three" {
		t.Fatal("OpenJournal did not restore the new dataset")
	}
	ip, lp := filepath.Join(dir, "mine-images-idx3-ubyte.gz"), filepath.Join(dir, "mine-labels-idx1-ubyte.gz")
	if err := saveAs(e, ip, lp, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(jp); !os.IsNotExist(err) {
		t.Fatal("the new dataset's journal survived its save")
	}
	labels, _ := idx.ReadFile(lp)
	images, _ := idx.ReadFile(ip)
	if !slices.Equal(labels.Data, []byte{3, 7}) || images.Header.String() != "0x00000803 ubyte 2×28×28" {
		t.Fatalf("saved %v %s", labels.Data, images.Header)
	}
	// Now it is a pair on disk: edits journal beside it.
	e.Relabel([]int{0}, 1)
	if journalPath(e) != lp+pairfile.JournalSuffix {
		t.Fatalf("journal after SaveAs: %s", journalPath(e))
	}
	e.Close()
}

func TestSaveFailureLeavesOriginalsUntouched(t *testing.T) {
	ip, lp := writeTestPair(t, 20, 2, 2)
	d, _ := Open(ip, lp, Options{})
	d.Relabel([]int{0}, 9)
	d.Delete([]int{5})
	beforeImages, beforeLabels := mustRead(t, ip), mustRead(t, lp)
	// The labels target is a folder: its rename fails after the images were already renamed.
	target := filepath.Join(filepath.Dir(lp), "blocked")
	os.Mkdir(target, 0o755)
	os.WriteFile(filepath.Join(target, "x"), nil, 0o644)
	err := saveAs(d, ip, target, nil)
	if err == nil {
		t.Fatal("saving over a folder succeeded")
	}
	if !bytes.Equal(mustRead(t, ip), beforeImages) || !bytes.Equal(mustRead(t, lp), beforeLabels) {
		t.Fatal("a failed save changed the original files")
	}
	entries, _ := os.ReadDir(filepath.Dir(ip))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Fatalf("a failed save left %s", e.Name())
		}
	}
	if !d.Dirty() || d.Label(0) != 9 {
		t.Fatal("a failed save lost the edits")
	}
	// The journal is still there and still takes edits; a later save succeeds.
	if err := d.Relabel([]int{1}, 8); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	got, _ := idx.ReadFile(lp)
	if got.Dims[0] != 19 || got.Data[0] != 9 || got.Data[1] != 8 {
		t.Fatalf("saved %v", got.Data)
	}
	d.Close()
}

func TestClassifyPair(t *testing.T) {
	ip, lp := writeTestPair(t, 5, 28, 28)
	for _, c := range [][]string{{ip, lp}, {lp, ip}} {
		if i, l, err := pairfile.ClassifyPair(c); err != nil || i != ip || l != lp {
			t.Fatalf("%v: %q %q %v", c, i, l, err)
		}
	}
	// writeTestPair names the files s-images-idx3-ubyte / s-labels-idx1-ubyte: partners are found.
	if i, l, err := pairfile.ClassifyPair([]string{ip}); err != nil || i != ip || l != lp {
		t.Fatalf("images alone: %q %q %v", i, l, err)
	}
	if i, l, err := pairfile.ClassifyPair([]string{lp}); err != nil || i != ip || l != lp {
		t.Fatalf("labels alone: %q %q %v", i, l, err)
	}
	if _, _, err := pairfile.ClassifyPair([]string{lp, lp}); err == nil {
		t.Fatal("two label files accepted")
	}
	if _, _, err := pairfile.ClassifyPair([]string{ip, lp, lp}); err == nil {
		t.Fatal("three files accepted")
	}
}

func TestFromArrays(t *testing.T) {
	images, _ := idx.New(idx.UByte, 4, 28, 28)
	labels, _ := idx.New(idx.UByte, 4)
	labels.Data[2] = 7
	jp := filepath.Join(t.TempDir(), "demo.idxlabel-journal")
	d, err := FromArrays(images, labels, map[int]string{7: "seven"}, jp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 4 || d.Label(2) != 7 || d.Dirty() || d.ClassName(7) != "seven" {
		t.Fatalf("FromArrays: %d %d %v", d.Len(), d.Label(2), d.Dirty())
	}
	if err := d.Relabel([]int{0}, 3); err != nil || journalPath(d) != jp {
		t.Fatalf("edit: %v, journal %s", err, journalPath(d))
	}
	if err := d.Save(nil); err != ErrNoPath {
		t.Fatalf("Save of an in-memory dataset: %v", err)
	}
	if _, err := OpenJournal(jp); err == nil || !strings.Contains(err.Error(), "held only in memory") {
		t.Fatalf("OpenJournal of a demo journal: %v", err)
	}
	dir := t.TempDir()
	if err := saveAs(d, filepath.Join(dir, "i"), filepath.Join(dir, "l"), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(jp); !os.IsNotExist(err) {
		t.Fatal("the in-memory dataset's journal survived its save")
	}
	bad, _ := idx.New(idx.UByte, 3)
	if _, err := FromArrays(images, bad, nil, jp, Options{}); err == nil || !strings.Contains(err.Error(), "3 labels") {
		t.Fatalf("count mismatch: %v", err)
	}
}
