package store

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// TestOpenChannelFirstAndNoLabel: Open follows CheckPair. Before it, Open refused N×1×H×W images
// (which verify accepted). The label −2147483648 (sample.NoLabel) opens as a sample without a label.
func TestOpenChannelFirstAndNoLabel(t *testing.T) {
	dir := t.TempDir()
	images, _ := idx.New(idx.UByte, 4, 1, 3, 2)
	for i := range images.Data {
		images.Data[i] = byte(i)
	}
	labels, _ := idx.New(idx.Int32, 4)
	ip, lp := filepath.Join(dir, "i"), filepath.Join(dir, "l")
	if err := pairfile.WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatalf("N×1×H×W: %v", err)
	}
	if h, w := d.Size(); h != 3 || w != 2 || d.Len() != 4 {
		t.Fatalf("N×1×3×2 opened as %d samples of %d×%d", d.Len(), h, w)
	}
	d.Close()
	labels.SetInt(3, math.MinInt32)
	if err := pairfile.WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	d, err = Open(ip, lp, Options{})
	if err != nil || d.Label(3) != sample.NoLabel || d.Label(2) != 0 {
		t.Fatalf("label -2147483648: %v", err)
	}
	d.Close()
}

// TestOpenCeiling: Open refuses, before reading the data, a file that declares more than
// idx.MaxData, and says how big it is and how to raise the limit.
func TestOpenCeiling(t *testing.T) {
	dir := t.TempDir()
	images, _ := idx.New(idx.UByte, 10, 28, 28)
	labels, _ := idx.New(idx.UByte, 10)
	ip, lp := filepath.Join(dir, "i.gz"), filepath.Join(dir, "l")
	if err := pairfile.WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	t.Setenv(idx.MaxDataEnv, "7000")
	_, err := Open(ip, lp, Options{})
	if err == nil || !strings.Contains(err.Error(), ip+": IDX dimensions too large: header 0x00000803 ubyte 10×28×28 declares 7840 bytes (7.8 kB) of data, above the limit of 7000 bytes") ||
		!strings.Contains(err.Error(), idx.MaxDataEnv) {
		t.Fatalf("over the ceiling: %v", err)
	}
	t.Setenv(idx.MaxDataEnv, "7840")
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatalf("at the ceiling: %v", err)
	}
	d.Close()
}
