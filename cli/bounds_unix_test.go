//go:build unix

package cli

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
)

// buildChildEnv carries the arguments of one command to TestBuildChild, separated by newlines.
const buildChildEnv = "IDXLABEL_TEST_BUILD_ARGS"

// TestBuildChild runs the command in $IDXLABEL_TEST_BUILD_ARGS and exits with its status: the
// child of TestBuildersRefuseForgedHeadersUnderALimit, run under an address-space limit.
func TestBuildChild(t *testing.T) {
	args := os.Getenv(buildChildEnv)
	if args == "" {
		return // only meaningful as a child
	}
	os.Exit(Run(strings.Split(args, "\n"), os.Stdout, os.Stderr, noGUI))
}

// Under an address-space limit of 2 GB (`ulimit -v 2000000`, as on shared clusters), merge,
// split --shuffle and subset --shuffle of a 1 KB image file whose header claims 640 MB or
// 400 GB, and of a 47-byte gzip file claiming 400 GB, exit 1 with a message naming the file and
// what its header declares, and leave nothing behind. Before, the shuffled commands allocated
// what the header claimed: "fatal error: runtime: out of memory", exit 2, a goroutine dump and
// lock files left.
func TestBuildersRefuseForgedHeadersUnderALimit(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to set the limit with")
	}
	dir := t.TempDir()
	labels, _ := idx.New(idx.UByte, 40)
	lp := filepath.Join(dir, "labels")
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	forged := func(name string, side int, gz bool) string {
		b := idx.AppendHeader(nil, idx.Header{Type: idx.UByte, Dims: []int{40, side, side}})
		if !gz {
			b = append(b, make([]byte, 1000)...)
		} else {
			var z bytes.Buffer
			w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
			w.Write(b)
			w.Close()
			b = z.Bytes()
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	inputs := []string{forged("claims-640MB", 4000, false), forged("claims-400GB", 100000, false), forged("claims-400GB.gz", 100000, true)}
	before := entriesOf(t, dir)
	for _, ip := range inputs {
		o := func(s string) string { return filepath.Join(dir, "out-"+s) }
		for _, args := range [][]string{
			{"split", "--shuffle", ip, lp, o("a"), o("b"), o("c"), o("d")},
			{"subset", "--shuffle", ip, lp, o("a"), o("b")},
			{"merge", ip, lp, ip, lp, o("a"), o("b")},
		} {
			cmd := exec.Command("sh", "-c", `ulimit -v 2000000 && exec "$0" -test.run='^TestBuildChild$'`, os.Args[0])
			cmd.Env = append(os.Environ(), buildChildEnv+"="+strings.Join(args, "\n"))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Errorf("%s %s: %v, want exit 1\n%.600s", args[0], filepath.Base(ip), err, stderr.String())
			}
			if e := stderr.String(); !strings.Contains(e, ip+": ") || !strings.Contains(e, "declares") || strings.Contains(e, "fatal error") {
				t.Errorf("%s %s: stderr %.600q, want one line naming the file and what its header declares", args[0], filepath.Base(ip), e)
			}
			if got := entriesOf(t, dir); got != before {
				t.Errorf("%s %s: the folder holds %s, held %s", args[0], filepath.Base(ip), got, before)
			}
		}
	}
}

// entriesOf lists dir's file names, space-separated.
func entriesOf(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}
