package pairfile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// WriteSources and ReadSources agree: one line a sample, empty for none, each cleaned; a file
// that does not fit the samples is an error naming it; no file is no sources.
func TestSourcesFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	if got := SourcesFile(filepath.Join(dir, "i"), filepath.Join(dir, "l")); got != filepath.Join(dir, "l"+SourcesSuffix) {
		t.Fatalf("SourcesFile beside the labels: %s", got)
	}
	if got := SourcesFile(filepath.Join(dir, "i"), ""); got != filepath.Join(dir, "i"+SourcesSuffix) {
		t.Fatalf("SourcesFile of images alone: %s", got)
	}
	p := filepath.Join(dir, "l"+SourcesSuffix)
	in := []string{"0/a.png", "", "dir with space/ü.png", "tab\there", "\u202eevil"}
	if err := WriteSources(p, in); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSources(p, len(in))
	want := []string{"0/a.png", "", "dir with space/ü.png", "tab\uFFFDhere", "\uFFFDevil"}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("read back %q (%v), want %q", got, err, want)
	}
	if _, err := ReadSources(p, 4); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "5 lines for 4 samples") {
		t.Fatalf("a file of 5 lines for 4 samples: %v", err)
	}
	if got, err := ReadSources(filepath.Join(dir, "none"), 3); got != nil || err != nil {
		t.Fatalf("no file: %q, %v", got, err)
	}
	os.WriteFile(p, []byte(strings.Repeat("x", 3*(MaxSource+2)+1)), 0o644)
	if _, err := ReadSources(p, 3); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("a file over its bound: %v", err)
	}
	if s := CleanSource(strings.Repeat("é", MaxSource)); len(s) > MaxSource || !strings.HasSuffix(s, "é") {
		t.Fatalf("a long source is not cut at a character boundary within %d bytes: %d bytes", MaxSource, len(s))
	}
}
