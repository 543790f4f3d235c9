package pairfile

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
)

// FindLabels returns the label file that pairs with imagesPath in the same folder, following the
// naming of MNIST ("train-images-idx3-ubyte" → "train-labels-idx1-ubyte", also with ".idx3-ubyte"
// dots), Fashion-MNIST and KMNIST (same names), EMNIST ("emnist-letters-train-images-idx3-ubyte"
// → "emnist-letters-train-labels-idx1-ubyte") and QMNIST ("qmnist-train-images-idx3-ubyte" →
// "qmnist-train-labels-idx2-int"), with or without ".gz". It returns "" when none exists.
func FindLabels(imagesPath string) string {
	if p := findPartner(imagesPath, "images", "labels", []string{"idx1", "idx2"}, "idx3"); p != "" {
		return p
	}
	if p := LabelsFileFor(imagesPath); p != "" && fileOrPending(p) {
		return p // the name a save gives the labels of images that had none
	}
	return ""
}

// SavePending reports whether a save of path was cut off before path was put in place: the save
// record beside it ("<path>.idxlabel-saving", read and bounded, not trusted further; beside the
// file a symbolic link at path names, RecordPath's rule, or, an earlier version's, beside the
// link) names path, or the file its link names, with a temporary file still waiting, so path may
// not exist yet. Opening the pair for editing
// finishes that save (FinishInterrupted). A damaged or planted record, or one with nothing left to rename,
// is not a pending save.
func SavePending(path string) bool {
	if path == "" {
		return false
	}
	names := []string{path, SideBase(path)}
	for _, p := range recordPaths("", path) {
		dm, err := parseManifest(p)
		if dm == nil || err != nil {
			continue
		}
		dir := filepath.Dir(p)
		for _, f := range dm.Files {
			target := filepath.Join(dir, filepath.FromSlash(f.Target))
			temp := filepath.Join(filepath.Dir(target), f.Temp)
			if slices.ContainsFunc(names, func(n string) bool { return SamePath(target, n) }) && filepath.Base(f.Temp) == f.Temp && atomicfile.IsTemp(temp, target) {
				if fi, err := os.Lstat(temp); err == nil && fi.Mode().IsRegular() {
					return true
				}
			}
		}
	}
	return false
}

// fileOrPending reports whether p is a regular file, or a file an interrupted save is still to
// put in place (SavePending).
func fileOrPending(p string) bool {
	if fi, err := os.Stat(p); err == nil {
		return fi.Mode().IsRegular()
	}
	return SavePending(p)
}

// LabelsFileFor returns the path a new label file for the image file imagesPath gets, beside it,
// named the way MNIST names its pairs: the last "images" of the name becomes "labels" (in the
// same case) and its last rank "idx3" "idx1" ("scratch-images-idx3-ubyte" →
// "scratch-labels-idx1-ubyte"); a name without "images" gets "-labels-idx1-ubyte" after its
// stem ("digits.idx" → "digits-labels-idx1-ubyte"). It is gzip (".gz") when the image file's
// name is. FindLabels finds the file it names. It returns "" for an empty path.
func LabelsFileFor(imagesPath string) string {
	if imagesPath == "" {
		return ""
	}
	dir, name := filepath.Split(imagesPath)
	name, gz := splitGz(name)
	if swapped, ok := swapWord(name, "images", "labels"); ok {
		swapped, _ = swapWord(swapped, "idx3", "idx1")
		return filepath.Join(dir, swapped+gz)
	}
	stem := strings.TrimSuffix(name, filepath.Ext(name))
	if stem == "" {
		stem = name
	}
	return filepath.Join(dir, stem+"-labels-idx1-ubyte"+gz)
}

// FindImages is FindLabels the other way round: the image file that pairs with labelsPath, or "".
func FindImages(labelsPath string) string {
	return findPartner(labelsPath, "labels", "images", []string{"idx3"}, "idx1", "idx2")
}

// findPartner replaces the last "from" in the file name with "to", the rank part ("idx3") with
// each of toRanks, tries the dtype suffixes MNIST-like sets use and both with and without ".gz",
// and returns the first candidate that exists as a file (or that an interrupted save is still to
// put in place: SavePending).
func findPartner(path, from, to string, toRanks []string, fromRanks ...string) string {
	dir, name := filepath.Split(path)
	base, _ := splitGz(name)
	swapped, ok := swapWord(base, from, to)
	if !ok {
		return ""
	}
	var stems []string
	for _, fr := range fromRanks {
		for _, tr := range toRanks {
			if ranked, ok := swapWord(swapped, fr, tr); ok {
				// QMNIST pairs idx3-ubyte images with idx2-int labels.
				stems = append(stems, ranked, strings.Replace(ranked, "-ubyte", "-int", 1), strings.Replace(ranked, "-int", "-ubyte", 1))
			}
		}
	}
	stems = append(stems, swapped)
	for _, s := range stems {
		for _, cand := range []string{s, s + ".gz"} {
			p := filepath.Join(dir, cand)
			if p == path {
				continue
			}
			if fileOrPending(p) {
				return p
			}
		}
	}
	return ""
}

