package store

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func filled(n int, v byte) []byte { return bytes.Repeat([]byte{v}, n) }

// TestHeldPixelsNeverChange: pixels handed out (Pixels, a Snapshot) stay as they were through an
// undone append and the next append, which once wrote into the same buffer.
func TestHeldPixelsNeverChange(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	d, _ := Open(ip, lp, Options{})
	defer d.Close()
	for range 3 { // room in d.added's buffer, as after a few appends
		d.Append([]Sample{{Pixels: filled(4, 9), Label: 1}})
	}
	d.Undo()
	d.Undo()
	i, err := d.Append([]Sample{{Pixels: filled(4, 1), Label: 1}})
	if err != nil {
		t.Fatal(err)
	}
	held := d.Pixels(i)
	snap := d.Snapshot()
	fromSnap := snap.Pixels(snap.N - 1)
	if _, _, err := d.Undo(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Append([]Sample{{Pixels: filled(4, 2), Label: 2}}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(held, filled(4, 1)) || !bytes.Equal(fromSnap, filled(4, 1)) ||
		!bytes.Equal(snap.Pixels(snap.N-1), filled(4, 1)) {
		t.Fatalf("held pixels changed: %v, snapshot %v", held, fromSnap)
	}
	if !bytes.Equal(d.Pixels(i), filled(4, 2)) {
		t.Fatalf("the new sample's pixels: %v", d.Pixels(i))
	}
}

// TestReadsPastLenFailLoudly: after an undone append, the removed index is gone: the plain reads
// panic with a message naming it, the checked ones say so; none returns the old bytes.
func TestReadsPastLenFailLoudly(t *testing.T) {
	ip, lp := writeTestPair(t, 10, 2, 2)
	d, _ := Open(ip, lp, Options{})
	defer d.Close()
	i, _ := d.Append([]Sample{{Pixels: filled(4, 7), Label: 3}})
	d.Undo()
	for name, read := range map[string]func(){
		"Pixels":        func() { d.Pixels(i) },
		"Label":         func() { d.Label(i) },
		"OriginalLabel": func() { d.OriginalLabel(i) },
		"State":         func() { d.State(i) },
	} {
		msg := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			read()
			return "no panic"
		}()
		if !strings.Contains(msg, fmt.Sprintf("store: %s(10): no such sample, the dataset has 10", name)) {
			t.Fatalf("%s past Len: %s", name, msg)
		}
	}
	if px, ok := d.PixelsAt(i); ok || px != nil {
		t.Fatalf("PixelsAt past Len: %v %v", px, ok)
	}
	if _, ok := d.StateAt(i); ok {
		t.Fatal("StateAt past Len says ok")
	}
	if _, ok := d.StateAt(-1); ok {
		t.Fatal("StateAt(-1) says ok")
	}
	if px, ok := d.PixelsAt(9); !ok || len(px) != 4 {
		t.Fatalf("PixelsAt(9): %v %v", px, ok)
	}
	if s, ok := d.StateAt(9); !ok || s.Label != 9 {
		t.Fatalf("StateAt(9): %+v %v", s, ok)
	}
}
