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
	classes := make([]int, 0, len(names))
	for k, s := range names {
		if k <= sample.NoLabel || int64(k) > 1<<31-1 {
			return fmt.Errorf("%s: class %d is outside the 32-bit label range", path, k)
		}
		if c, ok := cleanText(s, maxNameRunes); !ok || c == "" || c != s {
			return fmt.Errorf("%s: class %d's name %q is empty, not printable or not one line", path, k, s)
		}
		classes = append(classes, k)
	}
	slices.Sort(classes)
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