// splitGz splits a file name into its base and its ".gz" suffix (in the name's case; "" when it
// has none).
func splitGz(name string) (base, gz string) {
	if strings.HasSuffix(asciiLower(name), ".gz") {
		return name[:len(name)-3], name[len(name)-3:]
	}
	return name, ""
}

// swapWord replaces the last from in name (ASCII letters compared in any case) with to, in
// from's case there ("IMAGES" → "LABELS"); ok is false when name has no from.
func swapWord(name, from, to string) (string, bool) {
	i := strings.LastIndex(asciiLower(name), from)
	if i < 0 {
		return name, false
	}
	return name[:i] + caseLike(name[i:i+len(from)], to) + name[i+len(from):], true
}

// asciiLower returns s with its ASCII letters in lower case and every other byte as it is, so
// that an index found in it is the same byte offset in s (strings.ToLower can change a string's
// length in bytes: a Kelvin sign becomes a one-byte k).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// caseLike returns repl in the case pattern of src: all upper, capitalized, or lower.
func caseLike(src, repl string) string {
	switch {
	case src == strings.ToUpper(src):
		return strings.ToUpper(repl)
	case src[:1] == strings.ToUpper(src[:1]):
		return strings.ToUpper(repl[:1]) + repl[1:]
	}
	return repl
}

// ClassifyPair decides which of the files a person dropped or picked is the image file and
// which the label file, by their IDX headers. A file is taken for images when no label file
// could have its shape (the pair rule, check.go: labels are integers, N or N×K): it is of rank 3
// or more, is not of an integer dtype, or is N×K with K above 8 (QMNIST's N×8 labels are the
// widest label files); any other file is taken for labels. With one file, an image file gets its
// partner from FindLabels ("" when none), and a label file gets its images from FindImages; with
// two, the one taken for images is the image file, and when both or neither are, the one with
// more values per sample; a label file that an interrupted save has still to put in place
// (SavePending) pairs with the other, an image file. So N×1×1 images pair with N labels, and
// empty files (N = 0) are classified like any other. Errors: a header that does not decode (naming the file), a lone
// label file without images beside it, two files that look alike, or more than two.
func ClassifyPair(paths []string) (images, labels string, err error) {
	type kind struct {
		images    bool // no label file has this shape
		perSample int  // values per sample
	}
	classify := func(p string) (kind, error) {
		h, err := idx.ReadHeaderFile(p)
		if err != nil {
			return kind{}, err
		}
		n := 1
		for _, d := range h.Dims[1:] {
			n *= d
		}
		return kind{images: h.Rank() > 2 || !h.Type.IsInteger() || n > 8, perSample: n}, nil
	}
	switch len(paths) {
	case 1:
		k, err := classify(paths[0])
		if err != nil {
			return "", "", err
		}
		if k.images {
			return paths[0], FindLabels(paths[0]), nil
		}
		if images = FindImages(paths[0]); images == "" {
			return "", "", fmt.Errorf("%s is a label file and no image file was found beside it", paths[0])
		}
		return images, paths[0], nil
	case 2:
		// A label file that an interrupted save has still to put in place (the image file,
		// renamed first, is there): its partner is the image file, and FinishInterrupted
		// finishes the save.
		for i, p := range paths {
			if _, err := os.Lstat(p); err != nil && SavePending(p) {
				if other, err := classify(paths[1-i]); err != nil || !other.images {
					return "", "", fmt.Errorf("%s is not there yet (a save of it was interrupted), and %s is not an image file to pair it with", p, paths[1-i])
				}
				return paths[1-i], p, nil
			}
		}
		a, err := classify(paths[0])
		if err != nil {
			return "", "", err
		}
		b, err := classify(paths[1])
		if err != nil {
			return "", "", err
		}
		switch {
		case a.images && !b.images, a.images == b.images && a.perSample > b.perSample:
			return paths[0], paths[1], nil
		case b.images && !a.images, a.images == b.images && b.perSample > a.perSample:
			return paths[1], paths[0], nil
		}
		return "", "", fmt.Errorf("%s and %s both hold %d values per sample: which are the images?", paths[0], paths[1], a.perSample)
	}
	return "", "", fmt.Errorf("open one image file (its labels are found beside it) or an image file and a label file, not %d files", len(paths))
}
