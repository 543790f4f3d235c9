package export

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"idxlabel/internal/atomicfile"
)

// The kill tests run this test binary again as a child (TestExportKillChild, selected by
// IDXLABEL_EXPORT_KILL) that exports and kills itself (SIGKILL on Unix) at one step of the
// export, and check what the next export of the same OUT makes of what it left.

// Sample counts of the three exports in a kill test, so each tree is known by its size: the
// earlier export, the one killed, and the next one.
const (
	earlierN = 6
	killedN  = 1200 // above 500, so the killed export reports progress while building
	nextN    = 9
)

func TestExportKillChild(t *testing.T) {
	at := os.Getenv("IDXLABEL_EXPORT_KILL")
	if at == "" {
		return // only meaningful as a child of the kill tests
	}
	die := func() {
		p, _ := os.FindProcess(os.Getpid())
		p.Kill()
		select {} // the signal ends the process
	}
	step = func(s string) {
		if s == at {
			die()
		}
	}
	opts := Options{Format: PNG, Force: true, Progress: func(done, total int) {
		if at == "building" && done < total {
			die()
		}
	}}
	err := Write(context.Background(), gen(killedN, 4, 4), os.Getenv("IDXLABEL_EXPORT_OUT"), opts)
	t.Fatalf("the export ran to its end (%v) without reaching %q", err, at)
}

// killedExport exports earlierN samples to out, then runs a child that exports killedN samples
// over it with Force and is killed at step at.
func killedExport(t *testing.T, out, at string) {
	t.Helper()
	if err := Write(context.Background(), gen(earlierN, 4, 4), out, Options{Format: PNG}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestExportKillChild$")
	cmd.Env = append(os.Environ(), "IDXLABEL_EXPORT_KILL="+at, "IDXLABEL_EXPORT_OUT="+out)
	b, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != -1 {
		t.Fatalf("the child was not killed at %q: %v\n%s", at, err, b)
	}
}

// samplesIn returns how many sample files the export tree dir holds (-1 when it is not there).
func samplesIn(dir string) int {
	if _, err := os.Lstat(dir); err != nil {
		return -1
	}
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && isSampleName(d.Name()) {
			n++
		}
		return nil
	})
	return n
}

// hiddenTrees returns the names of the folders beside out that its exports name theirs by.
func hiddenTrees(t *testing.T, out string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(out))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "."+filepath.Base(out)+".idxlabel-export-") {
			names = append(names, e.Name())
		}
	}
	return names
}

// age sets the modification time of dir and of every folder in it to 3 hours ago.
func age(t *testing.T, dir string) {
	t.Helper()
	then := time.Now().Add(-3 * time.Hour)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			err = os.Chtimes(p, then, then)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// An export with Force killed at each step of replacing OUT: before its renames (while writing
// its tree, or with it complete), between them (OUT missing: the earlier export set aside), and
// after them (while removing the earlier export). The next export of OUT finishes the one killed
// between its renames (without Force it then finds the finished tree and asks for Force), writes
// its own tree in every case, and leaves the hidden folders of the killed export until they are
// abandoned: 3 hours later the export after it removes every one, saying so.
func TestKilledExportIsMadeGood(t *testing.T) {
	if testing.Short() {
		t.Skip("kills child exports at each step, seconds: left out of go test -short (make test runs it)")
	}
	for _, c := range []struct {
		at       string
		out      int // samples at OUT just after the kill (-1: nothing there)
		trees    int // hidden folders just after the kill
		notice   string
		leftover int // hidden folders after the next export, before they are abandoned
	}{
		{"building", earlierN, 1, "", 1},
		{"built", earlierN, 1, "", 1},
		{"aside", -1, 2, "was finished", 0},
		{"placed", killedN, 1, "", 1},
		{"emptied", killedN, 1, "", 1},
	} {
		t.Run(c.at, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			killedExport(t, out, c.at)
			if n, trees := samplesIn(out), hiddenTrees(t, out); n != c.out || len(trees) != c.trees {
				t.Fatalf("after the kill: %d samples at OUT, hidden %v; want %d, %d folders", n, trees, c.out, c.trees)
			}
			var notices []string
			opts := Options{Format: PNG, Notice: func(msg string) { notices = append(notices, msg) }}
			if c.at == "aside" {
				if err := Write(context.Background(), gen(nextN, 4, 4), out, opts); !errors.Is(err, ErrExists) {
					t.Fatalf("without Force: %v, want ErrExists for the finished tree", err)
				}
				if n := samplesIn(out); n != killedN {
					t.Fatalf("OUT holds %d samples after the finish, want the killed export's %d", n, killedN)
				}
			}
			opts.Force = true
			if err := Write(context.Background(), gen(nextN, 4, 4), out, opts); err != nil {
				t.Fatal(err)
			}
			if n := samplesIn(out); n != nextN {
				t.Fatalf("OUT holds %d samples, want %d", n, nextN)
			}
			if said := strings.Join(notices, "\n"); c.notice != "" && !strings.Contains(said, c.notice) || c.notice == "" && said != "" {
				t.Fatalf("notices %q, want %q", said, c.notice)
			}
			trees := hiddenTrees(t, out)
			if len(trees) != c.leftover {
				t.Fatalf("hidden folders after the next export: %v", trees)
			}
			for _, name := range trees {
				age(t, filepath.Join(filepath.Dir(out), name))
			}
			notices = nil
			if err := Write(context.Background(), gen(nextN, 4, 4), out, opts); err != nil {
				t.Fatal(err)
			}
			if left := hiddenTrees(t, out); len(left) != 0 || len(notices) != len(trees) || len(trees) > 0 && !strings.Contains(notices[0], "removed") {
				t.Fatalf("3 hours later: hidden %v, notices %q", left, notices)
			}
		})
	}
}

