package cli

import "testing"

// Every sub-command is listed once: two entries of one name would both show in idxlabel help,
// and the second could never run.
func TestCommandsListedOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range commands {
		if seen[c.name] {
			t.Errorf("the command %q is listed twice", c.name)
		}
		seen[c.name] = true
	}
}
