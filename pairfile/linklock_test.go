package pairfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// linkPair makes, in a new folder, symbolic links "mine-images" and "mine-labels" to the files
// ip and lp (through a second link each when twice: a link to a link), and returns them.
func linkPair(t *testing.T, ip, lp string, twice bool) (string, string) {
	t.Helper()
	dir := t.TempDir()
	link := func(to, name string) string {
		p := filepath.Join(dir, name)
		if twice {
			mid := filepath.Join(dir, "via-"+name)
			if err := os.Symlink(to, mid); err != nil {
				t.Skipf("this system cannot make symbolic links: %v", err)
			}
			to = mid
		}
		if err := os.Symlink(to, p); err != nil {
			t.Skipf("this system cannot make symbolic links: %v", err)
		}
		return p
	}
	return link(ip, "mine-images"), link(lp, "mine-labels")
}

// TestLockThroughLinks: a pair open for editing through symbolic links (in another folder, also
// through a link to a link) is locked by the files they name, so that a writer aimed at the files
// themselves, or a second window opening them by their own names, is refused; and the other way
// round, a pair open by its own names refuses a window or writer coming through links.
func TestLockThroughLinks(t *testing.T) {
	for _, twice := range []bool{false, true} {
		ip, lp := writeTestPair(t, 10, 2, 2)
		li, ll := linkPair(t, ip, lp, twice)

		// Open through the links; the files themselves are then out of every other reach.
		held, err := openPair(li, ll)
		if err != nil {
			t.Fatal(err)
		}
		for _, out := range []string{lp, ip} {
			c, err := ClaimOutputs(nil, []string{out}, true, nil)
			if !errors.Is(err, ErrLocked) {
				c.Release()
				t.Fatalf("twice=%v: pair open through links; a writer of %s: %v, want it refused as locked", twice, out, err)
			}
		}
		if other, err := openPair(ip, lp); !errors.Is(err, ErrLocked) {
			other.Release()
			t.Fatalf("twice=%v: pair open through links; opening the files themselves: %v, want it refused as locked", twice, err)
		}
		if _, err := os.Lstat(ll + LockSuffix); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("twice=%v: a lock file beside the link: %v; it belongs beside the file the link names", twice, err)
		}
		held.Release()
		if _, err := os.Lstat(lp + LockSuffix); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("twice=%v: Release left the lock file %s: %v", twice, lp+LockSuffix, err)
		}

		// The other way round: open by the files' own names, come through the links.
		held, err = openPair(ip, lp)
		if err != nil {
			t.Fatal(err)
		}
		for _, out := range []string{ll, li} {
			c, err := ClaimOutputs(nil, []string{out}, true, nil)
			if !errors.Is(err, ErrLocked) {
				c.Release()
				t.Fatalf("twice=%v: pair open by its own names; a writer of the link %s: %v, want it refused as locked", twice, out, err)
			}
		}
		if other, err := openPair(li, ll); !errors.Is(err, ErrLocked) {
			other.Release()
			t.Fatalf("twice=%v: pair open by its own names; opening it through links: %v, want it refused as locked", twice, err)
		}
		held.Release()

		// Nothing held: a writer through a link takes one lock (the link's and the file's are
		// one), not its own lock twice.
		c, err := ClaimOutputs(nil, []string{ll}, true, nil)
		if err != nil {
			t.Fatalf("twice=%v: a writer through a link, nothing open: %v", twice, err)
		}
		c.Release()
	}
}

// TestLockDanglingLink: a symbolic link to nothing is locked by its own name (there is no file
// to name), and an output there is refused as a link to nothing, not written through.
func TestLockDanglingLink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "gone-labels-idx1-ubyte")
	if err := os.Symlink(filepath.Join(dir, "nothing"), link); err != nil {
		t.Skipf("this system cannot make symbolic links: %v", err)
	}
	if got, want := LockFile(link), link+LockSuffix; got != want {
		t.Fatalf("LockFile of a link to nothing = %s, want %s", got, want)
	}
	if c, err := ClaimOutputs(nil, []string{link}, true, nil); err == nil {
		c.Release()
		t.Fatal("an output that is a link to nothing was claimed")
	}
}

// TestLockLinkSwapped: a link changed after the pair was opened through it names another file;
// a save to the link's name must take that file's lock (Relock does not count the old one), and
// is refused while another holds it.
func TestLockLinkSwapped(t *testing.T) {
	ipA, lpA := writeTestPair(t, 10, 2, 2)
	ipB, lpB := writeTestPair(t, 10, 2, 2)
	li, ll := linkPair(t, ipA, lpA, false)
	held, err := openPair(li, ll)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	for _, p := range [][2]string{{ipB, li}, {lpB, ll}} {
		if err := os.Remove(p[1]); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(p[0], p[1]); err != nil {
			t.Fatal(err)
		}
	}
	other, err := openPair(ipB, lpB)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := held.Relock(li, ll); !errors.Is(err, ErrLocked) {
		t.Fatalf("save through links now naming a pair open elsewhere: Relock gave %v, want it refused as locked", err)
	}
	other.Release()
	taken, err := held.Relock(li, ll)
	if err != nil {
		t.Fatal(err)
	}
	if len(taken) != 2 {
		t.Fatalf("Relock through swapped links took %d locks, want the 2 of the files they name now", len(taken))
	}
	held = held.MoveTo(li, ll, taken)
	if c, err := ClaimOutputs(nil, []string{lpB}, true, nil); !errors.Is(err, ErrLocked) {
		c.Release()
		t.Fatalf("after the save, a writer of the file the link names now: %v, want it refused", err)
	}
	if c, err := ClaimOutputs(nil, []string{lpA}, true, nil); err != nil {
		t.Fatalf("after the save, the file the link named before is free: %v", err)
	} else {
		c.Release()
	}
}
