package cli

import (
	"os"
	"strings"
	"testing"

	"idxlabel/suspect/scancache"
)

// check keeps its CNN scan beside the images and reads it back: a second run says so and prints
// the same CSV; a label changed since is scored as it is now; --no-cache scans again (saying
// its estimate first); a pixel changed since scans again.
func TestCheckScanCache(t *testing.T) {
	const n = 300
	images, labels := digits(t, n)
	dir := t.TempDir()
	ip, lp := writePair(t, dir, "set", images, labels, n, 28, 28)
	args := []string{"check", "--kinds", "label", "--folds", "2", "--seeds", "1", "--epochs", "1", "--top", "300", ip, lp}
	code, first, errOut := runCLI(args...)
	if code != 0 || !strings.Contains(errOut, "CNN scan of 300 samples: about ") || !strings.Contains(errOut, "(an estimate, ") {
		t.Fatalf("first run: exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(ip + scancache.Suffix); err != nil {
		t.Fatalf("no cache after a scan: %v", err)
	}
	code, again, errOut := runCLI(args...)
	if code != 0 || !strings.Contains(errOut, "CNN scan read from "+ip+scancache.Suffix) || strings.Contains(errOut, "CNN scan of") {
		t.Fatalf("second run: exit %d, stderr %q", code, errOut)
	}
	if again != first {
		t.Errorf("the cached scan's CSV differs:\n%s\nscanned:\n%s", again, first)
	}
	// Sample 0 relabelled in the file: still a hit, its row has the new label.
	lab := append([]byte(nil), labels...)
	lab[0] = (lab[0] + 1) % 10
	_, lp = writePair(t, dir, "set", images, lab, n, 28, 28)
	code, out, errOut := runCLI(args...)
	if code != 0 || !strings.Contains(errOut, "CNN scan read from") {
		t.Fatalf("relabelled: exit %d, stderr %q", code, errOut)
	}
	if want := "label,0,," + itoa(lab[0]) + ","; !strings.Contains(out, want) {
		t.Errorf("relabelled: no row %q in\n%s", want, out)
	}
	code, _, errOut = runCLI(append([]string{"check", "--no-cache"}, args[1:]...)...)
	if code != 0 || strings.Contains(errOut, "read from") || !strings.Contains(errOut, "CNN scan of 300 samples: about ") {
		t.Fatalf("--no-cache: exit %d, stderr %q", code, errOut)
	}
	px := append([]byte(nil), images...)
	px[100*784+400] ^= 0x80
	writePair(t, dir, "set", px, lab, n, 28, 28)
	if code, _, errOut := runCLI(args...); code != 0 || strings.Contains(errOut, "read from") {
		t.Fatalf("a pixel changed: exit %d, stderr %q", code, errOut)
	}
}
