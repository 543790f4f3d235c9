package dialogs

import (
	"os"
	"testing"
)

// TestMain sets a locale Fyne can parse (LANG=C makes it log an error) and keeps Fyne's
// preferences out of the home folder.
func TestMain(m *testing.M) {
	os.Setenv("LANG", "en_US.UTF-8")
	dir, err := os.MkdirTemp("", "idxlabel-ui-test")
	if err == nil {
		os.Setenv("XDG_CONFIG_HOME", dir)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
