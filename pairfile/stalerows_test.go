package pairfile

import (
	"os"
	"path/filepath"
	"testing"

	"idxlabel/idx"
)

// Rows left beside the record by a save cut off before it wrote its record (it replaced
// nothing) are never appended under the record of a later write of the pair that has no rows of
// its own (a command-line write, or a save with the change log off) and is cut off after its
// renames: the next opening finishes that write and leaves the change log as it was. A folder
// planted there is moved aside rather than stopping the write.
func TestStaleRowsAreNotAnotherWritesRows(t *testing.T) {
	for _, planted := range []string{"rows", "folder"} {
		t.Run(planted, func(t *testing.T) {
			ip, lp := writeTestPair(t, 20, 2, 2)
			log := ChangesFile(ip, lp)
			stale := rowsPath(RecordPath(ip, lp))
			if planted == "rows" {
				if err := writeRows(stale, &ChangeRows{Log: log, Rows: []byte("index,original,new,how,when,source\n3,3,4,manual,,\n")}); err != nil {
					t.Fatal(err)
				}
			} else {
				os.MkdirAll(filepath.Join(stale, "x"), 0o755)
			}
			images, _ := idx.New(idx.UByte, 20, 2, 2)
			labels, _ := idx.New(idx.UByte, 20)
			labels.Data[3] = 9
			writeCut(t, ip, lp, images, labels, 1) // killed after its last rename, before its record is removed
			l, err := openPair(ip, lp)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Release()
			notice, err := FinishInterrupted(ip, lp)
			if err != nil {
				t.Fatal(err)
			}
			if b, err := os.ReadFile(log); !os.IsNotExist(err) {
				t.Fatalf("the change log after a write without rows was finished: %q (%v); notice %q", b, err, notice)
			}
			if got, err := idx.ReadFile(lp); err != nil || got.Data[3] != 9 {
				t.Fatalf("the write was not in place: %v", err)
			}
			if fileExists(stale) {
				t.Fatalf("%s is left beside the pair", stale)
			}
		})
	}
}
