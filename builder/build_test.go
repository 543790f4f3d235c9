package builder

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// Build claims, plans and writes: a merge of two pairs holds both in order; run again it is
// refused (the output exists) unless forced; an output that is an input is refused as such, and
// nothing is written either time.
func TestBuild(t *testing.T) {
	dir := t.TempDir()
	a, b := writePair(t, dir, "a", 5), writePair(t, dir, "b", 7)
	out := Pair{filepath.Join(dir, "m-images"), filepath.Join(dir, "m-labels")}
	merge := func(in []*Input) (*Plan, error) { return Merge(in, out) }
	w, err := Build(context.Background(), []Pair{a, b}, []Pair{out}, false, merge, nil, nil)
	if err != nil || len(w) != 1 {
		t.Fatalf("%v, %d pairs written", err, len(w))
	}
	images, err := idx.ReadFile(out.Images)
	if err != nil {
		t.Fatal(err)
	}
	if images.Dims[0] != 12 || images.Data[5*16] != 0 || images.Data[4*16] != 4 || images.Data[11*16] != 6 {
		t.Fatalf("merged images %v are not a then b", images.Dims)
	}
	if _, err := Build(context.Background(), []Pair{a, b}, []Pair{out}, false, merge, nil, nil); !errors.Is(err, pairfile.ErrExists) {
		t.Fatalf("an existing output, not forced: %v", err)
	}
	if _, err := Build(context.Background(), []Pair{a, b}, []Pair{out}, true, merge, nil, nil); err != nil {
		t.Fatalf("forced: %v", err)
	}
	var oe *pairfile.OutputError
	if _, err := Build(context.Background(), []Pair{a}, []Pair{{a.Images, out.Labels}}, true, func(in []*Input) (*Plan, error) {
		return Merge(in, Pair{a.Images, out.Labels})
	}, nil, nil); !errors.As(err, &oe) {
		t.Fatalf("an output that is an input: %v", err)
	}
	if got, _ := idx.ReadFile(a.Images); got == nil || got.Dims[0] != 5 {
		t.Fatal("an input was replaced")
	}
}
