package store

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// writeImagesOnly writes n generated 4×4 images named name in a new folder and returns the path.
func writeImagesOnly(t *testing.T, name string, n int) string {
	t.Helper()
	images, _ := idx.New(idx.UByte, n, 4, 4)
	for i := range images.Data {
		images.Data[i] = byte(i * 7)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := idx.WriteFile(p, images); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLabelsTypedOnImagesAloneAreSaved: labels typed on an image file opened alone are written to
// a label file named as MNIST names its pairs (gzip when the images are), Save on the pair as
// opened included; opening the image file again finds it; the journal is gone only once they
// are in it. Before, Save wrote the images alone and every label was lost.
func TestLabelsTypedOnImagesAloneAreSaved(t *testing.T) {
	for _, c := range []struct{ images, labels string }{
		{"scratch-images-idx3-ubyte", "scratch-labels-idx1-ubyte"},
		{"scratch-images-idx3-ubyte.gz", "scratch-labels-idx1-ubyte.gz"},
		{"Digits.IMAGES.idx3-ubyte", "Digits.LABELS.idx1-ubyte"},
		{"drawn.idx", "drawn-labels-idx1-ubyte"},
	} {
		t.Run(c.images, func(t *testing.T) {
			ip := writeImagesOnly(t, c.images, 200)
			want := filepath.Join(filepath.Dir(ip), c.labels)
			if got := pairfile.LabelsFileFor(ip); got != want {
				t.Fatalf("LabelsFileFor = %s, want %s", got, want)
			}
			imagesBefore, _ := os.ReadFile(ip)
			d, err := Open(ip, "", Options{})
			if err != nil {
				t.Fatal(err)
			}
			mustDo(t, d.Relabel([]int{0}, 7))
			mustDo(t, d.Relabel([]int{1}, 2))
			mustDo(t, d.Relabel([]int{2}, 1))
			mustDo(t, d.Save(nil))
			if _, lp := d.Paths(); lp != want {
				t.Fatalf("labels saved to %q, want %s", lp, want)
			}
			if w := d.LastSave().Files; len(w) != 1 || w[0].Path != want || !w[0].Created {
				t.Fatalf("LastSave = %+v, want the new label file alone", w)
			}
			if d.Dirty() || d.Label(0) != 7 || d.Label(2) != 1 || d.Label(3) != sample.NoLabel {
				t.Fatalf("after the save: dirty %v, labels %d %d %d", d.Dirty(), d.Label(0), d.Label(2), d.Label(3))
			}
			if after, _ := os.ReadFile(ip); !bytes.Equal(after, imagesBefore) {
				t.Fatal("a labels-only save rewrote the image file")
			}
			if _, err := os.Lstat(ip + pairfile.JournalSuffix); err == nil {
				t.Fatal("the journal of the saved edits was left behind")
			}
			d.Close()
			images, labels, err := pairfile.ClassifyPair([]string{ip})
			if err != nil || images != ip || labels != want {
				t.Fatalf("reopening the images: %q %q %v", images, labels, err)
			}
			e, err := Open(images, labels, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if e.Recovery() != nil || e.Label(0) != 7 || e.Label(1) != 2 || e.Label(2) != 1 || e.Label(199) != sample.NoLabel {
				t.Fatalf("reopened: recovery %v, labels %d %d %d %d", e.Recovery(), e.Label(0), e.Label(1), e.Label(2), e.Label(199))
			}
			// The rest labelled: the label file becomes MNIST's ubyte.
			var rest []int
			for i := 3; i < 200; i++ {
				rest = append(rest, i)
			}
			mustDo(t, e.Relabel(rest, 4))
			mustDo(t, e.Save(nil))
			got, err := idx.ReadFile(want)
			if err != nil || got.Type != idx.UByte || got.Ints()[0] != 7 || got.Ints()[199] != 4 {
				t.Fatalf("fully labelled: %v %v", got, err)
			}
		})
	}
}

// TestSaveNeverReplacesAFileItDidNotOpen: a file already at the name the new label file would
// get is neither replaced nor read; the save is refused and the edits stay.
func TestSaveNeverReplacesAFileItDidNotOpen(t *testing.T) {
	ip := writeImagesOnly(t, "x-images-idx3-ubyte", 5)
	d, err := Open(ip, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	mustDo(t, d.Relabel([]int{0}, 3))
	theirs := []byte("someone's file")
	lp := pairfile.LabelsFileFor(ip)
	os.WriteFile(lp, theirs, 0o644)
	if err := d.Save(nil); !errors.Is(err, ErrLabelsFileExists) {
		t.Fatalf("Save over a file it did not open: %v", err)
	}
	if got, _ := os.ReadFile(lp); !bytes.Equal(got, theirs) || !d.Dirty() || d.Label(0) != 3 {
		t.Fatal("the refused save touched the file or lost the edit")
	}
	if _, err := os.Stat(ip + pairfile.JournalSuffix); err != nil {
		t.Fatalf("the journal of the unsaved edit: %v", err)
	}
}

// TestLabelsOnlySaveLeavesImagesAlone: a save that changed only labels writes the label file
// alone: the image file keeps its bytes, inode, time and links (a symbolic link stays a link to
// the same target, a hard link stays shared), even when it cannot be written; a deletion then
// rewrites it.
func TestLabelsOnlySaveLeavesImagesAlone(t *testing.T) {
	ip, lp := copyPair(t, 500, true)
	elsewhere := filepath.Join(t.TempDir(), "shared-images.gz")
	if err := os.Rename(ip, elsewhere); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, ip); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	hard := elsewhere + ".hardlink"
	if err := os.Link(elsewhere, hard); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		os.Chmod(elsewhere, 0o444) // a read-only image file: only its reading is needed
		defer os.Chmod(elsewhere, 0o644)
	}
	// A time long past: a rewrite, however soon, would show in the modification time.
	past := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(elsewhere, past, past); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(elsewhere)
	bytesBefore, _ := os.ReadFile(elsewhere)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for k := range 2 { // twice: the second save follows the stamps the first one left
		mustDo(t, d.Relabel([]int{k}, (d.Label(k)+1)%10))
		mustDo(t, d.Save(nil))
	}
	after, _ := os.Stat(elsewhere)
	link, _ := os.Lstat(ip)
	if !os.SameFile(before, after) || !after.ModTime().Equal(past) || link.Mode()&os.ModeSymlink == 0 {
		t.Fatal("a labels-only save replaced the image file or its link")
	}
	if got, _ := os.ReadFile(hard); !bytes.Equal(got, bytesBefore) {
		t.Fatal("the hard link no longer shares the image file's bytes")
	}
	if w := d.LastSave().Files; len(w) != 1 || w[0].Path != lp || w[0].Created || w[0].Through != "" {
		t.Fatalf("LastSave = %+v, want the label file alone", w)
	}
	saved, _ := idx.ReadFile(lp)
	if saved.Ints()[0] != int64(d.Label(0)) || saved.Ints()[1] != int64(d.Label(1)) {
		t.Fatalf("labels saved %v, want %d %d first", saved.Ints()[:2], d.Label(0), d.Label(1))
	}
	// A deletion changes the images: now the image file is written.
	os.Chmod(elsewhere, 0o644)
	mustDo(t, d.Delete([]int{3}))
	mustDo(t, d.Save(nil))
	w := d.LastSave().Files
	if len(w) != 2 || w[0].Path != ip || w[0].Through != elsewhere || (runtime.GOOS != "windows" && w[0].Links != 2) {
		t.Fatalf("LastSave = %+v, want the images through the link, whose old file had 2 names", w)
	}
	got, err := idx.ReadFile(ip)
	if err != nil || got.Dims[0] != 499 {
		t.Fatalf("after a deletion the images hold %v samples (%v)", got.Dims, err)
	}
	if !slices.Equal(got.Data[:3*784], bytesOf(t, bytesBefore)[:3*784]) {
		t.Fatal("the first samples changed")
	}
}

// bytesOf decodes an IDX file's bytes (gzip or not) and returns its data.
func bytesOf(t *testing.T, file []byte) []byte {
	t.Helper()
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, file, 0o644)
	a, err := idx.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return a.Data
}

// copyOfficialTrainPair copies the real training set's two .gz files, byte for byte, into a new
// folder and returns their paths.
func copyOfficialTrainPair(tb testing.TB) (string, string) {
	tb.Helper()
	pair := realCopy(tb, mnisttest.TrainImages, mnisttest.TrainLabels)
	return pair[0], pair[1]
}

// TestOfficialImagesKeepTheirChecksum: after a one-label save of the real training pair, the
// image file is still the official one (the MD5 torchvision checks); before, it was re-encoded
// (9,912,422 → 10,137,787 bytes, pixels identical).
func TestOfficialImagesKeepTheirChecksum(t *testing.T) {
	ip, lp := copyOfficialTrainPair(t)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	mustDo(t, d.Relabel([]int{0}, 3))
	mustDo(t, d.Save(nil))
	b, _ := os.ReadFile(ip)
	if sum := fmt.Sprintf("%x", md5.Sum(b)); sum != mnisttest.TrainImagesMD5 {
		t.Fatalf("image file MD5 %s after a labels-only save, want the official %s", sum, mnisttest.TrainImagesMD5)
	}
	labels, err := idx.ReadFile(lp)
	if err != nil || labels.Ints()[0] != 3 || labels.Ints()[1] != 0 {
		t.Fatalf("saved labels: %v", err)
	}
}

// The promise of TestOfficialImagesKeepTheirChecksum on a set made here (genArrays: package
// store cannot use fixture/digits, whose demo imports store), so that it runs where the real
// files are not: an image file gzipped by another program (here
// compress/gzip at its best compression, with the file name and time in its header, as the
// official files carry them: bytes our own writer would not make) keeps its MD5 after a
// one-label save.
func TestForeignGzipImagesKeepTheirChecksum(t *testing.T) {
	images, labels := genArrays(300)
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "digits-images-idx3-ubyte.gz"), filepath.Join(dir, "digits-labels-idx1-ubyte.gz")
	var raw, gz bytes.Buffer
	if err := idx.Encode(&raw, images); err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Name, zw.ModTime = "digits-images-idx3-ubyte", time.Date(1998, 1, 26, 0, 0, 0, 0, time.UTC)
	zw.Write(raw.Bytes())
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ip, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	first := (d.Label(0) + 1) % 10
	mustDo(t, d.Relabel([]int{0}, first))
	mustDo(t, d.Save(nil))
	b, _ := os.ReadFile(ip)
	if md5.Sum(b) != md5.Sum(gz.Bytes()) {
		t.Fatalf("a labels-only save re-encoded the image file (%d bytes, were %d)", len(b), gz.Len())
	}
	saved, err := idx.ReadFile(lp)
	if err != nil || saved.Int(0) != int64(first) || saved.Int(1) != int64(labels.Data[1]) {
		t.Fatalf("saved labels: %v", err)
	}
}

