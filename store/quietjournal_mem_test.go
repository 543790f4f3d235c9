package store

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
)

// widePair writes n samples of side×side pixels (ubyte, a stroke in each) labelled k%10 in
// folder dir/wide, as IDX files (gzip when gz): large images beside small labels.
func widePair(t testing.TB, dir string, n, side int, gz bool) (string, string) {
	t.Helper()
	folder := filepath.Join(dir, "wide")
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	images, _ := idx.New(idx.UByte, n, side, side)
	labels, _ := idx.New(idx.UByte, n)
	for k := range n {
		images.Data[k*side*side+k%(side*side)] = 255
		labels.Data[k] = byte(k % 10)
	}
	suffix := ""
	if gz {
		suffix = ".gz"
	}
	ip, lp := filepath.Join(folder, "wide-images-idx3-ubyte"+suffix), filepath.Join(folder, "wide-labels-idx1-ubyte"+suffix)
	if err := idx.WriteFile(ip, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// Judging a killed window's journal (JournalChangesNothing, which every --force writer asks of a
// journal beside its outputs) holds none of the pair's image data: the images' CRC-32C, which
// the journal's base record names, is taken as they stream by, and only the labels are held.
// Before, it opened the pair whole, on top of what the writer holds: 16 MB allocated here for
// 16 MB of images, 785 MB at 1,000,000 MNIST samples. The rule stays as strict: a changed image
// byte, an image file cut short, a corrupt gzip stream, or images above the limit Open reads
// (IDXLABEL_MAX_DATA), and the journal changes something.
func TestJournalChangesNothingHoldsNoImages(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const n, side = 1000, 128
	for _, gz := range []bool{false, true} {
		ip, lp := widePair(t, t.TempDir(), n, side, gz)
		j := killedAfter(t, ip, lp, typedBack(t))
		var quiet bool
		got := mnisttest.Allocated(func() { quiet = JournalChangesNothing(j) })
		if !quiet {
			t.Fatalf("gzip %v: a journal whose edits cancel out: changes something", gz)
		}
		t.Logf("gzip %v: %d bytes allocated judging a journal of %d bytes of images", gz, got, n*side*side)
		if most := uint64(n*side*side) / 8; got > most {
			t.Errorf("gzip %v: judging the journal of a pair of %d bytes of images allocated %d bytes, want at most %d: it holds the images", gz, n*side*side, got, most)
		}
		t.Setenv(idx.MaxDataEnv, strconv.Itoa(n*side*side-1)) // Open would refuse the images
		if JournalChangesNothing(j) {
			t.Errorf("gzip %v: a journal of images above %s: changes nothing", gz, idx.MaxDataEnv)
		}
		t.Setenv(idx.MaxDataEnv, "")
		if !gz {
			continue
		}
		b, err := os.ReadFile(ip)
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)-8] ^= 1 // the gzip trailer's CRC-32: the same data, in a corrupt stream
		if err := os.WriteFile(ip, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if JournalChangesNothing(j) {
			t.Error("a journal of a gzip image file whose stream is corrupt: changes nothing")
		}
	}
	ip, lp := widePair(t, t.TempDir(), n, side, false)
	j := killedAfter(t, ip, lp, typedBack(t))
	b, err := os.ReadFile(ip)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 1 // another program changed a pixel since
	if err := os.WriteFile(ip, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if JournalChangesNothing(j) {
		t.Error("a journal of images changed since: changes nothing")
	}
	if err := os.WriteFile(ip, b[:len(b)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	if JournalChangesNothing(j) {
		t.Error("a journal of an image file cut short: changes nothing")
	}
}
