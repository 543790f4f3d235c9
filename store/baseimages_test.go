package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// A save that leaves samples out makes the rows it wrote the base without copying them
// (baseimages.go), so the buffers a snapshot or a Pixels view taken before the save reads are
// the new base's too: they must never be written. Over rounds of deleting and appending samples
// and saving, every saved file holds exactly the kept samples' data, the dataset shows them, the
// snapshots and views taken before each save read what they read when taken, the base never
// holds more than maxSegs buffers, and the files reopen as the dataset showed them. For ubyte
// (raw data = display pixels) and float32 (raw data and display pixels apart), gzip and plain.
func TestSaveAfterDeletionKeepsSnapshots(t *testing.T) {
	skipShort(t)
	for _, typ := range []idx.DType{idx.UByte, idx.Float32} {
		for _, gz := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s gz=%v", typ, gz), func(t *testing.T) { testSaveKeepsSnapshots(t, typ, gz) })
		}
	}
}

// heldSample is a sample as the test expects it: raw data as the file stores it, display pixels.
type heldSample struct{ raw, px []byte }

// heldView is something read before a save, and what it read then.
type heldView struct {
	read func() []byte
	want []byte
}

func testSaveKeepsSnapshots(t *testing.T, typ idx.DType, gz bool) {
	const n, h, w = 40, 6, 5
	rng := rand.New(rand.NewPCG(1, uint64(typ)))
	images, _ := idx.New(typ, n, h, w)
	for i := range images.Len() {
		if typ == idx.UByte {
			images.Data[i] = byte(rng.IntN(256))
		} else {
			images.SetFloat(i, rng.Float64()) // in [0, 1): display pixels are round(v·255)
		}
	}
	labels, _ := idx.New(idx.UByte, n)
	for i := range labels.Data {
		labels.Data[i] = byte(rng.IntN(10))
	}
	dir := t.TempDir()
	suffix := map[bool]string{false: "", true: ".gz"}[gz]
	ip, lp := filepath.Join(dir, "s-images-idx3-ubyte"+suffix), filepath.Join(dir, "s-labels-idx1-ubyte"+suffix)
	if err := pairfile.WritePair(ip, lp, images, labels); err != nil {
		t.Fatal(err)
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { d.Close() }()
	size := h * w * typ.Size()
	var want []heldSample
	var wantLabels []int
	for i := range n {
		want = append(want, heldSample{slices.Clone(images.Data[i*size : (i+1)*size]), slices.Clone(d.Pixels(i))})
		wantLabels = append(wantLabels, int(labels.Data[i]))
	}
	var held []heldView
	hold := func() {
		s := d.Snapshot()
		for k := range s.N {
			held = append(held, heldView{func() []byte { return s.Pixels(k) }, slices.Clone(s.Pixels(k))})
		}
		for i := range d.Len() {
			px := d.Pixels(i)
			held = append(held, heldView{func() []byte { return px }, slices.Clone(px)})
		}
	}
	for round := range 12 {
		hold() // before this round's edits
		// Delete two samples (one of the first ones, so every later row moves), or in round 9
		// three quarters of them; append one or two.
		gone := []int{rng.IntN(min(3, len(want))), rng.IntN(len(want))}
		if gone[0] == gone[1] {
			gone = gone[:1]
		}
		if round == 9 {
			gone = rng.Perm(len(want))[:3*len(want)/4]
		}
		if err := d.Delete(gone); err != nil {
			t.Fatal(err)
		}
		for _, i := range slices.Backward(slices.Sorted(slices.Values(gone))) {
			want, wantLabels = slices.Delete(want, i, i+1), slices.Delete(wantLabels, i, i+1)
		}
		var add []Sample
		for range 1 + round%2 {
			px := make([]byte, h*w)
			for j := range px {
				px[j] = byte(rng.IntN(256))
			}
			l := rng.IntN(10)
			add = append(add, Sample{Pixels: px, Label: l})
			want = append(want, heldSample{storedValues(typ, px), px})
			wantLabels = append(wantLabels, l)
		}
		if _, err := d.Append(add); err != nil {
			t.Fatal(err)
		}
		hold() // after them, just before the save
		if err := d.Save(nil); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		checkSaved(t, round, ip, lp, typ, want, wantLabels)
		if d.Len() != len(want) {
			t.Fatalf("round %d: %d samples, want %d", round, d.Len(), len(want))
		}
		for i, s := range want {
			if !bytes.Equal(d.Pixels(i), s.px) {
				t.Fatalf("round %d: sample %d shows other pixels than before the save", round, i)
			}
		}
		for j, v := range held {
			if !bytes.Equal(v.read(), v.want) {
				t.Fatalf("round %d: view %d of %d taken before a save reads other pixels after it", round, j, len(held))
			}
		}
		if b := d.baseRows; b != nil {
			if len(b.segs) > maxSegs {
				t.Fatalf("round %d: the base holds %d buffers, above %d", round, len(b.segs), maxSegs)
			}
			used := make([]int, len(b.segs))
			for _, g := range b.rows {
				s, _ := b.find(int(g))
				used[s]++
			}
			for s, seg := range b.segs {
				if 3*used[s] < seg.n {
					t.Fatalf("round %d: the base keeps a buffer of %d samples for %d", round, seg.n, used[s])
				}
			}
		}
	}
	if d.baseRows == nil {
		t.Fatal("no save made the saved rows the base: the test did not test them")
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(ip, lp, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	d = again
	for i, s := range want {
		if !bytes.Equal(again.Pixels(i), s.px) {
			t.Fatalf("reopened, sample %d shows other pixels than the dataset showed", i)
		}
	}
}

// storedValues returns display pixels px as a dtype's raw data: for float32 data in [0, 1],
// p/255 (big-endian), the value whose display pixel is p; for ubyte, px.
func storedValues(typ idx.DType, px []byte) []byte {
	if typ == idx.UByte {
		return slices.Clone(px)
	}
	out := make([]byte, 4*len(px))
	for j, p := range px {
		binary.BigEndian.PutUint32(out[4*j:], math.Float32bits(float32(float64(p)/255)))
	}
	return out
}

// checkSaved reads the saved pair back and compares it with the samples and labels expected.
func checkSaved(t *testing.T, round int, ip, lp string, typ idx.DType, want []heldSample, labels []int) {
	t.Helper()
	images, err := idx.ReadFile(ip)
	if err != nil {
		t.Fatal(err)
	}
	var data []byte
	for _, s := range want {
		data = append(data, s.raw...)
	}
	if images.Type != typ || images.Dims[0] != len(want) || !bytes.Equal(images.Data, data) {
		t.Fatalf("round %d: the saved images (%s) are not the %d samples kept", round, images.Header, len(want))
	}
	l, err := idx.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range labels {
		if int(l.Int(i)) != c || c == sample.NoLabel {
			t.Fatalf("round %d: saved label %d is %d, want %d", round, i, l.Int(i), c)
		}
	}
}