// BenchmarkSaveLabelsOnly60kGzip times Ctrl+S after one relabel of the real 60,000-sample
// training pair (gzip): the label file is written, synced, read back, and renamed with its save
// record; the image file is not touched.
func BenchmarkSaveLabelsOnly60kGzip(b *testing.B) {
	ip, lp := copyOfficialTrainPair(b)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	for b.Loop() {
		if err := d.Relabel([]int{0}, (d.Label(0)+1)%10); err != nil {
			b.Fatal(err)
		}
		if err := d.Save(nil); err != nil {
			b.Fatal(err)
		}
	}
}

// Names whose lower case has another length in bytes (a Kelvin sign, Ⱥ) neither panic nor make
// a name that is not the original's bytes with the ASCII parts changed.
func TestPartnerNamesOfUnicodeNames(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"Ⱥ-images", "x-images-Ⱥidx3", "\u212a-images-idx3-ubyte.gz", "ȺȺȺ", "x-IMAGES-\u212aIDX3"} {
		p := filepath.Join(dir, name)
		got := pairfile.LabelsFileFor(p)
		if !utf8.ValidString(got) || filepath.Dir(got) != dir {
			t.Fatalf("pairfile.LabelsFileFor(%q) = %q", name, got)
		}
		pairfile.FindLabels(p)
		pairfile.FindImages(got)
	}
	if got := filepath.Base(pairfile.LabelsFileFor(filepath.Join(dir, "\u212a-images-idx3-ubyte.gz"))); got != "\u212a-labels-idx1-ubyte.gz" {
		t.Fatalf("Kelvin name: %q", got)
	}
}

