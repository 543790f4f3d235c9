package store

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/pairfile"
)

// A save whose change-log append fails at its end (here the log has a second name, a hard link,
// made after the labels were renamed, so the append refuses it) keeps its rows beside the label
// file: the next opening appends them, once, whether the window closed without another save
// ("close"), saved again with the log writable ("save again": that save's rows begin with the
// held ones, which it appends, so their file goes), or saved again with the append failing once
// more ("fail again": its rows, the held ones and its own, are held in their place). Opening
// once more adds nothing, and
// nothing is left beside the pair. (Before, the rows file was removed: a window closed after the
// failed append left the log without that save.)
func TestFailedAppendRowsReachTheLogOnce(t *testing.T) {
	for _, then := range []string{"close", "save again", "fail again"} {
		t.Run(then, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", t.TempDir())
			ip, lp := copyPair(t, 300, false)
			log := lp + ChangesSuffix
			d, err := Open(ip, lp, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { d.Close() }()
			var want [][3]int
			relabel := func(i int) {
				t.Helper()
				was := d.Label(i)
				if err := d.Relabel([]int{i}, (was+1)%10); err != nil {
					t.Fatal(err)
				}
				want = append(want, [3]int{i, was, (was + 1) % 10})
			}
			// save saves d; with failAppend, the log gets a second name once the label file is
			// in place (the save's only rename), which its append refuses.
			save := func(failAppend bool) {
				t.Helper()
				second := filepath.Join(t.TempDir(), "second-name.csv")
				if failAppend {
					pairfile.AfterRename = func(int) {
						if err := os.Link(log, second); err != nil {
							t.Error(err)
						}
					}
					defer func() { pairfile.AfterRename = nil; os.Remove(second) }()
				}
				if err := d.Save(nil); err != nil {
					t.Fatal(err)
				}
				if got := d.ChangesFileError(); failAppend != (got != nil) {
					t.Fatalf("the append was meant to fail: %v; ChangesFileError %v", failAppend, got)
				}
			}
			relabel(0)
			save(false)
			assertLogRows(t, log, want)
			relabel(1)
			save(true)
			assertLogRows(t, log, want[:1]) // not there yet
			switch then {
			case "save again":
				relabel(2)
				save(false)
				assertLogRows(t, log, want)
			case "fail again":
				relabel(2)
				save(true)
				assertLogRows(t, log, want[:1])
			}
			d.Close()
			held, _ := filepath.Glob(filepath.Join(filepath.Dir(lp), "*.idxlabel-log.*.held"))
			// The later save's rows begin with the held ones: the file holding them goes.
			if wantHeld := map[string]int{"close": 1, "save again": 0, "fail again": 1}[then]; len(held) != wantHeld {
				t.Fatalf("%d rows files held beside the pair, want %d: %q", len(held), wantHeld, held)
			}
			for range 2 { // opened again, then once more: the second opening adds nothing
				d, err = Open(ip, lp, Options{})
				if err != nil {
					t.Fatal(err)
				}
				assertLogRows(t, log, want)
				if n := strings.Join(d.Notices(), " "); strings.Contains(n, "missing") {
					t.Fatalf("the opening says: %s", n)
				}
				d.Close()
			}
			entries, _ := os.ReadDir(filepath.Dir(lp))
			for _, e := range entries {
				if n := e.Name(); strings.Contains(n, ".idxlabel-log") || strings.HasSuffix(n, ".refused") {
					t.Fatalf("left beside the pair: %s", n)
				}
			}
		})
	}
}
