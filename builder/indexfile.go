package builder

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"

	"idxlabel/internal/atomicfile"
)

// maxIndexLine bounds one line of an index file, in bytes (the file is untrusted input).
const maxIndexLine = 64 << 10

// ReadIndexFile reads a list of 0-based sample numbers, for samples 0…n−1: one number a line,
// or CSV whose header names a column "index" (what idxlabel check, diff and suspects print:
// "kind,index,other,…", "index,a,b"), whose column that is. Blank lines are skipped; a number
// may appear more than once. The numbers are returned sorted, each once. Memory: one byte per
// sample, whatever the file's size.
// Errors, naming the file and the line: not a regular file, a line over 64 KiB, a header with no
// index column, a field that is not an integer, a number outside 0…n−1.
func ReadIndexFile(path string, n int) ([]int, error) {
	f, _, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 4096), maxIndexLine)
	col := -1 // the column holding the numbers; −1 until the first line is seen
	listed := make([]bool, n)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(strings.TrimPrefix(sc.Text(), "\uFEFF"))
		if text == "" {
			continue
		}
		fields := strings.Split(text, ",")
		if col < 0 {
			col = 0
			if _, err := strconv.Atoi(strings.TrimSpace(fields[0])); err != nil {
				col = -2
				for k, h := range fields {
					if strings.EqualFold(strings.TrimSpace(h), "index") {
						col = k
					}
				}
				if col < 0 {
					return nil, fmt.Errorf("%s: line %d: expected a sample number or a CSV header with an index column, found %q", path, line, short(text))
				}
				continue
			}
		}
		if col >= len(fields) {
			return nil, fmt.Errorf("%s: line %d: no column %d: %q", path, line, col+1, short(text))
		}
		v, err := strconv.Atoi(strings.TrimSpace(fields[col]))
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %q is not a sample number", path, line, short(fields[col]))
		}
		if v < 0 || v >= n {
			return nil, fmt.Errorf("%s: line %d: sample %d is outside 0 to %d", path, line, v, n-1)
		}
		listed[v] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := []int{}
	for i, l := range listed {
		if l {
			out = append(out, i)
		}
	}
	return out, nil
}

// short cuts s to 40 characters for a message.
func short(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:39]) + "…"
	}
	return s
}
