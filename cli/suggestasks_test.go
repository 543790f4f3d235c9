package cli

import (
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// TestSuggestKeepsTheAsksRanking: suggest keeps its ranking of the least sure samples beside
// the images; the --ask after it on the same labels ranks by it (and says so), on other labels
// (a stale ranking) or with --no-cache by label spreading; a damaged file or a symbolic link in
// its place is said, naming it, and the asks are label spreading's, never an error or a panic.
func TestSuggestKeepsTheAsksRanking(t *testing.T) {
	dir := t.TempDir()
	const n = 120
	images, cls := barImages(t, dir, n)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = sample.NoLabel
	}
	for i := range 10 { // 5 labels a class: past the typical samples, the least sure are asked
		labels[i] = cls[i]
	}
	write := func() {
		lab, _ := idx.New(idx.Int32, n)
		for i, l := range labels {
			binary.BigEndian.PutUint32(lab.Data[4*i:], uint32(int32(l)))
		}
		if err := idx.WriteFile(pairfile.LabelsFileFor(images), lab); err != nil {
			t.Fatal(err)
		}
	}
	write()
	kept := images + ".idxlabel-asks"
	ask := func(extra ...string) (string, string) {
		t.Helper()
		code, out, errOut := runCLI(append(append([]string{"suggest", "--ask", "6"}, extra...), images)...)
		if code != 0 || len(strings.Split(strings.TrimSpace(out), "\n")) != 7 {
			t.Fatalf("--ask 6 %v: exit %d, %q, %s", extra, code, out, errOut)
		}
		return out, errOut
	}
	bySpread, byKept := "ranked by label spreading", "ranked by the suggestions of the last suggest, kept in "+kept
	spread, errOut := ask()
	if !strings.Contains(errOut, bySpread) {
		t.Errorf("--ask before any suggest: %q", errOut)
	}
	if _, err := os.Lstat(kept); err == nil {
		t.Fatal("--ask kept a ranking")
	}
	if code, _, errOut := runCLI("suggest", images); code != 0 {
		t.Fatalf("suggest: exit %d, %s", code, errOut)
	}
	good, err := os.ReadFile(kept)
	if err != nil {
		t.Fatalf("suggest kept no ranking: %v", err)
	}
	refined, errOut := ask()
	if !strings.Contains(errOut, byKept) {
		t.Errorf("--ask after suggest: %q", errOut)
	}
	if again, _ := ask(); again != refined {
		t.Errorf("asked %q, then %q", refined, again)
	}
	if out, errOut := ask("--no-cache"); out != spread || !strings.Contains(errOut, bySpread) {
		t.Errorf("--no-cache asked %q (%q), spreading %q", out, errOut, spread)
	}
	labels[20] = cls[20] // a label more: the kept ranking is of other labels
	write()
	if _, errOut := ask(); !strings.Contains(errOut, bySpread) {
		t.Errorf("--ask on other labels than suggest's: %q", errOut)
	}
	labels[20] = sample.NoLabel
	write()
	if out, errOut := ask(); out != refined || !strings.Contains(errOut, byKept) {
		t.Errorf("the labels back: asked %q (%q), after suggest %q", out, errOut, refined)
	}
	bad := append([]byte(nil), good...)
	bad[len(bad)-9] ^= 0x40
	os.WriteFile(kept, bad, 0o644)
	if out, errOut := ask(); out != spread || !strings.Contains(errOut, kept+": a damaged ranking") {
		t.Errorf("a damaged ranking: asked %q, %q", out, errOut)
	}
	other := kept + ".real"
	os.WriteFile(other, good, 0o644)
	os.Remove(kept)
	if err := os.Symlink(other, kept); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if out, errOut := ask(); out != spread || !strings.Contains(errOut, kept) || !strings.Contains(errOut, "symbolic link") {
		t.Errorf("a symbolic link: asked %q, %q", out, errOut)
	}
}
