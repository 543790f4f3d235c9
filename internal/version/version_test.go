package version

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// Version is FyneApp.toml's [Details] Version: the packages' names and the program agree.
func TestVersionIsFyneAppToml(t *testing.T) {
	f, err := os.Open("../../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	section, found := "", ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			section = line
			continue
		}
		if k, v, ok := strings.Cut(line, "="); ok && section == "[Details]" && strings.TrimSpace(k) == "Version" {
			found = strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if found != Version {
		t.Fatalf("FyneApp.toml's version is %q, internal/version's %q: change both together", found, Version)
	}
}
