package pairfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/internal/atomicfile"
)

// The side files of a pair opened through a symbolic link (its class names, sources and accepted
// marks) are found and written beside the file the link names, by one rule (SideBase); the side
// file's own path is never followed: a link planted there is refused for reading and writing, and
// the file it names is left as it was.
func TestSideFilesFollowTheLabelFilesLink(t *testing.T) {
	ip, lp := writeTestPair(t, 3, 2, 2)
	links := t.TempDir()
	kip, klp := filepath.Join(links, "k-images-idx3-ubyte"), filepath.Join(links, "k-labels-idx1-ubyte")
	for real, link := range map[string]string{ip: kip, lp: klp} {
		if err := os.Symlink(real, link); err != nil {
			t.Fatal(err)
		}
	}
	missing := filepath.Join(links, "new-labels-idx1-ubyte")
	dangling := filepath.Join(links, "dangling")
	os.Symlink(filepath.Join(links, "nothing"), dangling)
	for in, want := range map[string]string{"": "", lp: lp, klp: lp, missing: missing, dangling: dangling} {
		if got := SideBase(in); got != want {
			t.Errorf("SideBase(%q) = %q, want %q", in, got, want)
		}
	}
	for name, got := range map[string]string{
		"AcceptedFile":   AcceptedFile(klp),
		"ClassNamesFile": ClassNamesFile(klp),
		"SourcesFile":    SourcesFile(kip, klp),
	} {
		if !strings.HasPrefix(got, lp+".") {
			t.Errorf("%s through the link = %s, want it beside %s", name, got, lp)
		}
	}

	// Written through the link: beside the label file, nothing beside the link.
	names := map[int]string{0: "zero", 1: "one"}
	if file, note := KeepClassNames(klp, names); file != lp+ClassNamesSuffix {
		t.Fatalf("KeepClassNames through the link: %q, %q", file, note)
	}
	if err := WriteSources(SourcesFile(kip, klp), []string{"a.png", "", "c.png"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := filepath.Glob(filepath.Join(links, "k-labels-idx1-ubyte.*")); len(got) > 0 {
		t.Errorf("side files written beside the link: %v", got)
	}
	// Found by either name.
	for _, l := range []string{lp, klp} {
		got, file, err := FindClassNames(l)
		if err != nil || file != lp+ClassNamesSuffix || fmt.Sprint(got) != "map[0:zero 1:one]" {
			t.Errorf("FindClassNames(%s) = %v from %q (%v)", l, got, file, err)
		}
	}
	if s, err := ReadSources(SourcesFile(kip, klp), 3); err != nil || fmt.Sprint(s) != "[a.png  c.png]" {
		t.Errorf("sources through the link: %q (%v)", s, err)
	}

	// A link planted at the side file's own path: refused, never followed.
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("zero\nvictim\n"), 0o644)
	for _, side := range []string{lp + ClassNamesSuffix, lp + SourcesSuffix} {
		os.Remove(side)
		if err := os.Symlink(victim, side); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := FindClassNames(klp); !errors.Is(err, atomicfile.ErrNotRegular) {
		t.Errorf("class names through a planted link: %v, want ErrNotRegular", err)
	}
	if _, err := ReadSources(SourcesFile(kip, klp), 2); !errors.Is(err, atomicfile.ErrNotRegular) {
		t.Errorf("sources through a planted link: %v, want ErrNotRegular", err)
	}
	if file, note := KeepClassNames(klp, map[int]string{0: "a", 1: "b"}); file != "" || !strings.Contains(note, "could not be written") {
		t.Errorf("KeepClassNames over a planted link: %q, %q", file, note)
	}
	if err := WriteSources(SourcesFile(kip, klp), []string{"x", "y", "z"}); !errors.Is(err, atomicfile.ErrNotRegular) {
		t.Errorf("WriteSources over a planted link: %v, want ErrNotRegular", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "zero\nvictim\n" {
		t.Errorf("the file a planted link names was written: %q", b)
	}
}
