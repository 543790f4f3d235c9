package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"idxlabel/internal/atomicfile"
)

// A class-name file that the store refuses (here a name holding an escape character) leaves the
// dataset with class numbers; the commands that read the pair say why on stderr, naming the
// file, as the window does, instead of writing numbers where names were asked for in silence.
func TestCLISaysWhyClassNamesAreRefused(t *testing.T) {
	dir := t.TempDir()
	const n = 12
	px := make([]byte, n*4*4)
	labels := make([]byte, n)
	for i := range n {
		px[i*16+i%16] = 255
		labels[i] = byte(i % 2)
	}
	ip, lp := writePair(t, dir, "tiny", px, labels, n, 4, 4)
	names := filepath.Join(dir, "classes.txt")
	if err := os.WriteFile(names, []byte("zero\n\x1b[31mone\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "--kinds", "duplicate", ip, lp},
		{"export", "--format", "csv", "--classes", "names", ip, lp, filepath.Join(dir, "out.csv")},
	} {
		code, _, errOut := runCLI(args...)
		if code != 0 || !strings.Contains(errOut, names) || !strings.Contains(errOut, "not printable") {
			t.Errorf("%s: exit %d, stderr %q; want exit 0 and the refused %s named", args[0], code, errOut, names)
		}
	}
}

// --against the checked image file itself (by name, through a link or a hard link) is a usage
// error: every sample was listed as leaked into itself (300 of 300 on a t10k slice).
func TestCheckAgainstItself(t *testing.T) {
	dir := t.TempDir()
	const n = 12
	px := make([]byte, n*4*4)
	for i := range n {
		px[i*16+i%16] = 255
	}
	ip, _ := writePair(t, dir, "tiny", px, nil, n, 4, 4)
	link := filepath.Join(dir, "link-images")
	hard := filepath.Join(dir, "hard-images")
	if err := os.Symlink(ip, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(ip, hard); err != nil {
		t.Fatal(err)
	}
	for _, other := range []string{ip, link, hard} {
		code, out, errOut := runCLI("check", "--kinds", "leak", "--against", other, ip)
		if code != 2 || out != "" || !strings.Contains(errOut, "is the checked image file") {
			t.Errorf("--against %s: exit %d, stderr %q; want exit 2", filepath.Base(other), code, errOut)
		}
	}
}

// A --report folder that report.Write would refuse (here a folder of other files) is refused
// before the check runs, and no other output is replaced: it used to be found only after the
// scan, with --confusion already replaced.
func TestCheckReportInTheWayRefusedFirst(t *testing.T) {
	const n = 300
	images, labels := digits(t, n)
	dir := t.TempDir()
	ip, lp := writePair(t, dir, "set", images, labels, n, 28, 28)
	report := filepath.Join(dir, "photos")
	if err := os.Mkdir(report, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(report, "cat.jpg"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	confusionCSV := filepath.Join(dir, "confusion.csv")
	if err := os.WriteFile(confusionCSV, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("check", ip, lp, "--folds", "2", "--seeds", "1", "--epochs", "1", "--report", report, "--confusion", confusionCSV)
	if code != 1 || out != "" || !strings.Contains(errOut, report+": a folder that is not an idxlabel report") || strings.Contains(errOut, "CNN scan") {
		t.Errorf("exit %d, stdout %d bytes, stderr %q; want exit 1 before any scan", code, len(out), errOut)
	}
	if b, _ := os.ReadFile(confusionCSV); string(b) != "keep\n" {
		t.Errorf("--confusion was replaced: %q", b)
	}
}

// The temporary files that a check killed while writing --confusion or --map left beside them
// are removed by the next check writing them once abandoned (atomicfile.RemoveStale), as convert
// and export do; they were left for good.
func TestCheckRemovesStaleTemporaries(t *testing.T) {
	const n = 300
	images, labels := digits(t, n)
	dir := t.TempDir()
	ip, lp := writePair(t, dir, "set", images, labels, n, 28, 28)
	confusionCSV, mapCSV := filepath.Join(dir, "confusion.csv"), filepath.Join(dir, "map.csv")
	old := time.Now().Add(-2 * atomicfile.StaleAge)
	var stale []string
	for _, out := range []string{confusionCSV, mapCSV} {
		p := atomicfile.TempPrefix(out) + "123"
		if err := os.WriteFile(p, []byte("half"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old)
		stale = append(stale, p)
	}
	code, _, errOut := runCLI("check", ip, lp, "--kinds", "label", "--folds", "2", "--seeds", "1", "--epochs", "1", "--confusion", confusionCSV, "--map", mapCSV)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, p := range stale {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is left", filepath.Base(p))
		}
	}
}
