package pairfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"idxlabel/pairfile/journal"
)

// ClaimOutputs asks the JournalRule of a journal that holds edit records: one it says changes
// nothing refuses nothing and is removed once the claim holds the outputs (not when the claim is
// refused for another reason: an output that exists, without force); with no rule, or one that
// says the journal changes something, the output is refused as unsaved edits and the journal kept.
func TestClaimAsksTheJournalRule(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	ip, lp := writeTestPair(t, 4, 2, 2)
	j := lp + JournalSuffix
	if _, err := journal.Write(j, []string{ip, lp}, []byte{journal.RecBase}, [][]byte{{2, 0}, {2, 1}}); err != nil {
		t.Fatal(err)
	}
	var asked []string
	rule := func(quiet bool) JournalRule {
		return func(path string) bool { asked = append(asked, path); return quiet }
	}
	defer SetJournalRule(nil)
	for _, c := range []struct {
		name string
		rule JournalRule
	}{{"no rule", nil}, {"a rule that sees a change", rule(false)}} {
		SetJournalRule(c.rule)
		if _, err := ClaimOutputs(nil, []string{lp}, true, nil); !errors.Is(err, ErrUnsavedEdits) {
			t.Fatalf("%s: %v, want the unsaved edits refused", c.name, err)
		}
		if _, err := os.Stat(j); err != nil {
			t.Fatalf("%s: the journal: %v", c.name, err)
		}
	}
	SetJournalRule(rule(true))
	if _, err := ClaimOutputs(nil, []string{ip, lp}, false, nil); !errors.Is(err, ErrExists) {
		t.Fatalf("without force: %v, want ErrExists", err)
	}
	if _, err := os.Stat(j); err != nil {
		t.Fatalf("a refused claim removed the journal: %v", err)
	}
	asked = nil
	claim, err := ClaimOutputs(nil, []string{ip, lp}, true, nil)
	if err != nil {
		t.Fatalf("a journal that changes nothing refused the claim: %v", err)
	}
	claim.Release()
	if len(asked) != 1 || asked[0] != j {
		t.Errorf("the rule was asked of %q, want once of %s", asked, j)
	}
	if _, err := os.Lstat(j); err == nil {
		t.Error("the journal that changes nothing was kept")
	}

	// In the per-user fallback folder, the journal of a pair whose folder could not be written:
	// its window's lock is there too, out of a writer's sight, so it is never removed.
	fb := Fallback(j)
	if err := os.MkdirAll(filepath.Dir(fb), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := journal.Write(fb, []string{ip, lp}, []byte{journal.RecBase}, [][]byte{{2, 0}, {2, 1}}); err != nil {
		t.Fatal(err)
	}
	asked = nil
	if _, err := ClaimOutputs(nil, []string{lp}, true, nil); !errors.Is(err, ErrUnsavedEdits) {
		t.Errorf("a journal in the fallback folder: %v, want the unsaved edits refused", err)
	}
	if _, err := os.Stat(fb); err != nil || len(asked) > 0 {
		t.Errorf("the journal in the fallback folder: %v, the rule asked of %q", err, asked)
	}
}
