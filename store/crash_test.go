package store

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/pairfile"
)

// The crash tests re-run this test binary as a child (TestCrashChild, selected by the
// IDXLABEL_CRASH_CHILD variable), kill it with SIGKILL at random moments, and check what is on
// disk.

func TestCrashChild(t *testing.T) {
	mode := os.Getenv("IDXLABEL_CRASH_CHILD")
	if mode == "" {
		return // only meaningful as a child of the crash tests
	}
	ip, lp := os.Getenv("IDXLABEL_IMAGES"), os.Getenv("IDXLABEL_LABELS")
	d, err := Open(ip, lp, Options{})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	if d.Recovery() != nil {
		d.DiscardJournal(false)
	}
	switch mode {
	case "save":
		// The save's moments, numbered in order: each progress call and each rename. With
		// IDXLABEL_STOP_AT=n the child stops for good at moment n (printing "stopped") until the
		// parent kills it; without it, it prints how many moments an uncut save has.
		stopAt, err := strconv.Atoi(os.Getenv("IDXLABEL_STOP_AT"))
		if err != nil {
			stopAt = -1
		}
		moments := 0
		moment := func() {
			if moments == stopAt {
				fmt.Println("stopped")
				select {}
			}
			moments++
		}
		pairfile.AfterRename = func(int) { moment() }
		nextVersion(d)
		fmt.Println("saving")
		if err := d.Save(func(float64) { moment() }); err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
		fmt.Println("saved", moments)
	case "save-stop":
		// A save of the next version (nextVersion: both files change), by the names the pair was
		// opened with, stopped for good after the first rename (the image file) until the
		// parent kills the process.
		pairfile.AfterRename = func(k int) {
			if k == 0 {
				fmt.Println("between")
				select {}
			}
		}
		nextVersion(d)
		if err := d.Save(nil); err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
	case "save-as-stop":
		// Save As into a new folder, stopped for good after the first rename (the image file)
		// until the parent kills the process: the label file is not in place yet.
		pairfile.AfterRename = func(k int) {
			if k == 0 {
				fmt.Println("between")
				select {}
			}
		}
		d.Relabel([]int{0}, (d.Label(0)+1)%10)
		to := os.Getenv("IDXLABEL_TO")
		if err := saveAs(d, to+"-images-idx3-ubyte.gz", to+"-labels-idx1-ubyte.gz", nil); err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
	case "undo-after-save":
		undoAfterSave(d, func(step int) { fmt.Println("step", step) })
	case "three-edits":
		// Three edits journaled, then stopped for good until the parent kills the process: a
		// window that dies before saving.
		for i := range 3 {
			if err := d.Relabel([]int{i}, (d.Label(i)+1)%10); err != nil {
				fmt.Println("error", err)
				os.Exit(3)
			}
		}
		fmt.Println("edited")
		select {}
	case "edits":
		for i := 1; i < d.Len(); i++ {
			if err := d.Relabel([]int{i}, (d.Label(i)+1)%10); err != nil {
				fmt.Println("error", err)
				os.Exit(3)
			}
			fmt.Println("edit", i)
		}
	}
	os.Exit(0)
}

// nextVersion edits d from version v (the label of sample 0) to v+1: sample 0 relabelled, and a
// sample appended (odd versions) or the last sample deleted (even ones).
func nextVersion(d *Dataset) {
	v := (d.Label(0) + 1) % 10
	d.Relabel([]int{0}, v)
	if v%2 == 1 {
		px := make([]byte, 784)
		for k := range px {
			px[k] = byte(v * k)
		}
		d.Append([]Sample{{Pixels: px, Label: v}})
	} else {
		d.Delete([]int{d.Len() - 1})
	}
}

// pairState is the decoded content of both files.
type pairState struct{ images, labels *idx.Array }

func (p pairState) equal(o pairState) bool {
	return slices.Equal(p.images.Data, o.images.Data) && slices.Equal(p.labels.Data, o.labels.Data) &&
		p.images.Header.String() == o.images.Header.String() && p.labels.Header.String() == o.labels.Header.String()
}

