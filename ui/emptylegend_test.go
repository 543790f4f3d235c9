package ui

import (
	"strings"
	"testing"

	suspecthealth "idxlabel/suspect/health"
	"idxlabel/ui/health"
)

// While the health check's kind shown lists no sample (not found yet while the check runs, found
// empty, not checked), the legend offers no key as acting on a sample: it says that a key that
// edits changes nothing, and why, as a key typed then says on the status bar. Before, it showed
// "0–9 relabel" (and "Del delete this copy", "→ keep both") over the empty view, where each of
// those keys says "no sample is shown here, nothing changed".
func TestEmptyCheckListLegend(t *testing.T) {
	ds := noiseStore(t, 300)
	w := newTestWindow(t)
	q := queueUI(w)
	w.scans.Opts = quickCNN
	w.c.setDataset(ds, "demo", false)
	k := w.check
	if !k.Start(nil) {
		t.Fatal("the check did not start")
	}
	says := func(when, why string) {
		t.Helper()
		legend := legendKeys(w)
		for _, acting := range []string{"relabel", "delete", "keep", "other label", "accept"} {
			if strings.Contains(legend, acting) {
				t.Errorf("%s, no sample shown: the legend offers %q: %q", when, acting, legend)
			}
		}
		if !strings.Contains(legend, "No sample shown here ("+why+"): a key that edits changes nothing") {
			t.Errorf("%s: the legend says %q, want that no sample is shown, why (%s), and that a key that edits changes nothing", when, legend, why)
		}
	}
	if w.c.v.Len() != 0 || k.Mode.F.Lists[suspecthealth.Duplicate].State != health.Waiting {
		t.Fatalf("after Start: %d shown", w.c.v.Len())
	}
	says("while the check runs", "Duplicates: not found yet, the check runs")
	waitUI(t, q, func() bool { return k.Check().WaitingScan })
	if l := k.Mode.F.Lists[suspecthealth.Duplicate]; l.State != health.Found || len(l.Order) != 0 || w.c.v.Len() != 0 {
		t.Fatalf("the noise: %d duplicates listed, %d shown (this test wants none)", len(l.Order), w.c.v.Len())
	}
	says("the duplicates found, none", "Duplicates: none found")
	k.Cancel()
	k.Pick(suspecthealth.Label)
	says("cancelled", "Label errors: not checked, the check stopped")
}
