package cli

import (
	"os"
	"testing"

	"idxlabel/internal/atomicfile"
	"idxlabel/pairfile"
)

// A writer killed between a pair's label file and its accepted-marks file leaves the marks'
// temporary file beside the label file; the next writer of that label file removes it.
func TestWriterSweepsAKilledMarksWrite(t *testing.T) {
	_, lp := genPair(t, t.TempDir(), 20)
	_, slp := genPair(t, t.TempDir(), 5)
	stale := atomicfile.TempPrefix(pairfile.AcceptedFile(lp)) + "31337"
	if err := os.WriteFile(stale, []byte("idxlabel accepted-marks 1\nsamp"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI("convert", "--force", slp, lp); code != 0 {
		t.Fatalf("convert --force: exit %d, %q", code, stderr)
	}
	if _, err := os.Lstat(stale); err == nil {
		t.Errorf("%s left beside %s after it was written again", stale, lp)
	}
}
