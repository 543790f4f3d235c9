package ui

import "testing"

// The real-window scripts click menu items where they stand (scripts/buildui.sh: File's 7th
// and 13th items, Tools' 8th, about 40 px a row; scripts/importui.sh: File's 13th;
// scripts/annotators.sh: File's 16th to 18th): an item added above them moves them, and the
// script then clicks another item. This says so here, by name, instead of a script failing later.
func TestMenuPlacesTheScriptsClick(t *testing.T) {
	w := newTestWindow(t)
	for _, c := range []struct {
		menu  string
		place int // 1-based, separators not counted
		label string
	}{
		{"File", 7, "Append Dataset…"},
		{"File", 13, "Save Shown As…"},
		{"Tools", 8, "Split Dataset…"},
		{"File", 16, "Compare Annotations…"}, // scripts/annotators.sh
		{"File", 17, "Export Errata…"},
		{"File", 18, "Apply Errata…"},
	} {
		n := 0
		for _, m := range w.menu.menu.Items {
			if m.Label != c.menu {
				continue
			}
			for _, it := range m.Items {
				if it.IsSeparator {
					continue
				}
				if n++; n == c.place && it.Label != c.label {
					t.Errorf("%s's item %d is %q, where scripts/buildui.sh clicks %q: update the script", c.menu, c.place, it.Label, c.label)
				}
			}
		}
	}
}
