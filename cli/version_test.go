package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/internal/version"
)

// idxlabel --version and idxlabel version print the version (internal/version, FyneApp.toml's).
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}, {"-version"}} {
		code, out, stderr := runCLI(args...)
		if code != 0 || !strings.HasPrefix(out, "idxlabel "+version.Version+" (go") || stderr != "" {
			t.Errorf("%v: exit %d, %q %q", args, code, out, stderr)
		}
	}
	if code, _, _ := runCLI("version", "extra"); code != 2 {
		t.Errorf("version extra: exit %d", code)
	}
}

// The health report names the version that wrote it and each file it checked by its base name
// with its SHA-256, never the folders of this machine.
func TestCheckReportNamesFilesNotFolders(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genPair(t, dir, 30)
	other := filepath.Join(t.TempDir(), "other")
	os.Mkdir(other, 0o755)
	oi, ol := genPair(t, other, 12)
	report := filepath.Join(t.TempDir(), "report")
	if code, _, stderr := runCLI("check", "--kinds", "duplicate,leak", "--report", report, ip, lp, "--against", oi, ol); code != 0 {
		t.Fatalf("check: exit %d, %s", code, stderr)
	}
	html, err := os.ReadFile(filepath.Join(report, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(html)
	if !strings.Contains(page, "<dt>Tool</dt><dd>idxlabel "+version.Version+"</dd>") {
		t.Error("the report does not name idxlabel's version")
	}
	for _, f := range [][2]string{{"Images", ip}, {"Labels", lp}, {"Checked against", oi}} {
		b, _ := os.ReadFile(f[1])
		sum := sha256.Sum256(b)
		want := "<dt>" + f[0] + "</dt><dd>" + filepath.Base(f[1]) + " (SHA-256 " + hex.EncodeToString(sum[:]) + ")"
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	for _, folder := range []string{dir, other, filepath.Dir(dir)} {
		if strings.Contains(page, folder) {
			t.Errorf("the report names the folder %s", folder)
		}
	}
}
