package ui

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"idxlabel/fixture/digits"
	"idxlabel/fixture/mnisttest"
	"idxlabel/fixture/planted"
	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/suspect"
	suspecthealth "idxlabel/suspect/health"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/health"
	"idxlabel/ui/scan"
)

// quickCNN is the short CNN recipe of the ui tests (and of IDXLABEL_QUICK_CNN=1).
var quickCNN = suspect.CNNOptions{Folds: 2, Seeds: 1, Epochs: 2}

// plantedCheck is a small pair for the check's tests, written to a temporary folder: 1,500
// digits with 4 copies of its own samples, 4 copies of the other set's samples, 3 non-digits and
// 10 flipped labels planted (fixture/planted, seed 7), and the other set of 3,000 digits, whose
// files the leak kind reads. The digits are generated (fixture/digits: its first 1,500, and the
// next 3,000 as the other set) or real (t10k's first 1,500, the first 3,000 training samples).
type plantedCheck struct {
	set                  *planted.Set
	images, labels       string // the pair's files
	otherImg, otherLabel string // the other set's files
}

// plantedN and plantedOther are the samples of a planted check's pair and of its other set.
const plantedN, plantedOther = 1500, 3000

// plantedSources are where a planted check's digits come from: the pair's and the other set's.
var plantedSources = []struct {
	name string
	load func(t *testing.T) (images, labels, train, trainLabels *idx.Array)
}{
	{"digits", func(t *testing.T) (*idx.Array, *idx.Array, *idx.Array, *idx.Array) {
		images, labels := digits.Load(t, plantedN+plantedOther)
		other, err := idx.New(idx.UByte, plantedOther, 28, 28)
		if err != nil {
			t.Fatal(err)
		}
		otherLabels, err := idx.New(idx.UByte, plantedOther)
		if err != nil {
			t.Fatal(err)
		}
		copy(other.Data, images.Data[plantedN*784:])
		copy(otherLabels.Data, labels.Data[plantedN:])
		return images, labels, other, otherLabels
	}},
	{"t10k", func(t *testing.T) (*idx.Array, *idx.Array, *idx.Array, *idx.Array) {
		images, labels := mnisttest.Load(t)
		train, trainLabels := mnisttest.LoadTrain(t)
		return images, labels, train, trainLabels
	}},
}

// eachPlanted runs f as subtests on a planted check of each source (plantedSources): "digits"
// runs everywhere, "t10k" skips without the real files (saying so) or fails when they are
// required. These tests train the CNN: they skip under -short.
func eachPlanted(t *testing.T, f func(t *testing.T, pc plantedCheck)) {
	if testing.Short() {
		t.Skip("trains the CNN scan (seconds): not in -short")
	}
	for _, src := range plantedSources {
		t.Run(src.name, func(t *testing.T) {
			images, labels, train, trainLabels := src.load(t)
			f(t, newPlantedCheck(t, images, labels, train, trainLabels))
		})
	}
}

func newPlantedCheck(t *testing.T, images, labels, train, trainLabels *idx.Array) plantedCheck {
	t.Helper()
	const n, on = plantedN, plantedOther
	rng := rand.New(rand.NewPCG(7, 20))
	p := planted.Plant(rng, images.Data, labels.Data, n, train.Data, trainLabels.Data, on,
		planted.Plan{Duplicates: 4, Leaks: 4, Outliers: 3, Flips: 10})
	dir := t.TempDir()
	pc := plantedCheck{set: p,
		images: filepath.Join(dir, "small-images-idx3-ubyte"), labels: filepath.Join(dir, "small-labels-idx1-ubyte"),
		otherImg: filepath.Join(dir, "train-images-idx3-ubyte"), otherLabel: filepath.Join(dir, "train-labels-idx1-ubyte")}
	write := func(ip, lp string, px []byte, ls []int, count int) {
		a, err := idx.New(idx.UByte, count, 28, 28)
		if err != nil {
			t.Fatal(err)
		}
		copy(a.Data, px[:count*784])
		l, err := idx.New(idx.UByte, count)
		if err != nil {
			t.Fatal(err)
		}
		for i := range count {
			l.Data[i] = byte(ls[i])
		}
		if err := pairfile.WritePair(ip, lp, a, l); err != nil {
			t.Fatal(err)
		}
	}
	write(pc.images, pc.labels, p.Pixels, p.Labels, n)
	tl := make([]int, on)
	for i := range tl {
		tl[i] = int(trainLabels.Data[i])
	}
	write(pc.otherImg, pc.otherLabel, train.Data, tl, on)
	return pc
}

