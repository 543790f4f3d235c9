//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/fixture/nonregular"
)

// TestNonRegularFiles: `info fifo` used to hang forever (it reopened the FIFO for the gzip check);
// `convert x fifo` (and, as root, `convert x /dev/null`) replaced the node with a file.
func TestNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo, sock := nonregular.FIFO(t, dir, "fifo"), nonregular.Socket(t, dir, "sock")
	ip, lp := writeTestPair(t, dir, []int{2, 28, 28}, []int64{1, 2}, 1)
	tree := filepath.Join(dir, "digits", "3")
	os.MkdirAll(tree, 0o755)
	nonregular.FIFO(t, tree, "a.png")
	writeDigitPNG(t, filepath.Join(tree, "b.png"), 60, 60, 0)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"info", fifo}, fifo + ": not a regular file (a FIFO)"},
		{[]string{"info", sock}, sock + ": not a regular file (a socket)"},
		{[]string{"info", os.DevNull}, os.DevNull + ": not a regular file (a character device)"},
		{[]string{"verify", fifo, lp}, fifo + ": not a regular file"},
		{[]string{"verify", ip, fifo}, fifo + ": not a regular file"},
		{[]string{"convert", fifo, filepath.Join(dir, "out")}, fifo + ": not a regular file"},
		{[]string{"convert", ip, fifo}, fifo + ": not a regular file (a FIFO); refusing to replace it"},
		{[]string{"convert", ip, sock}, sock + ": not a regular file (a socket); refusing to replace it"},
		{[]string{"convert", ip, tree}, tree + ": not a regular file (a folder); refusing to replace it"},
		{[]string{"normalize", fifo, filepath.Join(dir, "o.png")}, fifo + ": not a regular file"},
		{[]string{"suspects", fifo, lp}, fifo + ": not a regular file"},
	}
	for _, c := range cases {
		code, _, e := runCLI(c.args...)
		if code != 1 || !strings.Contains(e, c.want) {
			t.Errorf("%v: exit %d, %q; want %q", c.args, code, e, c.want)
		}
	}
	nonregular.Kept(t, fifo, sock)
	// In an import, a FIFO among the images is skipped and named; the rest is imported.
	code, out, e := runCLI("import", filepath.Dir(tree), filepath.Join(dir, "i2"), filepath.Join(dir, "l2"))
	if code != 0 || !strings.Contains(e, filepath.Join(tree, "a.png")+": not a regular file (a FIFO)") || !strings.Contains(out, "1 samples") {
		t.Fatalf("import with a FIFO: exit %d, %q %q", code, out, e)
	}
}
