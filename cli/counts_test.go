package cli

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
)

// A split that cannot give a test part near what was asked says why, exits 1 and writes
// nothing: a stratified split whose groups are the classes (--group-column 0; before: "test 0
// (0.00%)" and exit 0), a fraction that rounds to no sample, whole groups far larger than the
// test part. A count of 0 is refused like a negative one, for every count flag: split
// --test-count, subset --per-class and --max (before, 0 meant "no limit" while -1 was refused),
// suspects and check --top (which take "all" for every row).
func TestCountsAndImpossibleSplits(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genBuildPair(t, dir, "in", 40, 2, 2, idx.UByte, idx.UByte, 3, 0, func(i int) int64 { return int64(i % 4) })
	labels, _ := idx.ReadFile(lp)
	for i := range 40 {
		labels.SetInt(i*3+2, int64(i/20)) // two writers of 20 samples in column 2
	}
	idx.WriteFile(lp, labels)
	out := splitFiles(dir, "x")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--stratify", "--group-column", "0"}, 1, "column 0 is the class itself"},
		{[]string{"--group-column", "2"}, 1, "keeping whole the 2 groups of label column 2 (the largest of 20 samples) gives a test part of 0 samples, far from the 8 asked"},
		{[]string{"--test", "0.01"}, 1, "a test part of 0.01 of 40 samples rounds to 0 samples"},
		{[]string{"--test-count", "40"}, 1, "the train part would be empty"},
		{[]string{"--test-count", "0"}, 2, "--test-count 0: expected a count of 1 or more"},
		{[]string{"--test-count", "-1"}, 2, "--test-count -1: expected a count of 1 or more"},
	} {
		code, _, errOut := runCLI(append(append(append([]string{"split"}, c.args...), ip, lp), out...)...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("split %v: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
		if c.code == 1 && !strings.Contains(errOut, lp+": ") {
			t.Errorf("split %v: %q does not name the label file", c.args, errOut)
		}
		noFiles(t, out...)
	}
	sub := []string{filepath.Join(dir, "s-images"), filepath.Join(dir, "s-labels")}
	for _, args := range [][]string{{"--per-class", "0"}, {"--max", "0"}, {"--per-class", "-2"}, {"--max", "-1"}} {
		code, _, errOut := runCLI(append(append(append([]string{"subset"}, args...), ip, lp), sub...)...)
		if want := fmt.Sprintf("subset: %s %s: expected a count of 1 or more", args[0], args[1]); code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("subset %v: exit %d, %q; want 2 and %q", args, code, errOut, want)
		}
		noFiles(t, sub...)
	}
	for _, cmd := range []string{"suspects", "check"} {
		code, _, errOut := runCLI(cmd, "--top", "0", ip, lp)
		if code != 2 || !strings.Contains(errOut, "expected a count of 1 or more, or all") {
			t.Errorf("%s --top 0: exit %d, %q", cmd, code, errOut)
		}
	}
	code, out2, errOut := runCLI("suspects", "--method", "knn", "--k", "3", "--top", "all", ip, lp)
	if code != 0 || strings.Count(out2, "\n") != 41 {
		t.Errorf("suspects --top all: exit %d, %d lines, %q", code, strings.Count(out2, "\n"), errOut)
	}
}

// A stratified split says each class's share of the test part, as the README shows it.
func TestSplitSaysEachClassShare(t *testing.T) {
	dir := t.TempDir()
	ip, lp := genBuildPair(t, dir, "in", 40, 2, 2, idx.UByte, idx.UByte, 1, 0, func(i int) int64 { return int64(i % 4) })
	code, _, errOut := runCLI(append([]string{"split", "--stratify", "--test", "0.2", ip, lp}, splitFiles(dir, "y")...)...)
	want := "split: 40 samples: train 32, test 8 (20.00%)\n" +
		"  class 0: 2 of 10 in test (20.00%)\n  class 1: 2 of 10 in test (20.00%)\n" +
		"  class 2: 2 of 10 in test (20.00%)\n  class 3: 2 of 10 in test (20.00%)\n"
	if code != 0 || errOut != want {
		t.Errorf("exit %d, stderr %q, want %q", code, errOut, want)
	}
}
