package store

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// Save Shown As (WriteSamples) keeps the accepted marks of the samples it writes, renumbered to
// their places in the new pair, in the new pair's own marks file: the derived pair opened shows
// them accepted, and they are exactly what pairfile reads back with the pair's key. A label
// typed over an accepted one is no longer marked; a sample left out leaves its mark behind. A
// symbolic link at the new marks file's name is replaced, never written through.
func TestWriteSamplesKeepsAcceptedMarks(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := unlabelledPair(t, 10)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { d.Close() }()
	if err := d.SetLabels([]int{0, 5}, []int{7, 7}); err != nil { // typed
		t.Fatal(err)
	}
	if err := d.SetLabelsAs(HowSuggestedAccepted, []int{1, 2, 3, 6, 8}, []int{1, 2, 3, 6, 8}); err != nil {
		t.Fatal(err)
	}
	if err := d.Relabel([]int{3}, 4); err != nil { // a person's label over the accepted one
		t.Fatal(err)
	}
	dir := t.TempDir()
	oi := filepath.Join(dir, "shown-images-idx3-ubyte")
	ol := pairfile.LabelsFileFor(oi)
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("not to be written through\n"), 0o644)
	if err := os.Symlink(victim, pairfile.AcceptedFile(ol)); err != nil {
		t.Fatal(err)
	}
	// The grid's order: 8, 0, 3, 1, 5, 6 (2 left out).
	keep := []int{8, 0, 3, 1, 5, 6}
	c, err := pairfile.ClaimOutputs([]string{ip, lp}, []string{oi, ol}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = d.WriteSamples(t.Context(), c, keep, oi, ol, nil)
	c.Release()
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "not to be written through\n" {
		t.Fatalf("the marks were written through a symbolic link: %q", b)
	}
	want := []int{0, 3, 5} // 8, 1, 6 at their new places
	images, _ := idx.ReadFile(oi)
	labels, _ := idx.ReadFile(ol)
	got, err := pairfile.ReadAccepted(pairfile.AcceptedFile(ol), pairfile.KeyOf(labels, pairfile.ImagesCRC(images.Data)))
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("the derived pair's marks read back %v (%v); want %v", got, err, want)
	}
	o, err := Open(oi, ol, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	if got := acceptedOf(o); !slices.Equal(got, want) {
		t.Fatalf("the derived pair opened shows %v accepted; want %v (notices %v)", got, want, o.Notices())
	}
	for _, n := range o.Notices() {
		if strings.Contains(n, "accepted") {
			t.Errorf("notice: %s", n)
		}
	}

}
