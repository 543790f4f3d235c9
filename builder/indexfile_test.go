package builder

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadIndexFile reads what check, diff and suspects print and plain lists, and refuses what is
// not a list of sample numbers, naming the file and line.
func TestReadIndexFile(t *testing.T) {
	dir := t.TempDir()
	for k, tc := range []struct{ text, want string }{
		{"3\n1\n\n3\n", "[1 3]"},
		{"\uFEFF0\r\n2\r\n", "[0 2]"},
		{"index,a,b\n4,1,7\n9,,2\n", "[4 9]"},
		{"kind,index,other,label,suggested,score\nduplicate,5,8,1,,0.99\nlabel,2,,3,5,0.9\n", "[2 5]"},
		{"index,label,suggested,score\n7,1,2,0.5\n", "[7]"},
		{"", "[]"},
		{"kind,other\nx,1\n", "line 1: expected a sample number or a CSV header with an index column"},
		{"1\nfive\n", `line 2: "five" is not a sample number`},
		{"1\n10\n", "line 2: sample 10 is outside 0 to 9"},
		{"-1\n", "line 1: sample -1 is outside 0 to 9"},
		{strings.Repeat("1", 70000) + "\n", "token too long"},
	} {
		p := filepath.Join(dir, fmt.Sprint(k))
		os.WriteFile(p, []byte(tc.text), 0o644)
		got, err := ReadIndexFile(p, 10)
		if err != nil {
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
				t.Errorf("%q: %v, want %q naming the file", tc.text, err, tc.want)
			}
			continue
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("%q: %v, want %s", tc.text, got, tc.want)
		}
	}
}
