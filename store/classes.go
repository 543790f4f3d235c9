package store

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxClassFile bounds the size of a class-name file read beside the labels (bytes).
const maxClassFile = 1 << 20

// classNameFiles returns the class-name files to look for beside labelsPath, most specific
// first: EMNIST's "<set>-mapping.txt" (e.g. emnist-balanced-mapping.txt beside
// emnist-balanced-train-labels-idx1-ubyte.gz), KMNIST's "<set>_classmap.csv", then
// "<labels file>.classes.txt" and "classes.txt".
func classNameFiles(labelsPath string) []string {
	dir, name := filepath.Split(labelsPath)
	var out []string
	lower := strings.ToLower(name)
	for _, marker := range []string{"-train-labels", "-test-labels", "-labels"} {
		if i := strings.Index(lower, marker); i > 0 {
			prefix := name[:i]
			out = append(out, filepath.Join(dir, prefix+"-mapping.txt"), filepath.Join(dir, prefix+"_classmap.csv"))
			break
		}
	}
	return append(out, labelsPath+".classes.txt", filepath.Join(dir, "classes.txt"))
}

// FindClassNames reads the first class-name file that exists beside labelsPath (see
// classNameFiles) and returns the names by class and the file's path; no file gives a nil map
// and "". Formats: EMNIST mapping lines "label codepoint..." (the name is the characters: "A",
// or "Aa" for EMNIST letters' "1 65 97"), KMNIST
// CSV "index,codepoint,char" with a header line, or one name per line (line k names class k).
// Errors: a file larger than 1 MiB or unreadable, naming the file.
func FindClassNames(labelsPath string) (map[int]string, string, error) {
	for _, p := range classNameFiles(labelsPath) {
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if fi.Size() > maxClassFile {
			return nil, p, fmt.Errorf("%s: class-name file is %d bytes, more than %d", p, fi.Size(), maxClassFile)
		}
		names, err := ReadClassNames(p)
		return names, p, err
	}
	return nil, "", nil
}

// ReadClassNames parses a class-name file (formats as in FindClassNames) and returns the names
// by class. Errors: the file cannot be read, or a mapping line has a bad number (line named).
func ReadClassNames(path string) (map[int]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			lines = append(lines, l)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	names := map[int]string{}
	switch {
	case len(lines) > 0 && strings.HasPrefix(strings.ToLower(lines[0]), "index,codepoint"):
		for n, l := range lines[1:] {
			parts := strings.Split(l, ",")
			k, err := strconv.Atoi(parts[0])
			if err != nil || len(parts) < 3 {
				return nil, fmt.Errorf("%s: line %d: expected index,codepoint,char, found %q", path, n+2, l)
			}
			names[k] = parts[2]
		}
	case len(lines) > 0 && isMappingLine(lines[0]):
		for n, l := range lines {
			if !isMappingLine(l) {
				return nil, fmt.Errorf("%s: line %d: expected \"label codepoint...\", found %q", path, n+1, l)
			}
			f := strings.Fields(l)
			k, _ := strconv.Atoi(f[0])
			var name []rune
			for _, c := range f[1:] {
				cp, _ := strconv.Atoi(c)
				if cp < 0 || cp > 0x10FFFF {
					return nil, fmt.Errorf("%s: line %d: %d is not a Unicode code point", path, n+1, cp)
				}
				name = append(name, rune(cp))
			}
			names[k] = string(name)
		}
	default:
		for k, l := range lines {
			names[k] = l
		}
	}
	return names, nil
}

// isMappingLine reports whether l is "label codepoint [codepoint...]": two or more integers.
func isMappingLine(l string) bool {
	f := strings.Fields(l)
	if len(f) < 2 {
		return false
	}
	for _, x := range f {
		if _, err := strconv.Atoi(x); err != nil {
			return false
		}
	}
	return true
}