// expectedNext computes version v+1 of the files from version v, as nextVersion and a save do.
func expectedNext(p pairState) pairState {
	images := &idx.Array{Header: idx.Header{Type: idx.UByte, Dims: slices.Clone(p.images.Dims)}, Data: slices.Clone(p.images.Data)}
	labels := &idx.Array{Header: idx.Header{Type: idx.UByte, Dims: slices.Clone(p.labels.Dims)}, Data: slices.Clone(p.labels.Data)}
	v := (labels.Data[0] + 1) % 10
	labels.Data[0] = v
	if v%2 == 1 {
		for k := range 784 {
			images.Data = append(images.Data, byte(int(v)*k))
		}
		labels.Data = append(labels.Data, v)
	} else {
		images.Data = images.Data[:len(images.Data)-784]
		labels.Data = labels.Data[:len(labels.Data)-1]
	}
	images.Dims[0], labels.Dims[0] = len(labels.Data), len(labels.Data)
	return pairState{images, labels}
}

func readPair(t *testing.T, ip, lp string) pairState {
	t.Helper()
	images, err := idx.ReadFile(ip)
	if err != nil {
		t.Fatalf("after a kill the image file is not a complete IDX file: %v", err)
	}
	labels, err := idx.ReadFile(lp)
	if err != nil {
		t.Fatalf("after a kill the label file is not a complete IDX file: %v", err)
	}
	return pairState{images, labels}
}

func child(t *testing.T, mode, ip, lp string, env ...string) (*exec.Cmd, *bufio.Scanner) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$")
	cmd.Env = append(os.Environ(), "IDXLABEL_CRASH_CHILD="+mode, "IDXLABEL_IMAGES="+ip, "IDXLABEL_LABELS="+lp)
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, bufio.NewScanner(out)
}

func waitFor(t *testing.T, sc *bufio.Scanner, line string) {
	for sc.Scan() {
		if sc.Text() == line {
			return
		}
		if len(sc.Text()) > 5 && sc.Text()[:5] == "error" {
			t.Fatal(sc.Text())
		}
	}
	t.Fatalf("child ended before printing %q", line)
}

// TestCrashDuringSave kills a saving child at each moment of its save (every progress call and
// every rename, the moment between the two renames among them: the child stops there for good,
// so the kill lands where it is meant to whatever the machine's load), twice over (a save that
// appends a sample, and one that deletes one), and checks that each file is always either the
// old or the new complete file, and that after Open (which finishes a save cut off between its
// two renames) the pair is consistent: both old or both new.
func TestCrashDuringSave(t *testing.T) {
	skipShort(t)
	images, labels := genArrays(3000)
	dir := t.TempDir()
	ip, lp := filepath.Join(dir, "c-images-idx3-ubyte"), filepath.Join(dir, "c-labels-idx1-ubyte.gz")
	idx.WriteFile(ip, images)
	idx.WriteFile(lp, labels)

	// Count the moments of one uncut save.
	cmd, sc := child(t, "save", ip, lp)
	waitFor(t, sc, "saving")
	moments := -1
	for sc.Scan() {
		if n, ok := strings.CutPrefix(sc.Text(), "saved "); ok {
			moments, _ = strconv.Atoi(n)
			break
		}
	}
	io.Copy(io.Discard, cmd.Stdout.(io.Reader))
	if err := cmd.Wait(); err != nil || moments < 4 {
		t.Fatalf("an uncut save: %d moments, %v", moments, err)
	}

	outcomes := map[string]int{}
	for round := range 2 * moments {
		at := round % moments
		old := readPair(t, ip, lp)
		next := expectedNext(old)
		cmd, sc := child(t, "save", ip, lp, "IDXLABEL_STOP_AT="+strconv.Itoa(at))
		waitFor(t, sc, "stopped")
		cmd.Process.Kill()
		io.Copy(io.Discard, cmd.Stdout.(io.Reader))
		cmd.Wait()

		now := readPair(t, ip, lp)
		imagesOld, imagesNew := slices.Equal(now.images.Data, old.images.Data), slices.Equal(now.images.Data, next.images.Data)
		labelsOld, labelsNew := slices.Equal(now.labels.Data, old.labels.Data), slices.Equal(now.labels.Data, next.labels.Data)
		if !imagesOld && !imagesNew || !labelsOld && !labelsNew {
			t.Fatalf("round %d (killed at moment %d): a file is neither the old nor the new version", round, at)
		}
		key := fmt.Sprintf("images %s, labels %s", map[bool]string{true: "old", false: "new"}[imagesOld], map[bool]string{true: "old", false: "new"}[labelsOld])
		outcomes[key]++

		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatalf("round %d: open after the kill: %v", round, err)
		}
		d.Close()
		after := readPair(t, ip, lp)
		if !after.equal(old) && !after.equal(next) {
			t.Fatalf("round %d (killed at moment %d): after Open the pair is mixed (%s)", round, at, key)
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Name() == filepath.Base(lp)+".idxlabel-saving" || filepath.Ext(e.Name()) == ".idxlabel-backup" {
				t.Fatalf("round %d: Open left %s", round, e.Name())
			}
		}
	}
	t.Logf("outcomes of %d kills: %v", 2*moments, outcomes)
	if outcomes["images new, labels old"] != 2 || outcomes["images old, labels old"] == 0 || outcomes["images new, labels new"] == 0 {
		t.Fatalf("the kills did not land before, between and after the renames: %v", outcomes)
	}
}

