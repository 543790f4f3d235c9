package cli

import (
	"strings"
	"testing"
)

// A word that is not a command and not a file is a usage error, not a GUI start (exit 2).
func TestMisspelledCommandIsAUsageError(t *testing.T) {
	for _, args := range [][]string{{"veriy", "a", "b"}, {"infoo"}, {"a", "b", "c"}} {
		code, _, stderr := runCLI(args...)
		if code != 2 || !strings.Contains(stderr, "see idxlabel help") {
			t.Errorf("%v: exit %d, %q", args, code, stderr)
		}
	}
}
