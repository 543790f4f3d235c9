package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A progress line shows only once the work has run progressAfter, then at most every
// progressEvery and at the last step, and end closes it with a newline; work that ends sooner
// prints nothing. The clock is the test's, so the machine's load changes nothing.
func TestProgressLine(t *testing.T) {
	var e bytes.Buffer
	clock := time.Unix(0, 0)
	c := &cli{stderr: &e, now: func() time.Time { return clock }, progressAfter: time.Second}
	bar := c.progress()
	step := func(d time.Duration, final bool, n int) {
		clock = clock.Add(d)
		bar.show(final, "%d", n)
	}
	step(500*time.Millisecond, false, 1) // before progressAfter: nothing
	step(499*time.Millisecond, false, 2)
	step(time.Millisecond, false, 3)     // at progressAfter: shown
	step(100*time.Millisecond, false, 4) // within progressEvery: not shown
	step(200*time.Millisecond, false, 5) // 300 ms after the last: shown
	step(time.Millisecond, true, 6)      // the last step: shown
	bar.end()
	if got := e.String(); got != "\r3\r5\r6\n" {
		t.Errorf("printed %q", got)
	}
	e.Reset()
	quick := c.progress()
	quick.show(true, "%d", 1)
	quick.end()
	if e.Len() != 0 {
		t.Errorf("work shorter than progressAfter printed %q", e.String())
	}
}

// export and the builders show their progress lines on stderr once the work has run
// progressAfter (here 0: from the first step), each ended with a newline.
func TestCommandsShowProgress(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genPair(t, dir, 30)
	for _, args := range [][]string{
		{"export", "--format", "csv", ip, lp, filepath.Join(dir, "out.csv")},
		{"merge", ip, lp, ip, lp, filepath.Join(dir, "m-images"), filepath.Join(dir, "m-labels")},
	} {
		var o, e bytes.Buffer
		c := &cli{stdout: &o, stderr: &e, now: time.Now, progressAfter: 0}
		if code := c.run(args, noGUI); code != 0 {
			t.Fatalf("%s: exit %d, %s", args[0], code, e.String())
		}
		want := map[string]string{"export": "\rexport: 30 of 30 samples\n", "merge": " 60 of 60 samples read\n"}[args[0]]
		if !strings.HasPrefix(e.String(), "\r") || !strings.HasSuffix(e.String(), want) {
			t.Errorf("%s: stderr %q, want progress lines ending %q", args[0], e.String(), want)
		}
	}
}
