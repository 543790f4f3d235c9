package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
)

// TestMaxDataEnvMistake: an IDXLABEL_MAX_DATA that does not parse is a usage error for every
// command (and the GUI), naming the variable. It used to be ignored: IDXLABEL_MAX_DATA=1GiB then
// opened a 1.5 GB file under the default 4 GiB cap, the opposite of what was asked.
func TestMaxDataEnvMistake(t *testing.T) {
	p := filepath.Join(t.TempDir(), "labels")
	a, _ := idx.New(idx.UByte, 3)
	if err := idx.WriteFile(p, a); err != nil {
		t.Fatal(err)
	}
	t.Setenv(idx.MaxDataEnv, "lots")
	code, out, errOut := runCLI("info", p)
	if code != 2 || out != "" || !strings.Contains(errOut, `IDXLABEL_MAX_DATA="lots" is not a size`) {
		t.Fatalf("info with IDXLABEL_MAX_DATA=lots: exit %d, %q, %q", code, out, errOut)
	}
	t.Setenv(idx.MaxDataEnv, "1GiB")
	if code, _, errOut := runCLI("info", p); code != 0 {
		t.Fatalf("info with IDXLABEL_MAX_DATA=1GiB: exit %d, %q", code, errOut)
	}
}
