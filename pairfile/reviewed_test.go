package pairfile

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"idxlabel/idx"
)

// Reviewed marks follow the accepted marks' one rule under their own name and first line: they
// read back, a file of the other kind is refused (naming the file and the kind), and a writer's
// claim removes them with the accepted marks once the pair it replaces is in place (a derived or
// rewritten pair keeps no reviewed marks).
func TestReviewedMarksOneRule(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	images, _ := idx.ReadFile(ip)
	labels, _ := idx.ReadFile(lp)
	key := KeyOf(labels, ImagesCRC(images.Data))
	path := ReviewedMarks.File(lp)
	if want := lp + ReviewedSuffix; path != want || ReviewedMarks.File("") != "" {
		t.Fatalf("ReviewedMarks.File(%s) = %s, want %s", lp, path, want)
	}
	if err := ReviewedMarks.Write(path, key, []int{0, 4, 9}); err != nil {
		t.Fatal(err)
	}
	if got, err := ReviewedMarks.Read(path, key); err != nil || !slices.Equal(got, []int{0, 4, 9}) {
		t.Fatalf("read back: %v, %v", got, err)
	}
	if got, err := AcceptedMarks.Read(path, key); got != nil || err == nil || !strings.Contains(err.Error(), "accepted marks "+path) {
		t.Fatalf("a reviewed-marks file read as accepted marks: %v, %v", got, err)
	}
	if err := WriteAccepted(AcceptedFile(lp), key, []int{1}); err != nil {
		t.Fatal(err)
	}
	if got, err := ReviewedMarks.Read(AcceptedFile(lp), key); got != nil || err == nil || !strings.Contains(err.Error(), "reviewed marks "+AcceptedFile(lp)) {
		t.Fatalf("an accepted-marks file read as reviewed marks: %v, %v", got, err)
	}
	other := key
	other.Images++
	if _, err := ReviewedMarks.Read(path, other); !errors.Is(err, ErrStaleAccepted) || !strings.Contains(err.Error(), "not reviewed") {
		t.Fatalf("stale reviewed marks: %v", err)
	}

	c, err := ClaimOutputs(nil, []string{ip, lp}, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Write(context.Background(), []File{{Path: ip, Data: images}, {Path: lp, Data: labels}}, nil); err != nil {
		t.Fatal(err)
	}
	c.Release()
	for _, p := range []string{path, AcceptedFile(lp)} {
		if _, err := os.Lstat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a writer of the pair left %s: %v", p, err)
		}
	}
}
