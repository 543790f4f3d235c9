package health

import (
	"idxlabel/demo"
	suspecthealth "idxlabel/suspect/health"
	"idxlabel/ui/mode/modetest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// After a save that left out a listed sample, each kind counts the findings it still lists: the
// tab said "Leaks 5" over 4 tiles. The flagged outliers come first in their list: one of them
// saved away is one fewer flagged, one of the rest is not.
func TestCheckCountsFollowASave(t *testing.T) {
	f := newFindings([]suspecthealth.Kind{suspecthealth.Leak, suspecthealth.Outlier}, 0.98)
	leaks, outliers := f.Lists[suspecthealth.Leak], f.Lists[suspecthealth.Outlier]
	for _, i := range []int{3, 10, 20, 30, 40} {
		leaks.Order = append(leaks.Order, i)
		leaks.Of[i] = Item{}
	}
	leaks.Flagged, leaks.Found = 5, 5
	for _, i := range []int{50, 10, 60, 70} { // 50 and 10 flagged
		outliers.Order = append(outliers.Order, i)
		outliers.Of[i] = Item{}
	}
	outliers.Flagged, outliers.Found = 2, 4
	renumber := make([]int, 100)
	for i := range renumber {
		renumber[i] = i
		if i > 10 {
			renumber[i] = i - 2
		}
	}
	renumber[10], renumber[60] = -1, -1 // 10 is a leak and a flagged outlier; 60 an outlier not flagged
	g := f.renumbered(renumber)
	if l := g.Lists[suspecthealth.Leak]; len(l.Order) != 4 || l.Flagged != 4 || l.Found != 4 {
		t.Fatalf("leaks after the save: %d listed, %d flagged, %d found; want 4", len(l.Order), l.Flagged, l.Found)
	}
	if l := g.Lists[suspecthealth.Outlier]; len(l.Order) != 2 || l.Flagged != 1 || l.Found != 2 || l.Order[0] != 48 {
		t.Fatalf("outliers after the save: %v listed, %d flagged, %d found; want [48 68], 1, 2", l.Order, l.Flagged, l.Found)
	}
}

// A leak's copy in the other set is captioned with that set's name: "3  #1681" read as this set's
// sample 1681, whose label had changed.
func TestLeakCaptionNamesTheOtherSet(t *testing.T) {
	ds, err := demo.Dataset()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Abandon(); ds.Close() })
	c := modetest.New(ds)
	f := newFindings([]suspecthealth.Kind{suspecthealth.Leak}, 0.98)
	f.Other = &OtherSet{ds: ds, Snap: ds.Snapshot(), name: "train-images-idx3-ubyte.gz"}
	f.Lists[suspecthealth.Leak].Order = []int{0}
	f.Lists[suspecthealth.Leak].Of[0] = Item{Others: []int{7}}
	m := &Mode{F: f, kind: suspecthealth.Leak}
	a := m.About(c.State(), 0)
	want := c.State().Classes.Short(f.Other.Snap.Labels[7]) + "  train #7"
	if len(a.Thumbs) != 1 || a.Thumbs[0].Caption != want {
		t.Fatalf("the leak's copy is captioned %+v, want %q", a.Thumbs, want)
	}
}

// The other set remembered per pair is a preference, untrusted: malformed entries are skipped, a
// file that no longer exists is not offered, and the list stays bounded.
func TestCheckAgainstPreference(t *testing.T) {
	k := &Checker{prefs: test.NewTempApp(t).Preferences()}
	dir := t.TempDir()
	there := filepath.Join(dir, "train-images-idx3-ubyte")
	os.WriteFile(there, []byte("x"), 0o644)
	pair := "/data/a-images-idx3-ubyte\n/data/a-labels-idx1-ubyte\n"
	k.prefs.SetStringList(checkAgainstKey, []string{"garbage", pair + "relative\nmore", pair + filepath.Join(dir, "gone"), pair + there})
	if got := k.LastAgainst("/data/a-images-idx3-ubyte", "/data/a-labels-idx1-ubyte"); got != "" {
		t.Fatalf("a vanished file was offered: %q", got)
	}
	k.prefs.SetStringList(checkAgainstKey, []string{"garbage", pair + "relative\nmore", pair + there})
	if got := k.LastAgainst("/data/a-images-idx3-ubyte", "/data/a-labels-idx1-ubyte"); got != there {
		t.Fatalf("offered %q, want %q", got, there)
	}
	for n := range 30 {
		k.Remember("/data/"+strconv.Itoa(n), "", []string{there, ""})
	}
	list := k.prefs.StringList(checkAgainstKey)
	if len(list) != checkAgainstKept || !strings.HasPrefix(list[0], "/data/29\n") {
		t.Fatalf("%d entries, first %q", len(list), list[0])
	}
	k.Remember("/data/29", "", nil)
	if got := k.LastAgainst("/data/29", ""); got != "" || len(k.prefs.StringList(checkAgainstKey)) != checkAgainstKept-1 {
		t.Fatalf("forgotten pair still offers %q", got)
	}
}