// TestCrashAfterEdits kills a child after it reported N edits done, 10 times, and checks that
// the journal replays all N (and whatever more it had finished) exactly.
func TestCrashAfterEdits(t *testing.T) {
	ip, lp := writeTestPair(t, 400, 28, 28)
	rng := rand.New(rand.NewPCG(3, 3))
	for round := range 10 {
		base := readPair(t, ip, lp)
		n := 5 + rng.IntN(100)
		cmd, sc := child(t, "edits", ip, lp)
		waitFor(t, sc, "edit "+strconv.Itoa(n))
		cmd.Process.Kill()
		io.Copy(io.Discard, cmd.Stdout.(io.Reader))
		cmd.Wait()

		d, err := Open(ip, lp, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rec := d.Recovery()
		if rec == nil || !rec.Matches || rec.Edits < n {
			t.Fatalf("round %d: %d edits reported done, journal %+v", round, n, rec)
		}
		replayed, err := d.ReplayJournal()
		if err != nil || replayed != rec.Edits {
			t.Fatalf("round %d: replayed %d of %d: %v", round, replayed, rec.Edits, err)
		}
		for i := range d.Len() {
			want := int(base.labels.Data[i])
			if i >= 1 && i <= replayed {
				want = (want + 1) % 10
			}
			if d.Label(i) != want {
				t.Fatalf("round %d: sample %d has label %d after replay, want %d", round, i, d.Label(i), want)
			}
		}
		d.DiscardJournal(false)
		d.Close()
	}
}

// TestSaveAsToNewFolderKilledBetweenRenames: a Save As into a new folder killed after the image
// file is in place and before the label file is. Both ways of opening the new pair (the image
// file alone, or both names although the label file is not there yet) find the save record,
// finish the save and show the labels as saved. Before, the image file opened unlabelled with
// the record and temporary file left over, and the pair of names was refused.
func TestSaveAsToNewFolderKilledBetweenRenames(t *testing.T) {
	for _, open := range []string{"images alone", "both names"} {
		t.Run(open, func(t *testing.T) {
			ip, lp := copyPair(t, 300, true)
			to := filepath.Join(t.TempDir(), "new")
			cmd, sc := child(t, "save-as-stop", ip, lp, "IDXLABEL_TO="+to)
			waitFor(t, sc, "between")
			cmd.Process.Kill()
			cmd.Wait()
			nip, nlp := to+"-images-idx3-ubyte.gz", to+"-labels-idx1-ubyte.gz"
			if _, err := os.Stat(nlp); err == nil || !pairfile.SavePending(nlp) {
				t.Fatalf("the kill did not land between the renames (label file there: %v, pending %v)", err == nil, pairfile.SavePending(nlp))
			}
			paths := []string{nip}
			if open == "both names" {
				paths = []string{nlp, nip}
			}
			images, labels, err := pairfile.ClassifyPair(paths)
			if err != nil || images != nip || labels != nlp {
				t.Fatalf("pairfile.ClassifyPair(%v) = %q %q %v", paths, images, labels, err)
			}
			d, err := Open(images, labels, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			orig, _ := idx.ReadFile(lp)
			if d.Len() != 300 || d.Label(0) != (int(orig.Data[0])+1)%10 || d.Label(1) != int(orig.Data[1]) || len(d.Notices()) == 0 {
				t.Fatalf("opened: %d samples, labels %d %d (file had %d), notices %v", d.Len(), d.Label(0), d.Label(1), orig.Data[0], d.Notices())
			}
			if pairfile.SavePending(nlp) {
				t.Fatal("the save record is still there")
			}
			leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(nip), ".*idxlabel-tmp*"))
			if len(leftovers) > 0 {
				t.Fatalf("temporary files left: %v", leftovers)
			}
		})
	}
}
