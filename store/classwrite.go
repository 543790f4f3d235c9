package store

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"idxlabel/internal/atomicfile"
)

// ClassNamesSuffix is appended to a label file's path to name the class-name file a save writes
// beside it when the pair would not find its class names otherwise (a Save As to another name
// or folder, a new dataset's first save): "x-labels-idx1-ubyte.classes.txt" (FindClassNames).
const ClassNamesSuffix = ".classes.txt"

// saveClassNames makes the label file labelsPath find names when it is opened again
// (FindClassNames): it does nothing when names is empty or the files beside labelsPath already
// give exactly names, and otherwise writes them to labelsPath+ClassNamesSuffix atomically
// (formatClassNames), replacing what was there. It returns the class-name file the pair now
// finds ("" when none) and a sentence for the person when it wrote one or could not. It reads
// the class-name files beside labelsPath (at most 1 MiB each) and writes one of at most about
// 1 MiB.
func saveClassNames(labelsPath string, names map[int]string) (file, note string) {
	if labelsPath == "" || len(names) == 0 {
		return "", ""
	}
	if found, p, err := FindClassNames(labelsPath); err == nil && maps.Equal(found, names) {
		return p, ""
	}
	out := labelsPath + ClassNamesSuffix
	text := formatClassNames(names)
	if err := atomicfile.WriteFile(out, func(w io.Writer) error { _, err := io.WriteString(w, text); return err }); err != nil {
		return "", fmt.Sprintf("The class names could not be written beside %s (%v): the saved pair shows class numbers.", filepath.Base(labelsPath), err)
	}
	found, p, err := FindClassNames(labelsPath)
	if err != nil || !maps.Equal(found, names) {
		return p, fmt.Sprintf("The class names were written to %s, but %s beside it names the classes when the pair is opened.", filepath.Base(out), filepath.Base(p))
	}
	return out, fmt.Sprintf("The class names were written to %s.", filepath.Base(out))
}

// formatClassNames writes names as a class-name file ReadClassNames reads back to the same map:
// one name per line, line k naming class k (blank lines for classes without a name), when the
// classes are 0 to 65,535 and the first name cannot be taken for another format; otherwise as
// EMNIST's mapping lines "class codepoint…", one per class in ascending order. Empty names are
// left out. Size: one line per class up to the largest (one-per-line) or per name (mapping).
func formatClassNames(names map[int]string) string {
	classes := slices.Sorted(maps.Keys(names))
	classes = slices.DeleteFunc(classes, func(c int) bool { return names[c] == "" })
	if len(classes) == 0 {
		return ""
	}
	var b strings.Builder
	first := names[classes[0]]
	if classes[0] >= 0 && classes[len(classes)-1] < maxClassNames && !isMappingLine(first) &&
		!strings.HasPrefix(strings.ToLower(first), "index,codepoint") {
		next := 0
		for _, c := range classes {
			b.WriteString(strings.Repeat("\n", c-next))
			b.WriteString(names[c])
			b.WriteByte('\n')
			next = c + 1
		}
		return b.String()
	}
	for _, c := range classes {
		b.WriteString(strconv.Itoa(c))
		for _, r := range names[c] {
			b.WriteByte(' ')
			b.WriteString(strconv.Itoa(int(r)))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
