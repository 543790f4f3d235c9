package store

import (
	"os"
	"path/filepath"
	"testing"

	"idxlabel/pairfile"
)

// A pair opened through symbolic links finds its class names and sources beside the files the
// links name (where the accepted marks are too), and a save through the links writes them there,
// nothing beside the links.
func TestOpenThroughLinksFindsTheSideFiles(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := tinyPair(t, t.TempDir(), 4)
	if err := pairfile.WriteClassNames(lp+pairfile.ClassNamesSuffix, map[int]string{0: "cat", 1: "dog"}); err != nil {
		t.Fatal(err)
	}
	if err := pairfile.WriteSources(lp+pairfile.SourcesSuffix, []string{"0/a.png", "", "2/c.png", ""}); err != nil {
		t.Fatal(err)
	}
	links := t.TempDir()
	kip, klp := filepath.Join(links, filepath.Base(ip)), filepath.Join(links, filepath.Base(lp))
	for real, link := range map[string]string{ip: kip, lp: klp} {
		if err := os.Symlink(real, link); err != nil {
			t.Fatal(err)
		}
	}
	d, err := Open(kip, klp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := d.ClassName(1); got != "dog" {
		t.Errorf("class 1's name through the links: %q, want dog (notices %q)", got, d.Notices())
	}
	if got := d.Source(2); got != "2/c.png" {
		t.Errorf("sample 2's source through the links: %q, want 2/c.png", got)
	}
	if err := d.SetClassNames(map[int]string{0: "eel", 1: "dog"}); err != nil {
		t.Fatal(err)
	}
	if err := d.Save(nil); err != nil {
		t.Fatal(err)
	}
	if names, _ := pairfile.ReadClassNames(lp + pairfile.ClassNamesSuffix); names[0] != "eel" {
		t.Errorf("the names saved beside the label file: %v", names)
	}
	if got, _ := filepath.Glob(filepath.Join(links, "*.txt")); len(got) > 0 {
		t.Errorf("side files written beside the links: %v", got)
	}
}
