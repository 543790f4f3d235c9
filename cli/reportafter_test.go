package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/fixture/rodir"
	"idxlabel/idx"
)

// TestBuildersTellOnlyWhatTheyWrote: subset, split and import (of named class folders) into a
// folder that cannot be written (rodir) fail, and say nothing of samples kept, parts made or
// class names written before that: a report of what was written comes only after the write
// succeeded.
func TestBuildersTellOnlyWhatTheyWrote(t *testing.T) {
	src := t.TempDir()
	ip, lp := genBuildPair(t, src, "in", 40, 2, 2, idx.UByte, idx.UByte, 1, 0, func(i int) int64 { return int64(i % 4) })
	tree := filepath.Join(src, "pets")
	writeDigitPNG(t, filepath.Join(tree, "cat", "c.png"), 60, 80, -0.2)
	writeDigitPNG(t, filepath.Join(tree, "dog", "d.png"), 60, 80, 0.2)
	dir, here := rodir.Enter(t, func(string) {})
	if !here {
		return
	}
	out := func(name string) string { return filepath.Join(dir, name) }
	for _, c := range []struct {
		args []string
		told []string // what would report samples written
	}{
		{[]string{"subset", "--max", "10", ip, lp, out("s-images"), out("s-labels")}, []string{"samples kept"}},
		{[]string{"import", tree, out("p-images"), out("p-labels")}, []string{"names in"}},
		{[]string{"split", "--test", "0.25", "--stratify", ip, lp, out("a-images"), out("a-labels"), out("b-images"), out("b-labels")}, []string{"split: 40 samples", "in test"}},
	} {
		code, stdout, stderr := runCLI(c.args...)
		t.Logf("%s: exit %d, stderr %q", c.args[0], code, stderr)
		if code == 0 || stdout != "" {
			t.Fatalf("%s into a folder that cannot be written: exit %d, stdout %q", c.args[0], code, stdout)
		}
		for _, told := range c.told {
			if strings.Contains(stderr, told) {
				t.Errorf("%s told %q, then failed to write: %q", c.args[0], told, stderr)
			}
		}
	}
}
