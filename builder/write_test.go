package builder

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// writePair writes n samples of 4×4 ubyte (sample i all i) and ubyte labels i%3 to dir.
func writePair(t *testing.T, dir, name string, n int) Pair {
	t.Helper()
	images, _ := idx.New(idx.UByte, n, 4, 4)
	labels, _ := idx.New(idx.UByte, n)
	for i := range n {
		for j := range 16 {
			images.Data[i*16+j] = byte(i)
		}
		labels.Data[i] = byte(i % 3)
	}
	p := Pair{filepath.Join(dir, name+"-images"), filepath.Join(dir, name+"-labels")}
	if err := idx.WriteFile(p.Images, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(p.Labels, labels); err != nil {
		t.Fatal(err)
	}
	return p
}

// entries lists dir's file names.
func entries(t *testing.T, dir string) string {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

// A cancelled write replaces nothing and leaves no temporary file; a shuffled part (written
// from memory) and a part in input order both.
func TestWriteCancelledLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	in, err := Open(writePair(t, dir, "in", 50))
	if err != nil {
		t.Fatal(err)
	}
	before := entries(t, dir)
	for _, shuffle := range []bool{false, true} {
		p, err := Split(in, Pair{filepath.Join(dir, "a"), filepath.Join(dir, "b")}, Pair{filepath.Join(dir, "c"), filepath.Join(dir, "d")}, SplitOptions{Test: 0.5, TestCount: -1, GroupColumn: -1, Shuffle: shuffle})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		calls := 0
		claim := claimParts(t, p)
		_, err = Write(ctx, claim, p, func(string, int, int) {
			if calls++; calls == 2 {
				cancel()
			}
		})
		claim.Release()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("shuffle %v: error %v, want context.Canceled", shuffle, err)
		}
		if got := entries(t, dir); got != before {
			t.Errorf("shuffle %v: the folder holds %q, held %q", shuffle, got, before)
		}
	}
}

// An input truncated after it was opened fails the write naming it; nothing is written.
func TestWriteTruncatedInput(t *testing.T) {
	dir := t.TempDir()
	src := writePair(t, dir, "in", 20)
	in, err := Open(src)
	if err != nil {
		t.Fatal(err)
	}
	before := entries(t, dir)
	os.Truncate(src.Images, 16+16*10)
	p, _ := Merge([]*Input{in}, Pair{filepath.Join(dir, "o-images"), filepath.Join(dir, "o-labels")})
	claim := claimParts(t, p)
	_, err = Write(context.Background(), claim, p, nil)
	claim.Release()
	if err == nil || !strings.Contains(err.Error(), src.Images) {
		t.Errorf("error %v, want one naming %s", err, src.Images)
	}
	if got := entries(t, dir); got != before {
		t.Errorf("the folder holds %q, held %q", got, before)
	}
}

// claimParts claims the outputs of p's parts (pairfile.ClaimOutputs, with force), as Build does.
func claimParts(t *testing.T, p *Plan) *pairfile.Claim {
	t.Helper()
	var outs []string
	for _, part := range p.Parts {
		outs = append(outs, part.Out.Images, part.Out.Labels, NamesFileFor(part.Out.Labels))
	}
	claim, err := pairfile.ClaimOutputs(nil, outs, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	return claim
}
