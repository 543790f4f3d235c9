package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// cutSave lays out in dir the pair x-images-idx3-ubyte, x-labels-idx1-ubyte as a save from
// (oldImages, oldLabels) to (newImages, newLabels) leaves it when cut off between its renames:
// the record beside the labels names both files; a file in placed is already renamed (the new
// content in place), the other waits under its temporary name beside the old file.
func cutSave(t *testing.T, dir string, oldImages, oldLabels, newImages, newLabels *idx.Array, placed map[string]bool) (ip, lp string) {
	t.Helper()
	ip, lp = filepath.Join(dir, "x-images-idx3-ubyte"), filepath.Join(dir, "x-labels-idx1-ubyte")
	write := func(p string, a *idx.Array) {
		if err := idx.WriteFile(p, a); err != nil {
			t.Fatal(err)
		}
	}
	var record []string
	for _, f := range []struct {
		path     string
		old, new *idx.Array
	}{{ip, oldImages, newImages}, {lp, oldLabels, newLabels}} {
		name := filepath.Base(f.path)
		temp := "." + name + ".idxlabel-tmp-123"
		if placed[name] {
			write(f.path, f.new)
		} else {
			write(f.path, f.old)
			write(filepath.Join(dir, temp), f.new)
		}
		record = append(record, `{"target":"`+name+`","temp":"`+temp+`","backup":false}`)
	}
	if err := os.WriteFile(lp+pairfile.ManifestSuffix, []byte(`{"version":2,"files":[`+strings.Join(record, ",")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return ip, lp
}

// pairOf returns n generated samples of h×w pixels and their labels (k mod 10, and 7 for the
// last).
func pairOf(n, h, w int) (*idx.Array, *idx.Array) {
	images, _ := idx.New(idx.UByte, n, h, w)
	labels, _ := idx.New(idx.UByte, n)
	for i := range images.Data {
		images.Data[i] = byte(i * 7)
	}
	for k := range n {
		labels.Data[k] = byte(k % 10)
	}
	labels.Data[n-1] = 7
	return images, labels
}

// TestVerifyInterruptedSave: an import of 470 images over a 10,000-sample pair, cut off after the
// images were renamed and before the labels were, leaves 470 images beside 10,000 labels and the
// new labels under their temporary name. verify says the files as they stand are not a pair
// (which file is old, where its new content waits, the counts), that as saved they are valid,
// and how to finish the save; it exits 1 and changes nothing on disk. (It used to check only the
// pair as saved and exit 0, while every program reading the files saw 470 against 10,000.)
func TestVerifyInterruptedSave(t *testing.T) {
	dir := t.TempDir()
	oldImages, oldLabels := pairOf(10000, 28, 28)
	newImages, newLabels := pairOf(470, 28, 28)
	ip, lp := cutSave(t, dir, oldImages, oldLabels, newImages, newLabels, map[string]bool{"x-images-idx3-ubyte": true})
	before := listing(t, dir)
	code, out, errOut := runCLI("verify", ip, lp)
	for _, want := range []string{
		"cut off between its renames", lp + " is still the file from before it (the new one waits in .x-labels-idx1-ubyte.idxlabel-tmp-123)",
		"has 10000 labels, but " + ip + " has 470 images", "as saved they are valid (ok: 470 samples", "10 classes (0–9)",
		"open the pair in idxlabel (for editing) to finish the save",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q", want)
		}
	}
	if code != 1 || out != "" {
		t.Fatalf("verify of a cut save: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if after := listing(t, dir); after != before {
		t.Fatalf("verify changed the folder:\n%s\n%s", before, after)
	}
	// info describes each file as it stands, and notes that the pair waits for its save.
	for _, p := range []string{ip, lp} {
		code, out, errOut = runCLI("info", p)
		if code != 0 || !strings.Contains(out, "count") || !strings.Contains(errOut, ip+", "+lp+": a save of it was cut off between its renames") {
			t.Fatalf("info %s: exit %d, stdout %q, stderr %q", p, code, out, errOut)
		}
	}
}

// A cut save whose old and new files have the same count still leaves no pair: the new images
// beside the old labels. verify exits 1 whatever the counts.
func TestVerifyInterruptedSaveSameCount(t *testing.T) {
	oldImages, oldLabels := pairOf(30, 4, 4)
	newImages, newLabels := pairOf(30, 4, 4)
	newImages.Data[0], newLabels.Data[0] = 99, 3
	ip, lp := cutSave(t, t.TempDir(), oldImages, oldLabels, newImages, newLabels, map[string]bool{"x-images-idx3-ubyte": true})
	code, out, errOut := runCLI("verify", ip, lp)
	if code != 1 || out != "" || !strings.Contains(errOut, "not a pair: each comes from a different save") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// A save cut off before its first rename leaves the files as they were: verify checks them as
// they stand (exit 0 when they are a pair) and says a save waits, checking it too; a waiting save
// that would not make a pair fails.
func TestVerifySaveCutBeforeItsRenames(t *testing.T) {
	oldImages, oldLabels := pairOf(30, 4, 4)
	newImages, newLabels := pairOf(20, 4, 4)
	ip, lp := cutSave(t, t.TempDir(), oldImages, oldLabels, newImages, newLabels, nil)
	code, out, errOut := runCLI("verify", ip, lp)
	if code != 0 || !strings.HasPrefix(out, "ok: 30 samples") ||
		!strings.Contains(errOut, "cut off before its renames") || !strings.Contains(errOut, "as saved they are valid (ok: 20 samples") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	badLabels, _ := idx.New(idx.UByte, 19)
	ip, lp = cutSave(t, t.TempDir(), oldImages, oldLabels, newImages, badLabels, nil)
	code, out, errOut = runCLI("verify", ip, lp)
	if code != 1 || out != "" || !strings.Contains(errOut, "as saved they would not be a pair: "+lp+" has 19 labels") {
		t.Fatalf("a waiting save that makes no pair: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// listing names every file in dir with its size and modification time.
func listing(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		fi, _ := e.Info()
		b.WriteString(e.Name() + " " + fi.ModTime().String() + " " + fi.Mode().String() + "\n")
	}
	return b.String()
}
