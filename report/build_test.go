package report

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"idxlabel/internal/version"
	"idxlabel/sample"
	"idxlabel/suspect/health"
)

// Build names the checked files by name and SHA-256, never by folder, says the tool's version,
// and turns the findings into the report's kinds; a file that cannot be read is named with why.
func TestBuildFacts(t *testing.T) {
	dir := t.TempDir()
	images := filepath.Join(dir, "x-images-idx3-ubyte")
	os.WriteFile(images, []byte("pixels"), 0o644)
	px := [][]byte{{0, 255, 0, 255}, {255, 0, 255, 0}}
	set := sample.Set{N: 2, H: 2, W: 2, Pixels: func(k int) []byte { return px[k] }, Labels: []int{3, 5}, Index: []int{4, 9}}
	res := &health.Result{Kinds: []health.Kind{health.Outlier}, Flagged: map[health.Kind]int{health.Outlier: 1},
		Findings: map[health.Kind][]health.Finding{health.Outlier: {{Kind: health.Outlier, Index: 1, Other: -1, Label: 5, Suggested: sample.NoLabel, Score: 9}}}}
	r, err := Build(Input{Set: set, Result: res, Images: images, Labels: filepath.Join(dir, "gone"),
		Began: time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC), Took: 1500 * time.Millisecond, Stale: true})
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("pixels"))
	facts := map[string]string{}
	for _, f := range r.Facts {
		facts[f[0]] = f[1]
		if strings.Contains(f[1], dir) {
			t.Errorf("fact %q names the folder %s", f, dir)
		}
	}
	if r.Title != "Health check of x-images-idx3-ubyte" || facts["Tool"] != "idxlabel "+version.Version ||
		facts["Images"] != "x-images-idx3-ubyte (SHA-256 "+hex.EncodeToString(sum[:])+")" ||
		!strings.HasPrefix(facts["Labels"], "gone (not read: ") || facts["Samples"] != "2, 2×2 pixels" ||
		facts["Checked"] != "2026-11-27 10:00, in 1.5 s" || facts["Edits since the check"] == "" {
		t.Fatalf("title %q, facts %q", r.Title, r.Facts)
	}
	if len(r.Kinds) != 1 || len(r.Kinds[0].Findings) != 1 || r.Kinds[0].Findings[0].Index != 9 || r.Kinds[0].Findings[0].Label != "5" {
		t.Fatalf("kinds %+v", r.Kinds)
	}
	if len(r.Classes) != 2 || len(r.Sections) != 0 {
		t.Fatalf("classes %+v, sections %d", r.Classes, len(r.Sections))
	}
}
