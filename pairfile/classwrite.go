package pairfile

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"idxlabel/internal/atomicfile"
	"idxlabel/sample"
)

// WriteClassNames writes names (class → name) to path atomically, never through a symbolic link
// there (atomicfile.WriteFileNoFollow), in a format ReadClassNames reads back to the same map:
// one name per line (line k names class k) when the classes are exactly 0…k−1 and no name could
// be read as another format's line; otherwise EMNIST's mapping lines "class codepoint…", which
// hold any class number. Names are written as ReadClassNames cleans them (white space runs made
// one space, cut to 64 characters). Errors: a name that is empty or holds a character that is not printable (a
// control or format character), a class outside the 32-bit label range, names that would make a
// file larger than ReadClassNames reads (1 MiB; nothing is written then), or those of
// atomicfile.WriteFileNoFollow (a link or other non-regular file at path: ErrNotRegular). It first
// removes the temporary files of path a killed write left (sweepSideFile): call it holding the
// pair's lock, as every writer does.
func WriteClassNames(path string, names map[int]string) error {
	names, classes, err := CleanClassNames(path, names)
	if err != nil {
		return err
	}
	plain := len(classes) > 0 && classes[0] == 0 && classes[len(classes)-1] == len(classes)-1
	if plain {
		first := names[0]
		plain = !isMappingLine(first) && !strings.HasPrefix(strings.ToLower(first), "index,codepoint")
	}
	sweepSideFile(path)
	var b strings.Builder
	for _, k := range classes {
		if plain {
			fmt.Fprintln(&b, names[k])
			continue
		}
		fmt.Fprint(&b, k)
		for _, r := range names[k] {
			fmt.Fprintf(&b, " %d", r)
		}
		fmt.Fprintln(&b)
	}
	if b.Len() > maxClassFile {
		return fmt.Errorf("%s: the names of %d classes take %d bytes, more than the %d a class-name file may hold", filepath.Base(path), len(classes), b.Len(), maxClassFile)
	}
	return atomicfile.WriteFileNoFollow(path, func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// KeepClassNames makes the label file labelsPath find names when it is opened again
// (FindClassNames): it does nothing when names holds no name or the files beside labelsPath
// already give exactly these names, and otherwise writes them to ClassNamesFile(labelsPath)
// (WriteClassNames: beside the file a symbolic link names, never through a link at the
// class-name file's own path), replacing what was there. It returns the class-name file the pair now finds
// ("" when none) and a sentence for the person when it wrote one or could not. It reads the
// class-name files beside labelsPath (at most 1 MiB each) and writes one of at most about as much.
func KeepClassNames(labelsPath string, names map[int]string) (file, note string) {
	names = maps.Clone(names)
	maps.DeleteFunc(names, func(_ int, s string) bool { return s == "" })
	if labelsPath == "" || len(names) == 0 {
		return "", ""
	}
	if found, p, err := FindClassNames(labelsPath); err == nil && maps.Equal(found, names) {
		return p, ""
	}
	out := ClassNamesFile(labelsPath)
	if err := WriteClassNames(out, names); err != nil {
		return "", fmt.Sprintf("The class names could not be written beside %s (%v): the saved pair shows class numbers.", filepath.Base(labelsPath), err)
	}
	found, p, err := FindClassNames(labelsPath)
	if err != nil || !maps.Equal(found, names) {
		return p, fmt.Sprintf("The class names were written to %s, but %s beside it names the classes when the pair is opened.", filepath.Base(out), filepath.Base(p))
	}
	return out, fmt.Sprintf("The class names were written to %s.", filepath.Base(out))
}

// CleanClassNames checks names as WriteClassNames writes them and returns them as
// ReadClassNames would read them back (white space runs made one space, cut to 64 characters),
// with the classes in order. Errors, naming file ("" for none) and the class: a name that is
// empty or holds a character that is not printable (a control or format character), a class
// outside the 32-bit label range.
func CleanClassNames(file string, names map[int]string) (map[int]string, []int, error) {
	prefix := ""
	if file != "" {
		prefix = file + ": "
	}
	classes := make([]int, 0, len(names))
	clean := make(map[int]string, len(names))
	for k, s := range names {
		if k <= sample.NoLabel || int64(k) > 1<<31-1 {
			return nil, nil, fmt.Errorf("%sclass %d is outside the 32-bit label range", prefix, k)
		}
		c, ok := cleanText(s, maxNameRunes)
		if !ok || c == "" {
			return nil, nil, fmt.Errorf("%sclass %d's name %q is empty or holds a character that is not printable", prefix, k, s)
		}
		clean[k] = c
		classes = append(classes, k)
	}
	slices.Sort(classes)
	return clean, classes, nil
}