// A file that another program creates at the new label file's name while the save runs (after
// its checks, before its renames) is left as it is: the save fails and the edits stay unsaved.
func TestNewLabelFileNeverReplacesOneMadeMeanwhile(t *testing.T) {
	ip := writeImagesOnly(t, "s-images-idx3-ubyte", 10)
	d, err := Open(ip, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	mustDo(t, d.Relabel([]int{0}, 1))
	lp := pairfile.LabelsFileFor(ip)
	theirs := []byte("theirs")
	// The progress callback runs after the files are written and verified, before the renames.
	err = d.Save(func(f float64) {
		if f > 0.5 && f < 0.9 {
			if _, err := os.Stat(lp); err != nil {
				os.WriteFile(lp, theirs, 0o644)
			}
		}
	})
	if got, _ := os.ReadFile(lp); !bytes.Equal(got, theirs) {
		t.Fatal("a label file made during the save was replaced")
	}
	if err == nil || !d.Dirty() || d.Label(0) != 1 {
		t.Fatalf("the save: %v; dirty %v, label %d", err, d.Dirty(), d.Label(0))
	}
	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(ip), ".*idxlabel-*"))
	if len(leftovers) > 0 {
		t.Fatalf("left behind: %v", leftovers)
	}
}

// Labels typed on an image file opened alone, then a label file appearing beside it before they
// were saved: reopening the pair offers that journal (its edits no longer fit the pair, so it is
// kept aside when set aside, never dropped). Before, it was never looked at again.
func TestJournalOfImagesAloneIsOfferedWithTheirPair(t *testing.T) {
	ip := writeImagesOnly(t, "s-images-idx3-ubyte", 10)
	d, err := Open(ip, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, d.Relabel([]int{0, 1, 2}, 7))
	d.Close() // as a kill: the journal stays
	labels, _ := idx.New(idx.UByte, 10)
	idx.WriteFile(pairfile.LabelsFileFor(ip), labels) // someone's labels, by convert or import
	images, lp, err := pairfile.ClassifyPair([]string{ip})
	if err != nil {
		t.Fatal(err)
	}
	e, err := Open(images, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	rec := e.Recovery()
	if rec == nil || rec.Path != ip+pairfile.JournalSuffix || rec.Edits != 1 || rec.Matches {
		t.Fatalf("recovery %+v, want the image file's journal, 1 edit (of 3 samples), not matching the pair", rec)
	}
	if err := e.DiscardJournal(true); err != nil {
		t.Fatal(err)
	}
	if kept, _ := filepath.Glob(ip + pairfile.JournalSuffix + ".*.discarded"); len(kept) != 1 {
		t.Fatalf("the journal was not kept: %v", kept)
	}
}

// A save record planted (or damaged) beside the name LabelsFileFor gives does not make the image
// file's partner a label file that does not exist: the image file opens alone.
func TestPlantedRecordIsNoPendingLabelFile(t *testing.T) {
	ip := writeImagesOnly(t, "s-images-idx3-ubyte", 4)
	os.WriteFile(pairfile.LabelsFileFor(ip)+pairfile.ManifestSuffix, []byte("{}"), 0o644)
	if pairfile.SavePending(pairfile.LabelsFileFor(ip)) || pairfile.FindLabels(ip) != "" {
		t.Fatalf("a planted record counts as a pending label file (FindLabels %q)", pairfile.FindLabels(ip))
	}
	d, err := Open(ip, pairfile.FindLabels(ip), Options{})
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
}

// A name too long for the files a save makes beside it is refused before anything is written,
// saying so, with the edits kept.
func TestSaveRefusesNamesTooLong(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip := writeImagesOnly(t, strings.Repeat("d", 220), 5) // its label file: 238 bytes
	d, err := Open(ip, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	mustDo(t, d.Relabel([]int{0}, 4))
	if err := d.Save(nil); !errors.Is(err, ErrNameTooLong) || !d.Dirty() {
		t.Fatalf("save with a %d-byte label file name: %v", len(filepath.Base(pairfile.LabelsFileFor(ip))), err)
	}
	dir := t.TempDir()
	mustDo(t, saveAs(d, filepath.Join(dir, "short-images-idx3-ubyte"), filepath.Join(dir, "short-labels-idx1-ubyte"), nil))
}
