package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/idx"
)

// TestSuspectsUsageErrors checks that option values that make no sense exit with status 2
// before any file is read (the files named here do not exist: a value let through would exit 1).
func TestSuspectsUsageErrors(t *testing.T) {
	cases := []struct {
		flags []string
		want  string
	}{
		{[]string{"--k", "0"}, "--k must be at least 1, not 0"},
		{[]string{"--k", "-3"}, "--k must be at least 1, not -3"},
		{[]string{"--folds", "1"}, "--folds must be at least 2, not 1"},
		{[]string{"--top", "-1"}, "expected a count of 1 or more, or all"},
		{[]string{"--top", "0"}, "expected a count of 1 or more, or all"},
		{[]string{"--epochs", "0"}, "--epochs must be at least 1, not 0"},
		{[]string{"--method", "svm"}, `--method must be cnn or knn, not "svm"`},
		{[]string{"--seed", "-1"}, "invalid value"},
		{[]string{"--duplicates"}, "--duplicates moved: near-duplicates are idxlabel check --kinds duplicate"},
		// Memory and time grow with k (an N×k neighbour list per worker) and with the folds (a
		// training list of N per fold): --k 5000 on t10k took 826 MB and over 5 minutes,
		// --folds 10000 870 MB and 57 hours.
		{[]string{"--k", "101"}, "--k must be at most 100, not 101"},
		{[]string{"--k", "100000"}, "--k must be at most 100, not 100000"},
		{[]string{"--folds", "51"}, "--folds must be at most 50, not 51"},
		{[]string{"--seeds", "0"}, "--seeds must be at least 1, not 0"},
		{[]string{"--seeds", "11"}, "--seeds must be at most 10, not 11"},
	}
	for _, c := range cases {
		args := append([]string{"suspects", "/nonexistent/i", "/nonexistent/l"}, c.flags...)
		code, out, errOut := runCLI(args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.flags, code, errOut, c.want)
		}
	}
	if code, _, errOut := runCLI("suspects", "/nonexistent/i", "/nonexistent/l", "--method", "knn", "--top", "all"); code != 1 {
		t.Errorf("valid options: exit %d (%q), want 1 for the missing files", code, errOut)
	}
}

// TestSuspectsCSV runs both methods on the first 600 t10k digits, one of them relabelled, with
// a short CNN (2 seeds × 2 folds, 2 epochs; too short to rank well: the ranking itself is tested
// in package suspect): the same CSV header, --top rows with file indices, progress per seed,
// fold and epoch and a summary on stderr.
func TestSuspectsCSV(t *testing.T) {
	const n = 600
	images, labels := digits(t, n)
	dir := t.TempDir()
	sub, _ := idx.New(idx.UByte, n, 28, 28)
	copy(sub.Data, images)
	lab, _ := idx.New(idx.UByte, n)
	copy(lab.Data, labels)
	lab.Data[3] = (lab.Data[3] + 5) % 10
	ip, lp := filepath.Join(dir, "images"), filepath.Join(dir, "labels")
	if err := idx.WriteFile(ip, sub); err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(lp, lab); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"cnn", "knn"} {
		code, out, errOut := runCLI("suspects", ip, lp, "--method", m, "--folds", "2", "--epochs", "2", "--top", "7", "--seed", "4")
		if code != 0 {
			t.Fatalf("%s: exit %d, %s", m, code, errOut)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 8 || lines[0] != "index,label,suggested,score" {
			t.Fatalf("%s: CSV %q", m, out)
		}
		if m == "cnn" && (!strings.Contains(errOut, "seed 1/2, fold 1/2, epoch 1/2") || !strings.Contains(errOut, "seed 2/2, fold 2/2, epoch 2/2") ||
			!strings.Contains(errOut, "(CNN, 2 × 2 folds)") || !strings.Contains(errOut, "out-of-fold error")) {
			t.Errorf("cnn: stderr %q", errOut)
		}
		if m == "knn" && !strings.Contains(out, "\n3,") {
			t.Errorf("%s: the relabelled sample 3 is not among the top 7:\n%s", m, out)
		}
	}
}

// suspects keeps its CNN scan beside the images and reads it back as check does: a second run
// says so and prints the same CSV; --no-cache scans again. Before, every run scanned.
func TestSuspectsScanCache(t *testing.T) {
	const n = 300
	images, labels := digits(t, n)
	ip, lp := writePair(t, t.TempDir(), "set", images, labels, n, 28, 28)
	args := []string{"suspects", "--folds", "2", "--seeds", "1", "--epochs", "1", "--top", "all", ip, lp}
	code, first, errOut := runCLI(args...)
	if code != 0 || !strings.Contains(errOut, "CNN scan of 300 samples: about ") {
		t.Fatalf("first run: exit %d, stderr %q", code, errOut)
	}
	code, again, errOut := runCLI(args...)
	if code != 0 || !strings.Contains(errOut, "CNN scan read from "+ip+".idxlabel-scan") || strings.Contains(errOut, "epoch") {
		t.Fatalf("second run: exit %d, stderr %q", code, errOut)
	}
	if again != first {
		t.Errorf("the cached scan's CSV differs:\n%s\nscanned:\n%s", again, first)
	}
	code, _, errOut = runCLI(append([]string{"suspects", "--no-cache"}, args[1:]...)...)
	if code != 0 || strings.Contains(errOut, "read from") || !strings.Contains(errOut, "epoch 1/1") {
		t.Fatalf("--no-cache: exit %d, stderr %q", code, errOut)
	}
}
