package store

import (
	"os"
	"testing"
)

// Journals a killed window leaves that hold a real change are offered at the next Open, and a
// window closed normally keeps them: each case is a change journalChangesNothing or Close's
// Dirty must not take for edits that cancel out (class names; a sample added then deleted; an
// accepted suggestion of the files typed over with its own digit; a review's decision after a
// save that carried history; an undo past the save then edits typed back; a redo of a step a
// save carried on its redo stack). An accepted sample deleted then restored is the files' state
// again (its mark kept): not dirty, and nothing offered.
func TestRealChangesKeepTheirJournal(t *testing.T) {
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	px := make([]byte, 4*4)
	cases := []struct {
		name  string
		dirty bool
		setup func(d *Dataset) // before the session attacked (saved)
		edits func(d *Dataset)
	}{
		{"class names", true, nil, func(d *Dataset) { must(d.SetClassNames(map[int]string{1: "one"})) }},
		{"append then delete", true, nil, func(d *Dataset) {
			first, err := d.Append([]Sample{{Pixels: px, Label: 5}})
			must(err)
			must(d.Delete([]int{first}))
		}},
		{"accepted typed over with its digit", true, func(d *Dataset) {
			must(d.SetLabelsAs(HowSuggestedAccepted, []int{7}, []int{1}))
		}, func(d *Dataset) { must(d.Relabel([]int{7}, 1)) }},
		{"accepted deleted then restored", false, func(d *Dataset) {
			must(d.SetLabelsAs(HowSuggestedAccepted, []int{7}, []int{1}))
		}, func(d *Dataset) { must(d.Delete([]int{7})); must(d.Restore([]int{7})) }},
		{"decision after a save", true, func(d *Dataset) { must(d.Relabel([]int{3}, 9)) }, func(d *Dataset) {
			must(d.Save(nil))
			must(d.DecideAs(HowManual, 4, 4))
		}},
		{"undo past the save then an edit", true, nil, func(d *Dataset) {
			must(d.Relabel([]int{3}, 9))
			must(d.Save(nil))
			if _, _, err := d.Undo(); err != nil {
				t.Fatal(err)
			}
			must(d.Relabel([]int{8}, 2))
			must(d.Relabel([]int{8}, 8))
		}},
		{"redo after a save of an undo", true, nil, func(d *Dataset) {
			must(d.Relabel([]int{3}, 9))
			must(d.Relabel([]int{4}, 9))
			if _, _, err := d.Undo(); err != nil {
				t.Fatal(err)
			}
			must(d.Save(nil))
			if _, _, err := d.Redo(); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, c := range cases {
		for _, how := range []string{"killed", "closed"} {
			t.Run(c.name+"/"+how, func(t *testing.T) {
				t.Setenv("XDG_CONFIG_HOME", t.TempDir())
				ip, lp := tinyPair(t, t.TempDir(), 20)
				d, err := Open(ip, lp, Options{})
				must(err)
				if c.setup != nil {
					c.setup(d)
					must(d.Save(nil))
					d.Close()
					if d, err = Open(ip, lp, Options{}); err != nil {
						t.Fatal(err)
					}
				}
				c.edits(d)
				dirty := d.Dirty()
				if dirty != c.dirty {
					t.Fatalf("Dirty %v, want %v", dirty, c.dirty)
				}
				journal := journalPath(d)
				if how == "killed" {
					killed(t, d)
				} else {
					d.Close()
				}
				if _, err := os.Stat(journal); err != nil && dirty {
					t.Fatalf("dirty, but the journal went at %s: %v", how, err)
				}
				d, err = Open(ip, lp, Options{})
				must(err)
				defer d.Close()
				if r := d.Recovery(); (r != nil) != dirty {
					t.Fatalf("dirty %v when %s, but its journal offered: %v", dirty, how, r != nil)
				}
			})
		}
	}
}