// What the cleanup never touches, however old: a person's folder by an export's hidden name, a
// link by that name (and the export it points to), an export-shaped folder with a file of the
// person's in it, a name with more than digits, and a folder an export that runs holds. With
// OUT missing beside a set-aside earlier export whose new tree is not an export, the earlier
// export is put back and the new tree left alone.
func TestRecoveryTouchesOnlyItsOwn(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	real := filepath.Join(t.TempDir(), "real")
	if err := Write(context.Background(), gen(earlierN, 4, 4), real, Options{Format: PNG}); err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(dir, ".out.idxlabel-export-1"), map[string]string{"thesis.tex": "mine"})
	os.Symlink(real, filepath.Join(dir, ".out.idxlabel-export-2"))
	for _, name := range []string{".out.idxlabel-export-3", ".out.idxlabel-export-4x", ".out.idxlabel-export-5"} {
		if err := Write(context.Background(), gen(earlierN, 4, 4), filepath.Join(dir, name), Options{Format: PNG}); err != nil {
			t.Fatal(err)
		}
	}
	put(t, filepath.Join(dir, ".out.idxlabel-export-3"), map[string]string{"0/mine.txt": "mine"})
	holding, err := atomicfile.Hold(filepath.Join(dir, ".out.idxlabel-export-5", Marker))
	if err != nil {
		t.Fatal(err)
	}
	if holding == nil {
		t.Log("no flock here: the held folder is not checked")
		os.RemoveAll(filepath.Join(dir, ".out.idxlabel-export-5"))
	} else {
		defer holding.Close()
	}
	// OUT missing; an earlier export set aside; its new tree has a file of the person's.
	if err := Write(context.Background(), gen(earlierN, 4, 4), filepath.Join(dir, ".out.idxlabel-export-6.old"), Options{Format: PNG}); err != nil {
		t.Fatal(err)
	}
	put(t, filepath.Join(dir, ".out.idxlabel-export-6"), map[string]string{Marker: MarkerText, "1/notes.txt": "mine"})
	age(t, dir)
	realBefore := listing(t, real)
	before := hiddenTrees(t, out)

	var notices []string
	opts := Options{Format: PNG, Force: true, Notice: func(msg string) { notices = append(notices, msg) }}
	if err := Write(context.Background(), gen(nextN, 4, 4), out, opts); err != nil {
		t.Fatal(err)
	}
	after := hiddenTrees(t, out)
	want := slices.DeleteFunc(slices.Clone(before), func(n string) bool { return n == ".out.idxlabel-export-6.old" })
	if !slices.Equal(after, want) {
		t.Fatalf("hidden folders %v, want %v", after, want)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "rolled back") {
		t.Fatalf("notices %q", notices)
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".out.idxlabel-export-1", "thesis.tex")); err != nil || string(b) != "mine" {
		t.Fatalf("the person's folder: %q %v", b, err)
	}
	if listing(t, real) != realBefore {
		t.Fatal("the export a link pointed to changed")
	}
}
