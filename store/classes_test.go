package store

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/pairfile"
)

// TestRandomBytesAreNotClassNames: 500 KB of random bytes as classes.txt beside the labels (it
// froze the GUI drawing a 46,000-px "name") is refused with a notice; the pair opens unnamed.
func TestRandomBytesAreNotClassNames(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	junk := make([]byte, 500_000)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range junk {
		junk[i] = byte(rng.Uint32())
	}
	p := filepath.Join(filepath.Dir(lp), "classes.txt")
	if err := os.WriteFile(p, junk, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := Open(ip, lp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, c := range d.Classes() {
		if n := d.ClassName(c); n != "" {
			t.Fatalf("class %d named %q from random bytes", c, n)
		}
	}
	if len(d.Classes()) != 10 {
		t.Fatalf("classes %v", d.Classes())
	}
	notes := strings.Join(d.Notices(), "\n")
	if !strings.Contains(notes, p) || !strings.Contains(notes, "line 1: not UTF-8 text") {
		t.Fatalf("notices %q", notes)
	}
}

// TestTenThousandClasses: a name file of 10,000 classes and labels using them; store answers
// with every class, in order, named.
func TestTenThousandClasses(t *testing.T) {
	var b strings.Builder
	for k := range 10000 {
		fmt.Fprintf(&b, "class %05d\n", k)
	}
	p := filepath.Join(t.TempDir(), "classes.txt")
	os.WriteFile(p, []byte(b.String()), 0o644)
	names, err := pairfile.ReadClassNames(p)
	if err != nil || len(names) != 10000 || names[9999] != "class 09999" {
		t.Fatalf("%d names, %v", len(names), err)
	}
	d, err := New(2, 2, []int{0}, names, filepath.Join(t.TempDir(), "j"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Append([]Sample{{Pixels: make([]byte, 4), Label: 255}}); err != nil {
		t.Fatal(err)
	}
	classes := d.Classes()
	counts := d.Counts()
	if len(classes) != 10000 || classes[9999] != 9999 || len(counts) != 10000 || counts[255].Count != 1 || counts[255].Name != "class 00255" {
		t.Fatalf("%d classes, %d counts", len(classes), len(counts))
	}
}