// open opens the planted pair for editing in a new headless window whose CNN scan is short and
// whose background steps the test runs (queueUI).
func (pc plantedCheck) open(t *testing.T) (*window, *uiQueue, *store.Dataset) {
	t.Helper()
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	q := queueUI(w)
	w.scans.Opts = quickCNN
	ds, err := store.Open(pc.images, pc.labels, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ds.Close() })
	w.c.setDataset(ds, filepath.Base(pc.labels), false)
	return w, q, ds
}

// pixelsOf returns sample i's stored pixels now.
func pixelsOf(t *testing.T, ds *store.Dataset, i int) []byte {
	t.Helper()
	px, ok := ds.PixelsAt(i)
	if !ok {
		t.Fatalf("no sample %d", i)
	}
	return slices.Clone(px)
}

// journalSize returns the size of ds's journal (0 before the first edit).
func journalSize(ds *store.Dataset) int64 {
	fi, err := os.Stat(pairfile.Key(ds.Paths()) + pairfile.JournalSuffix)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// Tools → Check Dataset on a planted pair against its other set: the view shows at once, the
// duplicates and leaks come before the CNN scan's kinds, every planted copy and leak is listed
// with its partner, the planted non-digits are among the outliers; each kind's keys make one
// journaled, undoable decision and move on; the lists survive a save (renumbered); the other
// set is remembered for the pair.
func TestCheckDataset(t *testing.T) {
	eachPlanted(t, func(t *testing.T, pc plantedCheck) {
		w, q, ds := pc.open(t)
		k := w.check
		menuItem(t, w, "Tools", "Check Dataset…").Action()
		if !strings.Contains(overlayText(w), "Leakage against") {
			t.Fatalf("the dialog says %q", overlayText(w))
		}
		focused, ok := w.win.Canvas().Focused().(*dialogs.PromptEntry)
		if !ok {
			t.Fatal("the path field does not have the keys")
		}
		test.Type(focused, pc.otherImg)
		focused.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if w.c.mode != w.check.Mode || k.Check() == nil || k.Check().Job == nil || !slices.Equal(k.Check().Against, []string{pc.otherImg, pc.otherLabel}) {
			t.Fatalf("after Check: mode %v, run %+v", w.c.mode, k.Check())
		}
		if text := k.Mode.View.Buttons(); !slices.Equal(text, []string{"Label errors  …", "Outliers  …", "Duplicates  …", "Leaks  …"}) {
			t.Fatalf("the kinds while starting: %q", text)
		}

		// The quick kinds first: when the duplicates are shown, the CNN's kinds are not yet.
		waitUI(t, q, func() bool { return k.Mode.F.Lists[suspecthealth.Duplicate].State == health.Found })
		if k.Mode.F.Lists[suspecthealth.Label].State != health.Waiting || k.Mode.F.Lists[suspecthealth.Outlier].State != health.Waiting {
			t.Fatal("label errors or outliers came before the duplicates")
		}
		waitUI(t, q, func() bool { return k.Check().Job == nil })
		if k.Check().Why != "" || !k.Check().Complete() {
			t.Fatalf("the check ended: %q", k.Check().Why)
		}
		f := k.Mode.F
		for at, src := range pc.set.Duplicates {
			a, b := min(at, src), max(at, src)
			if x, ok := f.Lists[suspecthealth.Duplicate].Of[a]; !ok || !slices.Contains(x.Others, b) {
				t.Errorf("the planted copy %d of %d is not listed: %+v", at, src, x)
			}
		}
		for at, src := range pc.set.Leaks {
			if x, ok := f.Lists[suspecthealth.Leak].Of[at]; !ok || len(x.Others) == 0 || f.Other.Snap.Index[x.Others[0]] != src {
				t.Errorf("the planted leak %d of training sample %d is not listed: %+v", at, src, x)
			}
		}
		outliers := 0
		for at := range pc.set.Outliers {
			if _, ok := f.Lists[suspecthealth.Outlier].Of[at]; ok {
				outliers++
			}
		}
		t.Logf("%d duplicate tiles, %d leaks, %d label errors, %d outliers listed (%d of 3 planted)", len(f.Lists[suspecthealth.Duplicate].Order),
			len(f.Lists[suspecthealth.Leak].Order), len(f.Lists[suspecthealth.Label].Order), len(f.Lists[suspecthealth.Outlier].Order), outliers)
		if outliers < 2 {
			t.Errorf("only %d of the 3 planted non-digits among the outliers listed", outliers)
		}
		if len(f.Lists[suspecthealth.Outlier].Order) < health.OutliersListed || len(f.Lists[suspecthealth.Label].Order) == 0 {
			t.Fatalf("%d outliers, %d label errors listed", len(f.Lists[suspecthealth.Outlier].Order), len(f.Lists[suspecthealth.Label].Order))
		}

		// Duplicates: each tile the first of its pair, badged with its copy, shown large beside it.
		k.Pick(suspecthealth.Duplicate)
		dups := slices.Clone(w.c.v.order)
		if len(dups) != len(f.Lists[suspecthealth.Duplicate].Order) || w.c.v.cursor != 0 {
			t.Fatalf("the grid shows %d of %d duplicates, cursor %d", len(dups), len(f.Lists[suspecthealth.Duplicate].Order), w.c.v.cursor)
		}
		first := dups[0]
		partner := f.Lists[suspecthealth.Duplicate].Of[first].Others[0]
		if b := badgeTexts(w.grid)[0]; !strings.HasSuffix(b, "=#"+strconv.Itoa(partner)) {
			t.Fatalf("the first duplicate's badge %q", b)
		}
		if a := w.detail.about; !strings.Contains(a.title.Text, "Near-duplicate") || len(a.root.Objects) != 2 {
			t.Fatalf("the detail panel: %q", a.title.Text)
		}
		if l := legendKeys(w); !strings.Contains(l, "Del delete this copy") || !strings.Contains(l, "→ keep both") {
			t.Fatalf("legend %q", l)
		}
		// Delete removes the tile's sample (one journaled step) and moves on.
		size := journalSize(ds)
		w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
		if !ds.State(first).Deleted || ds.State(partner).Deleted || w.c.v.cursor != 1 || journalSize(ds) <= size || ds.UndoName() != "Delete sample "+strconv.Itoa(first) {
			t.Fatalf("Delete: deleted %v/%v, cursor %d, undo %q", ds.State(first).Deleted, ds.State(partner).Deleted, w.c.v.cursor, ds.UndoName())
		}
		// → keeps both: a review decision on the tile's sample.
		second := dups[1]
		keep, size := ds.Label(second), journalSize(ds)
		w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
		if st := ds.State(second); !st.Reviewed || st.Label != keep || st.Deleted || w.c.v.cursor != 2 || journalSize(ds) <= size {
			t.Fatalf("→: %+v, cursor %d", st, w.c.v.cursor)
		}
		if !strings.Contains(w.footer.status.Text, "decided 2 / "+strconv.Itoa(len(dups))) {
			t.Fatalf("status %q", w.footer.status.Text)
		}

		// Outliers: a digit relabels (a decision set by hand).
		k.Pick(suspecthealth.Outlier)
		out := w.c.v.At(0)
		to := (ds.Label(out) + 3) % 10
		test.Type(w.grid, strconv.Itoa(to))
		if st := ds.State(out); st.Label != to || !st.Reviewed || w.c.v.cursor != 1 {
			t.Fatalf("a digit on an outlier: %+v, cursor %d", st, w.c.v.cursor)
		}
		if log := ds.ChangeLog(); log[len(log)-1].Index != out || log[len(log)-1].How != store.HowManual {
			t.Fatalf("the change log ends %+v", log[len(log)-1])
		}

		// Label errors: Enter accepts the suggestion.
		k.Pick(suspecthealth.Label)
		lab := w.c.v.Current()
		if st := ds.State(lab); st.Reviewed || st.Deleted {
			t.Fatalf("the cursor is on decided sample %d", lab)
		}
		sugg := f.Lists[suspecthealth.Label].Of[lab].Suggested
		w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		if st := ds.State(lab); st.Label != sugg || !st.Reviewed {
			t.Fatalf("Enter on a label error: %+v, suggested %d", st, sugg)
		}
		if log := ds.ChangeLog(); log[len(log)-1].How != store.HowSuspectAccepted {
			t.Fatalf("the change log ends %+v", log[len(log)-1])
		}

		// Leaks: Delete removes this set's copy; the detail shows the other set's, read-only.
		k.Pick(suspecthealth.Leak)
		leak := w.c.v.At(0)
		if !strings.Contains(w.detail.about.title.Text, "train-images-idx3-ubyte (read-only") {
			t.Fatalf("the leak's detail: %q", w.detail.about.title.Text)
		}
		w.grid.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
		if !ds.State(leak).Deleted {
			t.Fatal("Delete did not delete the leak")
		}
		// Undo takes back the last decision alone.
		w.c.undo()
		if ds.State(leak).Deleted || !ds.State(first).Deleted || ds.Label(lab) != sugg {
			t.Fatal("undo did not take back just the last decision")
		}
		w.c.redo()

		// A save renumbers the lists: the deleted samples are gone, the rest follow their pixels.
		before := map[suspecthealth.Kind]map[int][]byte{}
		partners := map[int][]byte{} // a duplicate tile's first copy's pixels, by the tile's pixels' key
		for kind, l := range f.Lists {
			before[kind] = map[int][]byte{}
			for _, i := range l.Order {
				before[kind][i] = pixelsOf(t, ds, i)
				if kind == suspecthealth.Duplicate {
					partners[i] = pixelsOf(t, ds, l.Of[i].Others[0])
				}
			}
		}
		w.save.save()
		waitUI(t, q, func() bool { return !w.jobs.Busy() && !ds.Dirty() })
		if w.c.mode != w.check.Mode || k.Mode.F == nil {
			t.Fatalf("after the save: mode %v", w.c.mode)
		}
		g := k.Mode.F
		for kind, l := range g.Lists {
			if want := len(before[kind]) - countDeleted(before[kind], first, leak); len(l.Order) != want {
				t.Errorf("%s: %d listed after the save, want %d", kind, len(l.Order), want)
			}
			for _, i := range l.Order {
				px := pixelsOf(t, ds, i)
				found := false
				for old, p := range before[kind] {
					if bytes.Equal(p, px) {
						found = true
						if kind == suspecthealth.Duplicate && !bytes.Equal(pixelsOf(t, ds, l.Of[i].Others[0]), partners[old]) {
							t.Errorf("duplicate %d's copy was not renumbered with it", i)
						}
					}
				}
				if !found {
					t.Errorf("%s: sample %d after the save is not one that was listed", kind, i)
				}
			}
		}
		k.Pick(suspecthealth.Duplicate)
		if w.c.v.Len() != len(dups)-1 || w.c.v.ndone != 1 {
			t.Fatalf("after the save the duplicates show %d, %d decided", w.c.v.Len(), w.c.v.ndone)
		}

		// The other set is remembered for the pair, and was never written.
		if got := k.LastAgainst(pc.images, pc.labels); got != pc.otherImg {
			t.Fatalf("remembered %q", got)
		}
		if _, err := os.Stat(pc.otherImg + pairfile.JournalSuffix); err == nil {
			t.Fatal("the other set got a journal")
		}
	})
}

// countDeleted counts which of the samples deleted (then saved away) a list held.
func countDeleted(list map[int][]byte, deleted ...int) int {
	n := 0
	for _, i := range deleted {
		if _, ok := list[i]; ok {
			n++
		}
	}
	return n
}

// Cancel while the check waits for the CNN scan it started: the check ends, the scan stops,
// the duplicates found stay; a scan another view asked for goes on. Cancel in the first pass
// ends the check too.
func TestCheckCancel(t *testing.T) {
	eachPlanted(t, func(t *testing.T, pc plantedCheck) {
		w, q, ds := pc.open(t)
		k := w.check
		k.Start(nil)
		waitUI(t, q, func() bool { return k.Check().WaitingScan })
		if !k.Check().StartedScan || !w.scans.Running() {
			t.Fatalf("the check did not start the CNN scan: %v", k.Check().StartedScan)
		}
		// Focused from the keyboard, Cancel passes a digit on to the grid (and cancels nothing).
		focusedPassesDigit(t, w, ds, "the check's Cancel", k.Mode.View.Cancel)
		if k.Check().Job == nil {
			t.Fatal("a digit typed on the focused Cancel ended the check")
		}
		k.Mode.View.Cancel.OnTapped()
		if k.Check().Job != nil || k.Check().Why != "cancelled" || w.scans.Running() {
			t.Fatalf("after Cancel: running %v, why %q, scan %v", k.Check().Job != nil, k.Check().Why, w.scans.Running())
		}
		f := k.Mode.F
		if f.Lists[suspecthealth.Label].State != health.Stopped || f.Lists[suspecthealth.Duplicate].State != health.Found || len(f.Lists[suspecthealth.Duplicate].Order) < 4 {
			t.Fatalf("after Cancel: label %v, duplicates %v (%d)", f.Lists[suspecthealth.Label].State, f.Lists[suspecthealth.Duplicate].State, len(f.Lists[suspecthealth.Duplicate].Order))
		}
		if !strings.Contains(k.Mode.View.Note.Text, "stopped: cancelled") || k.Mode.View.Running.Visible() {
			t.Fatalf("the view says %q", k.Mode.View.Note.Text)
		}
		if b := k.Mode.View.Buttons(); b[0] != "Label errors  —" {
			t.Fatalf("buttons %q", b)
		}
		q.run()
		if w.c.mode != w.check.Mode || k.Mode.F.Lists[suspecthealth.Label].State != health.Stopped {
			t.Fatal("the stopped scan delivered")
		}

		// A scan another view asked for goes on when the check is cancelled (a long one: it must
		// outlast the check's first pass).
		w.scans.Opts.Epochs = 40
		w.scans.Analyse(func(*scan.Analysis) {})
		k.Start(nil)
		waitUI(t, q, func() bool { return k.Check().WaitingScan })
		if k.Check().StartedScan {
			t.Fatal("the check claims the scan another view started")
		}
		k.Cancel()
		if !w.scans.Running() || w.scans.Waiting() != 2 || k.Check().Job != nil {
			t.Fatalf("cancel: scan running %v, %d waiting, check running %v", w.scans.Running(), w.scans.Waiting(), k.Check().Job != nil)
		}
		w.scans.Stop()
		w.scans.Opts.Epochs = quickCNN.Epochs

		// Cancel in the first pass.
		k.Start(nil)
		k.Cancel()
		waitUI(t, q, func() bool { return k.Check().Job == nil })
		if k.Check().Why != "cancelled" || k.Mode.F.Lists[suspecthealth.Duplicate].State != health.Stopped {
			t.Fatalf("cancelled in the first pass: %q, duplicates %v", k.Check().Why, k.Mode.F.Lists[suspecthealth.Duplicate].State)
		}
	})
}

// A save while the check waits for the CNN scan: usually the scan ends after the save, goes
// stale, and the check asks for a new one (TestAnalyseOrStale covers that path alone); if the
// scan ends first, what the second pass finds is renumbered as the lists are. Either way label
// errors and outliers are found in the new numbering: every finding's label is its sample's
// label now.
func TestCheckSaveDuringScan(t *testing.T) {
	eachPlanted(t, func(t *testing.T, pc plantedCheck) {
		w, q, ds := pc.open(t)
		w.scans.Opts.Epochs = 6 // a scan that outlasts the save
		k := w.check
		k.Start([]string{pc.otherImg, pc.otherLabel})
		waitUI(t, q, func() bool { return k.Check().WaitingScan })
		if err := ds.Delete([]int{0, 1, 2}); err != nil {
			t.Fatal(err)
		}
		w.c.drain()
		w.save.save()
		waitUI(t, q, func() bool { return k.Check().Job == nil && !w.jobs.Busy() })
		if k.Check().Why != "" || k.Check().Scan == nil || ds.Len() != 1497 {
			t.Fatalf("the check ended: %q, %d samples", k.Check().Why, ds.Len())
		}
		t.Logf("the second pass used a scan of %d samples (1,497: made after the save)", len(k.Check().Scan.Snap.Index))
		for kind, l := range k.Mode.F.Lists {
			if l.State != health.Found || len(l.Order) == 0 {
				t.Fatalf("%s: state %v, %d listed", kind, l.State, len(l.Order))
			}
			for _, i := range l.Order {
				if x := l.Of[i]; x.Label != ds.Label(i) {
					t.Fatalf("%s: sample %d was checked with label %d, has %d", kind, i, x.Label, ds.Label(i))
				}
			}
		}
		for at, src := range pc.set.Duplicates {
			a, b := min(at, src)-3, max(at, src)-3
			if x, ok := k.Mode.F.Lists[suspecthealth.Duplicate].Of[a]; a >= 0 && (!ok || !slices.Contains(x.Others, b)) {
				t.Errorf("the planted copy %d of %d is not listed as %d, %d", at, src, a, b)
			}
		}
		if k.Check().Current(modeHost{w.c}) {
			t.Fatal("a check renumbered while it ran counts as current (the report would misnumber it)")
		}
	})
}

// Images without labels: the check runs outliers (from the pixels) and duplicates in one pass,
// without a CNN scan; no label kind.
func TestCheckWithoutLabels(t *testing.T) {
	w := newTestWindow(t)
	w.win.Resize(fyne.NewSize(1280, 820))
	q := queueUI(w)
	ds, _ := demoStore(t, false)
	w.c.setDataset(ds, "demo images", false)
	k := w.check
	k.Start(nil)
	waitUI(t, q, func() bool { return k.Check().Job == nil })
	f := k.Mode.F
	if !k.Check().Complete() || k.Check().Scan != nil || w.scans.Running() || !slices.Equal(f.Kinds, []suspecthealth.Kind{suspecthealth.Outlier, suspecthealth.Duplicate}) {
		t.Fatalf("kinds %v, scan %v", f.Kinds, k.Check().Scan != nil)
	}
	l := f.Lists[suspecthealth.Outlier]
	if l.State != health.Found || len(l.Order) != health.OutliersListed {
		t.Fatalf("outliers: %v, %d listed", l.State, len(l.Order))
	}
	for _, i := range l.Order {
		if x := l.Of[i]; x.Suggested != sample.NoLabel || x.Label != sample.NoLabel {
			t.Fatalf("outlier %d: %+v", i, x)
		}
	}
	if !strings.Contains(k.Mode.View.Note.Text, "Checked 300 samples in") {
		t.Fatalf("the view says %q", k.Mode.View.Note.Text)
	}
}
