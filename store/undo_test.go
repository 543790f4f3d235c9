package store

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"idxlabel/idx"
)

// writePair writes an n-sample pair of h×w ubyte images (pixel values derived from the index)
// and ubyte labels (index mod 10) and returns the paths.
func writeTestPair(t testing.TB, n, h, w int) (string, string) {
	t.Helper()
	images, _ := idx.New(idx.UByte, n, h, w)
	for i := range images.Data {
		images.Data[i] = byte(i*31 + i/(h*w))
	}
	labels, _ := idx.New(idx.UByte, n)
	for i := range labels.Data {
		labels.Data[i] = byte(i % 10)
	}
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "s-images-idx3-ubyte"), filepath.Join(dir, "s-labels-idx1-ubyte")
	if err := idx.WriteFile(ip, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// refState is the reference: a dataset state as plain slices.
type refState struct {
	labels  []int
	deleted []bool
	pixels  []byte
}

func (m refState) clone() refState {
	return refState{slices.Clone(m.labels), slices.Clone(m.deleted), slices.Clone(m.pixels)}
}

func modelOf(d *Dataset) refState {
	s := snap(d)
	return refState{s.labels, s.deleted, s.pixels}
}

func (m refState) equal(o refState) bool {
	return slices.Equal(m.labels, o.labels) && slices.Equal(m.deleted, o.deleted) && slices.Equal(m.pixels, o.pixels)
}

// TestUndoRedoProperty runs random edit sequences against a model whose undo is "go back to
// the previous state" and checks, after every step, that the dataset matches the model, that
// Dirty is right, and at the end that undoing everything restores the files' state, redoing
// everything restores the final one, and the journal replays it exactly.
func TestUndoRedoProperty(t *testing.T) {
	skipShort(t)
	const h, w = 3, 3
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 99))
		ip, lp := writeTestPair(t, 40, h, w)
		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		cur := modelOf(d)
		initial := cur.clone()
		var undo, redo []refState
		pick := func() []int {
			var s []int
			for range 1 + rng.IntN(5) {
				s = append(s, rng.IntN(len(cur.labels)))
			}
			return s
		}
		for step := range 60 {
			before := cur.clone()
			changed := true
			switch op := rng.IntN(6); op {
			case 0:
				idxs, l := pick(), rng.IntN(10)
				if err := d.Relabel(idxs, l); err != nil {
					t.Fatal(err)
				}
				changed = false
				for _, i := range idxs {
					if cur.labels[i] != l {
						changed = true
					}
					cur.labels[i] = l
				}
			case 1, 2:
				idxs, to := pick(), op == 1
				var err error
				if to {
					err = d.Delete(idxs)
				} else {
					err = d.Restore(idxs)
				}
				if err != nil {
					t.Fatal(err)
				}
				changed = false
				for _, i := range idxs {
					if cur.deleted[i] != to {
						changed = true
					}
					cur.deleted[i] = to
				}
			case 3:
				var samples []Sample
				for range 1 + rng.IntN(3) {
					px := make([]byte, h*w)
					for k := range px {
						px[k] = byte(rng.IntN(256))
					}
					samples = append(samples, Sample{Pixels: px, Label: rng.IntN(10)})
					cur.labels = append(cur.labels, samples[len(samples)-1].Label)
					cur.deleted = append(cur.deleted, false)
					cur.pixels = append(cur.pixels, px...)
				}
				if _, err := d.Append(samples); err != nil {
					t.Fatal(err)
				}
			case 4:
				_, ok, err := d.Undo()
				if err != nil || ok != (len(undo) > 0) {
					t.Fatalf("undo ok=%v with %d steps: %v", ok, len(undo), err)
				}
				if ok {
					redo = append(redo, before)
					cur, undo = undo[len(undo)-1], undo[:len(undo)-1]
				}
				changed = false
			case 5:
				_, ok, err := d.Redo()
				if err != nil || ok != (len(redo) > 0) {
					t.Fatalf("redo ok=%v with %d steps: %v", ok, len(redo), err)
				}
				if ok {
					undo = append(undo, before)
					cur, redo = redo[len(redo)-1], redo[:len(redo)-1]
				}
				changed = false
			}
			if changed {
				undo, redo = append(undo, before), nil
			}
			checkLogExplains(t, d)
			if got := modelOf(d); !got.equal(cur) {
				t.Fatalf("seed %d step %d: dataset differs from the refState", seed, step)
			}
			if d.Dirty() != (len(undo) > 0) {
				t.Fatalf("seed %d step %d: Dirty %v with %d undo steps", seed, step, d.Dirty(), len(undo))
			}
		}
		final := cur.clone()
		d.Close()

		e, _ := Open(ip, lp, Options{})
		if _, err := e.ReplayJournal(); err != nil {
			t.Fatal(err)
		}
		if !modelOf(e).equal(final) {
			t.Fatalf("seed %d: journal replay differs from the final state", seed)
		}
		for {
			if _, ok, _ := e.Undo(); !ok {
				break
			}
		}
		if !modelOf(e).equal(initial) {
			t.Fatalf("seed %d: undoing everything does not restore the files' state", seed)
		}
		for {
			if _, ok, _ := e.Redo(); !ok {
				break
			}
		}
		if !modelOf(e).equal(final) && len(redo) == 0 {
			t.Fatalf("seed %d: redoing everything does not restore the final state", seed)
		}
		e.Close()
	}
}

func TestUndoNamesAndBatchIsOneStep(t *testing.T) {
	ip, lp := writeTestPair(t, 600, 2, 2)
	d, _ := Open(ip, lp, Options{})
	defer d.Close()
	all := make([]int, 500)
	for i := range all {
		all[i] = i
	}
	if err := d.Relabel(all, 7); err != nil {
		t.Fatal(err)
	}
	if got := d.UndoName(); got != "Relabel 450 samples as 7" { // 50 of the 500 were 7 already
		t.Fatalf("UndoName %q", got)
	}
	name, ok, _ := d.Undo()
	if !ok || name != "Relabel 450 samples as 7" || d.UndoName() != "" || d.RedoName() != name {
		t.Fatalf("undo %q %v; names %q %q", name, ok, d.UndoName(), d.RedoName())
	}
	for i := range 500 {
		if d.Label(i) != i%10 {
			t.Fatal("one undo did not revert the whole batch")
		}
	}
	if err := d.Relabel([]int{0}, 300); err == nil {
		t.Fatal("label 300 accepted for ubyte labels")
	}
	if err := d.Relabel([]int{600}, 1); err == nil {
		t.Fatal("index out of range accepted")
	}
}
