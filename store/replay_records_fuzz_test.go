package store

import (
	"os"
	"testing"

	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
)

// FuzzReplayRecords frames arbitrary payloads as intact journal records (true lengths and
// CRC-32C, after this pair's own base record), so that the fuzzer reaches the replay of every
// record type instead of stopping at a checksum, as FuzzReplay's raw bytes nearly always do. The
// input is a sequence of records, each a length byte and that many payload bytes. Whatever the
// records: nothing panics, every label after the replay is one a ubyte file holds, and the
// dataset saves and reopens with exactly the labels it showed.
func FuzzReplayRecords(f *testing.F) {
	seeds := [][]byte{
		enc{recRelabel}.u32(2).u32(0).i32(9).u32(3).i32(9),
		enc{recAppend}.u32(1).u32(16).i32(4).bytes(make([]byte, 16)),
		enc{recAppend}.u32(1).u32(16).i32(4).bytes(make([]byte, 16)).u16(0).u8(markAccepted | markReviewed),
		enc{recAppend}.u32(2).u32(16).i32(4).i32(5).bytes(make([]byte, 32)).u16(0).u16(0).u8(markAccepted).u8(markReviewed),
		enc{recAppend}.u32(2).u32(16).i32(4).i32(5).bytes(make([]byte, 32)).u16(0).u16(0).u8(markAccepted),
		enc{recAppend}.u32(1).u32(16).i32(4).bytes(make([]byte, 16)).u16(0).u8(4),
		enc{recAppend}.u32(0x7fffffff).u32(16).i32(4).bytes(make([]byte, 16)).u16(0).u8(markAccepted),
		enc{recHistory}.u32(0).u32(1).u8(hAppendMarked).prov(provenance{how: HowAddedImported}).u32(1).u32(16).i32(4).bytes(make([]byte, 16)).u16(0).u8(markAccepted | markReviewed),
		enc{recHistory}.u32(0).u32(1).u8(hAppendMarked).prov(provenance{how: HowAddedImported}).u32(0x7fffffff).u32(16).i32(4),
		enc{recDelete}.u32(1).u32(2),
		{recUndo}, {recRedo},
		enc{recDecide}.u32(5).i32(1),
		enc{recRestore}.u32(1).u32(2),
		enc{recRelabel}.u32(1).u32(0).i32(300),
		enc{recDelete}.u32(1).u32(0xffffffff),
	}
	var all []byte
	for _, s := range seeds {
		all = append(all, byte(len(s)))
		all = append(all, s...)
		f.Add(append([]byte{byte(len(s))}, s...))
	}
	f.Add(all)
	f.Fuzz(func(t *testing.T, data []byte) {
		t.Setenv("XDG_CONFIG_HOME", t.TempDir())
		ip, lp := tinyPair(t, t.TempDir(), 12)
		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		file := append([]byte(journal.MagicV2), journal.Frame(d.baseRecord())...)
		d.Close()
		for len(data) > 0 {
			n := int(data[0])
			data = data[1:]
			if n == 0 || n > len(data) {
				break
			}
			file = append(file, journal.Frame(data[:n])...)
			data = data[n:]
		}
		if err := os.WriteFile(lp+pairfile.JournalSuffix, file, 0o644); err != nil {
			t.Fatal(err)
		}
		d, err = Open(ip, lp, Options{})
		if err != nil {
			t.Fatalf("a journal blocked opening: %v", err)
		}
		if rec := d.Recovery(); rec != nil {
			if !rec.Matches {
				t.Fatalf("the journal written against these files does not match them: %s", rec.Reason)
			}
			d.ReplayJournal()
		}
		var want []int
		for i := range d.Len() {
			l := d.Label(i)
			if l < 0 || l > 255 {
				t.Fatalf("sample %d has label %d after a replay", i, l)
			}
			if !d.State(i).Deleted {
				want = append(want, l)
			}
		}
		if len(want) == 0 {
			d.Close()
			return
		}
		if err := d.Save(nil); err != nil {
			t.Fatalf("save after a replay: %v", err)
		}
		d.Close()
		d, err = Open(ip, lp, Options{})
		if err != nil {
			t.Fatalf("reopening the saved pair: %v", err)
		}
		defer d.Close()
		if d.Len() != len(want) {
			t.Fatalf("saved %d samples, reopened %d", len(want), d.Len())
		}
		for i, l := range want {
			if d.Label(i) != l {
				t.Fatalf("sample %d: label %d shown, %d saved", i, l, d.Label(i))
			}
		}
	})
}
