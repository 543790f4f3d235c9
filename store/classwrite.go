package store

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"idxlabel/internal/atomicfile"
	"idxlabel/sample"
)

// WriteClassNames writes names (class → name) to path atomically (atomicfile.WriteFile) in a
// format ReadClassNames reads back to the same map: one name per line (line k names class k)
// when the classes are exactly 0…k−1 and no name could be read as another format's line;
// otherwise EMNIST's mapping lines "class codepoint…", which hold any class number. Names are
// cleaned as ReadClassNames cleans them (printable, one line, at most 64 characters). Errors:
// a name that is empty or not printable, a class outside the 32-bit label range, or those of
// atomicfile.WriteFile.
func WriteClassNames(path string, names map[int]string) error {
	classes, err := checkClassNames(path, names)
	if err != nil {
		return err
	}
	plain := len(classes) > 0 && classes[0] == 0 && classes[len(classes)-1] == len(classes)-1
	if plain {
		first := names[0]
		plain = !isMappingLine(first) && !strings.HasPrefix(strings.ToLower(first), "index,codepoint")
	}
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
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// checkClassNames checks names as WriteClassNames writes them (classes in the 32-bit label
// range; names printable, one line, at most 64 characters, as ReadClassNames cleans them) and
// returns the classes in order. Errors name file ("" for none) and the class.
func checkClassNames(file string, names map[int]string) ([]int, error) {
	prefix := ""
	if file != "" {
		prefix = file + ": "
	}
	classes := make([]int, 0, len(names))
	for k, s := range names {
		if k <= sample.NoLabel || int64(k) > 1<<31-1 {
			return nil, fmt.Errorf("%sclass %d is outside the 32-bit label range", prefix, k)
		}
		if c, ok := cleanText(s, maxNameRunes); !ok || c == "" || c != s {
			return nil, fmt.Errorf("%sclass %d's name %q is empty, not printable, not one line or longer than %d characters", prefix, k, s, maxNameRunes)
		}
		classes = append(classes, k)
	}
	slices.Sort(classes)
	return classes, nil
}
