package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
)

// TestOutputFolderHoldingAnInput: an output that is a folder holding one of the inputs (the
// inputs' own folder, an ancestor, or a link to one) is a usage error. Before,
// `export --force --format png data/images data/labels data` replaced the folder data with the
// PNG tree: the inputs and everything else in it were deleted, and the command exited 0.
func TestOutputFolderHoldingAnInput(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	os.MkdirAll(filepath.Join(data, "sub"), 0o755)
	images, _ := idx.New(idx.UByte, 2, 2, 2)
	labels, _ := idx.New(idx.UByte, 2)
	ip, lp := filepath.Join(data, "sub", "x-images-idx3-ubyte"), filepath.Join(data, "sub", "x-labels-idx1-ubyte")
	if err := idx.WriteFile(ip, images); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(data, "notes.txt"), []byte("mine"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(data, link)
	t.Chdir(filepath.Join(data, "sub"))
	for _, out := range []string{data, filepath.Join(data, "sub"), ".", "..", link, filepath.Join(dir, "data", "..", "data")} {
		code, _, errOut := runCLI("export", "--force", "--format", "png", ip, lp, out)
		if code != 2 || !strings.Contains(errOut, "holds the input") {
			t.Errorf("export --force to %s: exit %d, %q; want exit 2 and a usage error", out, code, errOut)
		}
		for _, p := range []string{ip, lp, filepath.Join(data, "notes.txt")} {
			if _, err := os.Stat(p); err != nil {
				t.Fatalf("export --force to %s removed %s", out, p)
			}
		}
	}
	// An output beside the inputs is still fine.
	if code, _, errOut := runCLI("export", "--format", "png", ip, lp, filepath.Join(data, "tree")); code != 0 {
		t.Fatalf("export to a new folder beside the inputs: exit %d, %q", code, errOut)
	}
}
