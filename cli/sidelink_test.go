package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// linkedPets imports a tree of named folders (A, cat, dog) into a pair in a folder of its own,
// with its class-name and sources files, and returns the pair and a pair of symbolic links to it
// in another folder.
func linkedPets(t *testing.T) (ip, lp, kip, klp, tree string) {
	t.Helper()
	dir := t.TempDir()
	tree = filepath.Join(dir, "pets")
	writeDigitPNG(t, filepath.Join(tree, "dog", "d.png"), 60, 80, 0.2)
	writeDigitPNG(t, filepath.Join(tree, "cat", "c.png"), 60, 80, -0.2)
	writeDigitPNG(t, filepath.Join(tree, "A", "a.png"), 50, 90, 0)
	real := t.TempDir()
	ip, lp = filepath.Join(real, "pets-images-idx3-ubyte"), filepath.Join(real, "pets-labels-idx1-ubyte")
	if code, _, stderr := runCLI("import", tree, ip, lp); code != 0 {
		t.Fatalf("import: exit %d, %q", code, stderr)
	}
	links := t.TempDir()
	kip, klp = filepath.Join(links, "pets-images-idx3-ubyte"), filepath.Join(links, "pets-labels-idx1-ubyte")
	for k, l := range map[string]string{ip: kip, lp: klp} {
		if err := os.Symlink(k, l); err != nil {
			t.Fatal(err)
		}
	}
	return ip, lp, kip, klp, tree
}

// A pair opened through symbolic links finds the class names and sources beside the files the
// links name, as it finds its accepted marks: subset --classes by name reads them.
func TestSideFilesOfALinkedPairAreFound(t *testing.T) {
	_, _, kip, klp, _ := linkedPets(t)
	out := t.TempDir()
	oi, ol := filepath.Join(out, "cats-images-idx3-ubyte"), filepath.Join(out, "cats-labels-idx1-ubyte")
	if code, _, stderr := runCLI("subset", "--classes", "cat", kip, klp, oi, ol); code != 0 {
		t.Fatalf("subset --classes cat through links: exit %d, %q", code, stderr)
	}
	labels, err := idx.ReadFile(ol)
	if err != nil || fmt.Sprint(labels.Data) != "[1]" {
		t.Errorf("subset's labels %v (%v), want the one cat, class 1", labels, err)
	}
	if names, file, err := pairfile.FindClassNames(ol); err != nil || fmt.Sprint(names) != "map[1:cat]" {
		t.Errorf("the subset's class names %v from %q (%v)", names, file, err)
	}
}

// A writer through symbolic links writes the class-name and sources files beside the files the
// links name (where the next opening, by either name, looks), never beside the links; one planted
// as a symbolic link at the class-name file's own path is refused, the file it names untouched.
func TestSideFilesOfALinkedPairAreWrittenBesideItsFiles(t *testing.T) {
	_, lp, kip, klp, tree := linkedPets(t)
	writeDigitPNG(t, filepath.Join(tree, "eel", "e.png"), 60, 80, 0.1)
	if code, _, stderr := runCLI("import", "--force", tree, kip, klp); code != 0 {
		t.Fatalf("import --force through links: exit %d, %q", code, stderr)
	}
	for _, f := range []string{klp + pairfile.ClassNamesSuffix, klp + pairfile.SourcesSuffix} {
		if _, err := os.Lstat(f); err == nil {
			t.Errorf("%s written beside the link", f)
		}
	}
	if names, file, err := pairfile.FindClassNames(lp); err != nil || file != lp+pairfile.ClassNamesSuffix || fmt.Sprint(names) != "map[0:A 1:cat 2:dog 3:eel]" {
		t.Errorf("class names beside the label file: %v from %q (%v)", names, file, err)
	}
	if s, err := pairfile.ReadSources(lp+pairfile.SourcesSuffix, 4); err != nil || fmt.Sprint(s) != "[A/a.png cat/c.png dog/d.png eel/e.png]" {
		t.Errorf("sources beside the label file: %q (%v)", s, err)
	}
	if got := pairfile.SourcesFile(kip, klp); got != lp+pairfile.SourcesSuffix {
		t.Errorf("SourcesFile through the links = %s, want %s", got, lp+pairfile.SourcesSuffix)
	}

	// A link planted at the class-name file's own path: refused, never written through.
	names := lp + pairfile.ClassNamesSuffix
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("not yours\n"), 0o644)
	os.Remove(names)
	if err := os.Symlink(victim, names); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI("import", "--force", tree, kip, klp); code != 1 {
		t.Errorf("import --force over a planted link: exit %d, %q", code, stderr)
	}
	unchanged(t, "the file a planted link names", victim, []byte("not yours\n"))
}
