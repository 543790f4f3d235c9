package normalize

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// torchvisionOrder is torchvision's ImageFolder (datasets/folder.py: find_classes, then
// make_dataset's sorted os.walk with followlinks), with the formats LoadFile reads: one "class
// path" line per image.
const torchvisionOrder = `
import os, sys
d = sys.argv[1]
classes = sorted(e.name for e in os.scandir(d) if e.is_dir())
for i, c in enumerate(classes):
    for root, _, fnames in sorted(os.walk(os.path.join(d, c), followlinks=True)):
        for f in sorted(fnames):
            if f.lower().endswith((".jpg", ".jpeg", ".png", ".gif", ".bmp", ".webp", ".tif", ".tiff")):
                print(i, os.path.join(root, f))
`

// TestReadFolderNamedClasses: folders named by class are numbered as torchvision numbers them
// (sorted names: "A" 0, "cat" 1, "dog" 2, "ka" 3), images in nested folders are taken in its
// order, and every other file is listed with its reason; the order is checked against
// torchvision's own algorithm run by Python (skipped without python3).
func TestReadFolderNamedClasses(t *testing.T) {
	dir := t.TempDir()
	png := pngHeader(2, 2, 8, 0)
	for _, p := range []string{"cat/b.png", "cat/a.PNG", "cat/sub/z.png", "cat/sub/deeper/y.jpg", "cat/sub2/x.jpeg", "cat/a b/w.png",
		"dog/1.png", "A/q.png", "ka/k.png", "ka/ZZ.png", "dog/x.bmp", "dog/y.gif", "A/z.webp"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), png, 0o644)
	}
	others := map[string]string{
		"dog/x.ppm": "PPM images are not read", "A/notes.txt": "not an image idxlabel reads", "README.md": "not in a class folder",
	}
	for p := range others {
		os.WriteFile(filepath.Join(dir, p), []byte("x"), 0o644)
	}
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	f, err := ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Named || fmt.Sprint(f.Names) != "map[0:A 1:cat 2:dog 3:empty 4:ka]" {
		t.Fatalf("names %v (named %v)", f.Names, f.Named)
	}
	var got []string
	for _, file := range f.Files {
		got = append(got, fmt.Sprintf("%d %s", file.Label, file.Path))
	}
	if len(got) != 13 {
		t.Errorf("%d images: %q", len(got), got)
	}
	if len(f.Skipped) != len(others)+1 {
		t.Errorf("skipped %q, want the %d other files and the empty folder", f.Skipped, len(others))
	}
	for p, why := range others {
		if !strings.Contains(strings.Join(f.Skipped, "\n"), filepath.Join(dir, p)+": "+why) {
			t.Errorf("%s not listed with %q: %q", p, why, f.Skipped)
		}
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: the order is not compared with torchvision's algorithm")
	}
	out, err := exec.Command(py, "-c", torchvisionOrder, dir).Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSpace(string(out)); strings.Join(got, "\n") != want {
		t.Errorf("order\n%s\ntorchvision's\n%s", strings.Join(got, "\n"), want)
	}
}

// TestReadFolderNumbersAndLoops: numbered folders keep their numbers beside an empty named one
// (listed, not a class), and a link back up the tree is listed, not followed for ever.
func TestReadFolderNumbersAndLoops(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"10/a.png", "7/b.png", "7/in/c.png"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), pngHeader(2, 2, 8, 0), 0o644)
	}
	os.Mkdir(filepath.Join(dir, "misc"), 0o755)
	os.Symlink(filepath.Join(dir, "7"), filepath.Join(dir, "7", "in", "loop"))
	f, err := ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, file := range f.Files {
		got = append(got, fmt.Sprintf("%d %s", file.Label, strings.TrimPrefix(file.Path, dir)))
	}
	if f.Named || strings.Join(got, ",") != "7 /7/b.png,7 /7/in/c.png,10 /10/a.png" {
		t.Errorf("files %q (named %v)", got, f.Named)
	}
	skipped := strings.Join(f.Skipped, "\n")
	if len(f.Skipped) != 2 || !strings.Contains(skipped, "loop: a link back to a folder above it") || !strings.Contains(skipped, "misc: class folder holds no image") {
		t.Errorf("skipped %q", f.Skipped)
	}
}
