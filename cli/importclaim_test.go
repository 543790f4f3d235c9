package cli

import (
	"errors"
	"path/filepath"
	"testing"

	"idxlabel/pairfile"
)

// import holds its claim on the outputs from its check until the pair is written: another
// writer that tries to claim them just before the write is refused (the pair is being written).
// Before, import let its locks go after decoding the images and the write took them again, so
// another writer could get in between.
func TestImportHoldsItsClaimUntilWritten(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "d")
	writeDigitPNG(t, filepath.Join(tree, "3", "a.png"), 60, 80, 0.3)
	ip, lp := filepath.Join(dir, "x-images-idx3-ubyte"), filepath.Join(dir, "x-labels-idx1-ubyte")
	var during error
	importBeforeWrite = func() {
		c, err := pairfile.ClaimOutputs(nil, []string{ip, lp}, true, nil)
		if err == nil {
			c.Release()
		}
		during = err
	}
	defer func() { importBeforeWrite = nil }()
	if code, _, stderr := runCLI("import", tree, ip, lp); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var le *pairfile.LockedError
	if !errors.As(during, &le) || !le.Writing {
		t.Fatalf("another writer's claim just before import writes: %v", during)
	}
}
