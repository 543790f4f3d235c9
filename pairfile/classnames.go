package pairfile

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"idxlabel/internal/atomicfile"
	"idxlabel/sample"
)

// A class-name file is found beside the labels, so it is untrusted input (a dataset shared as
// a folder, a zip, a repository): these bound what it may hold. A file over a bound is refused
// with an error naming it; the dataset then shows class numbers.
const (
	maxClassFile  = 1 << 20 // bytes in a class-name file
	maxClassLine  = 1024    // bytes in one line
	maxNameRunes  = 64      // characters in one name; longer names are cut, ending in "…"
	maxClassNames = 1 << 16 // names in one file
)

// ClassNamesSuffix is appended to a label file's path (SideBase: the file a symbolic link names)
// to name the class-name file written beside it: "x-labels-idx1-ubyte.classes.txt"
// (ClassNamesFile; FindClassNames looks there).
const ClassNamesSuffix = ".classes.txt"

// classNameFiles returns the class-name files to look for beside labelsPath (SideBase: beside
// the file a symbolic link names, named after it), most specific first: EMNIST's
// "<set>-mapping.txt" (e.g. emnist-balanced-mapping.txt beside
// emnist-balanced-train-labels-idx1-ubyte.gz), KMNIST's "<set>_classmap.csv", then
// "<labels file>.classes.txt" (ClassNamesFile) and "classes.txt".
func classNameFiles(labelsPath string) []string {
	labelsPath = SideBase(labelsPath)
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
	return append(out, labelsPath+ClassNamesSuffix, filepath.Join(dir, "classes.txt"))
}

// FindClassNames reads the first class-name file that exists beside labelsPath, or beside the
// file it names when it is a symbolic link (see classNameFiles), and returns the names by class and the file's path; no file gives a nil map
// and "". Formats: EMNIST mapping lines "label codepoint..." (the name is the characters: "A",
// or "Aa" for EMNIST letters' "1 65 97"), KMNIST CSV "index,codepoint,char" with a header
// line, or one name per line (line k, counting from 0, names class k; a blank line names no
// class, and the lines after it keep their numbers). Errors: those of ReadClassNames, naming
// the file; the map is then nil.
func FindClassNames(labelsPath string) (map[int]string, string, error) {
	for _, p := range classNameFiles(labelsPath) {
		if _, err := os.Lstat(p); err != nil {
			continue // a symbolic link there is read, and refused (ReadClassNames)
		}
		names, err := ReadClassNames(p)
		return names, p, err
	}
	return nil, "", nil
}

// ReadClassNames reads a class-name file (formats as in FindClassNames) and returns the names
// by class. Every name is UTF-8 text of printable characters, white space runs made one space,
// at most 64 characters (longer ones are cut and end in "…"). Errors, naming the file and the
// line: not a regular file (atomicfile.ErrNotRegular; a FIFO is not waited on), more than
// 1 MiB, a line over 1,024 bytes, text that is not UTF-8, a character that is not printable (a
// control or format character), a mapping line with a bad number or a class outside the 32-bit
// label range, more than 65,536 names.
func ReadClassNames(path string) (map[int]string, error) {
	data, err := atomicfile.ReadFileNoFollow(path, maxClassFile)
	if err != nil {
		return nil, err
	}
	return parseClassNames(path, data)
}

// errClassNames marks a class-name file that does not hold class names as its format says.
var errClassNames = errors.New("not a class-name file")

// parseClassNames parses the content of the class-name file name (see ReadClassNames).
func parseClassNames(name string, data []byte) (map[int]string, error) {
	fail := func(line int, format string, args ...any) error {
		return fmt.Errorf("%s: line %d: %s: %w", name, line, fmt.Sprintf(format, args...), errClassNames)
	}
	if len(data) > maxClassFile {
		return nil, fmt.Errorf("%s: class-name file is more than %d bytes: %w", name, maxClassFile, errClassNames)
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	type line struct {
		n    int // 1-based line number
		text string
	}
	var lines []line
	for n, l := range bytes.Split(data, []byte("\n")) {
		if len(l) > maxClassLine {
			return nil, fail(n+1, "%d bytes, more than %d", len(l), maxClassLine)
		}
		if !utf8.Valid(l) {
			return nil, fail(n+1, "not UTF-8 text")
		}
		if t := strings.TrimSpace(string(l)); t != "" {
			lines = append(lines, line{n + 1, t})
		}
	}
	names := map[int]string{}
	add := func(l line, k int, s string) error {
		if k <= sample.NoLabel || k > math.MaxInt32 {
			return fail(l.n, "class %d is outside the 32-bit label range", k)
		}
		c, ok := cleanText(s, maxNameRunes)
		if !ok {
			return fail(l.n, "the name %q holds a character that is not printable", s)
		}
		names[k] = c
		if len(names) > maxClassNames {
			return fail(l.n, "more than %d class names", maxClassNames)
		}
		return nil
	}
	switch {
	case len(lines) > 0 && strings.HasPrefix(strings.ToLower(lines[0].text), "index,codepoint"):
		for _, l := range lines[1:] {
			parts := strings.SplitN(l.text, ",", 3)
			if len(parts) < 3 {
				return nil, fail(l.n, "expected index,codepoint,char, found %q", l.text)
			}
			k, err := strconv.Atoi(parts[0])
			if err != nil {
				return nil, fail(l.n, "expected index,codepoint,char, found %q", l.text)
			}
			if err := add(l, k, parts[2]); err != nil {
				return nil, err
			}
		}
	case len(lines) > 0 && isMappingLine(lines[0].text):
		for _, l := range lines {
			if !isMappingLine(l.text) {
				return nil, fail(l.n, "expected \"label codepoint...\", found %q", l.text)
			}
			f := strings.Fields(l.text)
			k, _ := strconv.Atoi(f[0])
			var name []rune
			for _, c := range f[1:] {
				cp, _ := strconv.Atoi(c)
				if cp < 0 || cp > unicode.MaxRune || !utf8.ValidRune(rune(cp)) {
					return nil, fail(l.n, "%d is not a Unicode code point", cp)
				}
				name = append(name, rune(cp))
			}
			if err := add(l, k, string(name)); err != nil {
				return nil, err
			}
		}
	default:
		// Line k names class k (counting from 0): a blank line names no class and keeps the
		// numbering of the lines after it.
		for _, l := range lines {
			if err := add(l, l.n-1, l.text); err != nil {
				return nil, err
			}
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

// cleanText makes untrusted text fit to show in one line: every run of white space becomes one
// space, the ends are trimmed, and it is cut to maxRunes characters (the last one "…" when cut).
// Invalid UTF-8 and characters that are not printable (control and format characters, such as
// U+202E, which reverses text) are left out; ok is false when the part kept had any.
func cleanText(s string, maxRunes int) (clean string, ok bool) {
	ok = true
	out := make([]rune, 0, min(len(s), 4*maxRunes))
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			if len(out) > 0 && out[len(out)-1] != ' ' {
				out = append(out, ' ')
			}
		case r == utf8.RuneError || !unicode.IsGraphic(r):
			ok = false
		default:
			out = append(out, r)
		}
		if len(out) > maxRunes+1 {
			break // enough to know it is cut
		}
	}
	if len(out) > 0 && out[len(out)-1] == ' ' {
		out = out[:len(out)-1]
	}
	if len(out) > maxRunes {
		out = append(out[:maxRunes-1], '…')
	}
	return string(out), ok
}
