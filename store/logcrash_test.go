package store

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// TestLogCrashChild is the child of TestChangeLogSurvivesAKilledSave (selected by the
// IDXLABEL_LOG_CHILD variable, which names the moment): it relabels samples 0, 1 and 2 and
// saves, stopping for good at that moment of the save until the parent kills it (SIGKILL):
// "renamed", after the label file's rename (the only one: the images are not written), before
// the change log has the save's rows; "kept", once the rows are on disk beside the save record,
// before the record is written; "appended", once they are in the change log, before the rows'
// file and the record are removed.
func TestLogCrashChild(t *testing.T) {
	stop := os.Getenv("IDXLABEL_LOG_CHILD")
	if stop == "" {
		return // only meaningful as a child of TestChangeLogSurvivesAKilledSave
	}
	d, err := Open(os.Getenv("IDXLABEL_IMAGES"), os.Getenv("IDXLABEL_LABELS"), Options{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	for i := range 3 {
		if err := d.Relabel([]int{i}, (d.Label(i)+1)%10); err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
	}
	halt := func() {
		fmt.Println("stopped")
		select {}
	}
	if stop == "renamed" {
		pairfile.AfterRename = func(int) { halt() }
	} else {
		pairfile.AfterRows = func(moment string) {
			if moment == stop {
				halt()
			}
		}
	}
	if err := d.Save(nil); err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	fmt.Println("error the save was not stopped")
	os.Exit(3)
}

// A save killed (SIGKILL) between its renames and its change-log rows (the labels are saved,
// the log does not have them yet) leaves the log complete once the pair is opened again: it holds
// exactly the entries of every save, each once, whether the kill came before the rows were
// appended or after (their file not yet removed), and opening the pair again adds nothing. A
// save killed before its record was written (its rows kept, no file replaced) adds no entry: the
// edits are offered from the journal instead. (Before, the entries of a save killed after its
// renames were never written: the log missed that save.) The log grows by the rows themselves;
// the rows' file beside the record is removed with it.
func TestChangeLogSurvivesAKilledSave(t *testing.T) {
	for _, stop := range []string{"renamed", "appended", "kept"} {
		t.Run(stop, func(t *testing.T) {
			t.Setenv("XDG_CONFIG_HOME", t.TempDir())
			ip, lp := copyPair(t, 300, false)
			log := lp + ChangesSuffix
			orig, err := idx.ReadFile(lp)
			if err != nil {
				t.Fatal(err)
			}
			// A save before, not cut off: its entry is in the log.
			d, err := Open(ip, lp, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := d.Relabel([]int{10}, (d.Label(10)+1)%10); err != nil {
				t.Fatal(err)
			}
			if err := d.Save(nil); err != nil {
				t.Fatal(err)
			}
			d.Close()
			want := [][3]int{{10, int(orig.Data[10]), (int(orig.Data[10]) + 1) % 10}}
			assertLogRows(t, log, want)

			cmd := exec.Command(os.Args[0], "-test.run=^TestLogCrashChild$")
			cmd.Env = append(os.Environ(), "IDXLABEL_LOG_CHILD="+stop, "IDXLABEL_IMAGES="+ip, "IDXLABEL_LABELS="+lp)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitFor(t, bufio.NewScanner(out), "stopped")
			cmd.Process.Kill() // SIGKILL
			cmd.Wait()
			saved := stop != "kept"
			if now, err := idx.ReadFile(lp); err != nil || saved != (now.Data[0] != orig.Data[0]) {
				t.Fatalf("the kill did not land where it was meant to: label file %v, sample 0's label %d (was %d)", err, now.Data[0], orig.Data[0])
			}
			if saved {
				for i := range 3 {
					want = append(want, [3]int{i, int(orig.Data[i]), (int(orig.Data[i]) + 1) % 10})
				}
			}
			for range 2 { // opened again, then once more: the second opening adds nothing
				d, err = Open(ip, lp, Options{})
				if err != nil {
					t.Fatal(err)
				}
				assertLogRows(t, log, want)
				if rec := d.Recovery(); !saved && (rec == nil || rec.Edits != 3 || !rec.Matches) {
					t.Fatalf("the edits of the save that did not happen: journal %+v", rec)
				}
				d.Close()
			}
			for _, kind := range []string{"log", "saving"} {
				if left, _ := filepath.Glob(filepath.Join(filepath.Dir(lp), "*.idxlabel-"+kind+"*")); len(left) > 0 {
					t.Fatalf("left beside the pair: %q", left)
				}
			}
			if j := lp + pairfile.JournalSuffix; stop == "appended" && fileExists(j) {
				t.Fatalf("the journal of the edits saved, %s, is left to be offered again", j)
			}
		})
	}
}

// assertLogRows checks that the change log at path is its header and then exactly the rows
// want (index, original, new of each), in order.
func assertLogRows(t *testing.T, path string, want [][3]int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("the change log: %v", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("the change log: %v", err)
	}
	var got [][3]int
	for _, r := range rows[1:] {
		var e [3]int
		for k := range e {
			e[k], _ = strconv.Atoi(r[k])
		}
		got = append(got, e)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the change log holds (index, original, new) %v, want %v", got, want)
	}
}
