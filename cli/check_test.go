package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"idxlabel/idx"
	"idxlabel/sample"
	"idxlabel/suspect/health"
)

// TestCheckUsageErrors checks that option values that make no sense exit with status 2 and name
// the problem before any file is read (the files named here do not exist: a value let through
// would exit 1).
func TestCheckUsageErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--top", "0"}, `invalid value "0" for flag -top: expected a count of 1 or more, or all`},
		{[]string{"--kinds", "label,typo"}, `unknown kind "typo"`},
		{[]string{"--kinds", "label,label"}, `kind "label" is listed twice`},
		{[]string{"--kinds", "leak"}, "the leak kind needs --against IMAGES2"},
		{[]string{"--threshold", "1.5"}, "--threshold must be above 0 and at most 1, not 1.5"},
		{[]string{"--folds", "1"}, "--folds must be at least 2, not 1"},
		{[]string{"--epochs", "0"}, "--epochs must be at least 1, not 0"},
		{[]string{"--seeds", "0"}, "--seeds must be 1–10, not 0"},
		{[]string{"--against", "/nonexistent/a", "--against", "/nonexistent/b"}, "--against is given twice"},
		{[]string{"--against"}, "--against needs IMAGES2 [LABELS2]"},
	}
	for _, c := range cases {
		args := append([]string{"check", "/nonexistent/i", "/nonexistent/l"}, c.args...)
		code, out, errOut := runCLI(args...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, errOut, c.want)
		}
	}
	if code, _, errOut := runCLI("check", "--kinds", "label", "/nonexistent/i"); code != 2 || !strings.Contains(errOut, "the label kind needs a label file") {
		t.Errorf("label kind without labels: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCLI("check"); code != 2 || !strings.Contains(errOut, "usage: idxlabel check") {
		t.Errorf("no files: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCLI("check", "/nonexistent/i", "/nonexistent/l", "--top", "5"); code != 1 {
		t.Errorf("valid options: exit %d (%q), want 1 for the missing files", code, errOut)
	}
	if code, out, _ := runCLI("check", "--help"); code != 0 || !strings.Contains(out, "kind,index,other,label,suggested,score") || !strings.Contains(out, "score:") {
		t.Errorf("--help: exit %d, %q", code, out)
	}
}

// writePair writes n samples of h×w pixels (from px) and their labels as an IDX pair in dir.
func writePair(t *testing.T, dir, name string, px []byte, labels []byte, n, h, w int) (string, string) {
	t.Helper()
	im, _ := idx.New(idx.UByte, n, h, w)
	copy(im.Data, px)
	ip := filepath.Join(dir, name+"-images-idx3-ubyte")
	if err := idx.WriteFile(ip, im); err != nil {
		t.Fatal(err)
	}
	lp := ""
	if labels != nil {
		lab, _ := idx.New(idx.UByte, n)
		copy(lab.Data, labels)
		lp = filepath.Join(dir, name+"-labels-idx1-ubyte")
		if err := idx.WriteFile(lp, lab); err != nil {
			t.Fatal(err)
		}
	}
	return ip, lp
}

// TestCheckCSV runs every kind on 800 generated digits (digits) with planted cases (sample 700
// a copy of 5 shifted one pixel, 701 a blank image, 702 an exact copy of sample 3 of the other
// set, 703 of its sample 4 at 85% intensity) against a 300-sample set (generated digits 800–1,099),
// with a short CNN:
// the CSV's header, its kinds in order, file indices, the planted pairs, --top, the report
// folder, and an other set of another size as a usage error.
func TestCheckCSV(t *testing.T) {
	if testing.Short() {
		t.Skip("takes seconds: left out of go test -short (make test runs it)")
	}
	all, allLabels := digits(t, 1100)
	const n = 800
	dir := t.TempDir()
	px := append([]byte(nil), all[:n*784]...)
	lab := append([]byte(nil), allLabels[:n]...)
	for y := range 27 { // 700: sample 5 moved one row down
		copy(px[700*784+(y+1)*28:700*784+(y+2)*28], all[5*784+y*28:5*784+(y+1)*28])
	}
	lab[700] = lab[5]
	clear(px[701*784 : 702*784])
	other := all[800*784 : 1100*784]
	copy(px[702*784:703*784], other[3*784:4*784])
	for k, v := range other[4*784 : 5*784] {
		px[703*784+k] = byte(int(v) * 85 / 100)
	}
	ip, lp := writePair(t, dir, "set", px, lab, n, 28, 28)
	op, ol := writePair(t, dir, "other", other, allLabels[800:1100], 300, 28, 28)
	report := filepath.Join(dir, "report")
	confusionCSV, mapCSV := filepath.Join(dir, "confusion.csv"), filepath.Join(dir, "map.csv")
	code, out, errOut := runCLI("check", ip, lp, "--against", op, ol, "--folds", "2", "--seeds", "1", "--epochs", "2", "--top", "4", "--report", report,
		"--confusion", confusionCSV, "--map", mapCSV)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "kind,index,other,label,suggested,score" {
		t.Fatalf("header %q", lines[0])
	}
	var kinds []string
	rows := map[string][]string{}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if len(f) != 6 {
			t.Fatalf("row %q", l)
		}
		if len(kinds) == 0 || kinds[len(kinds)-1] != f[0] {
			kinds = append(kinds, f[0])
		}
		rows[f[0]] = append(rows[f[0]], l)
	}
	if strings.Join(kinds, " ") != "label outlier duplicate leak" {
		t.Fatalf("kinds in the order %v:\n%s", kinds, out)
	}
	if len(rows["label"]) != 4 || len(rows["outlier"]) != 4 {
		t.Errorf("--top 4: %d label and %d outlier rows", len(rows["label"]), len(rows["outlier"]))
	}
	has := func(kind, prefix string) bool {
		for _, r := range rows[kind] {
			if strings.HasPrefix(r, prefix) {
				return true
			}
		}
		return false
	}
	if !has("duplicate", "duplicate,5,700,"+itoa(lab[5])+",") {
		t.Errorf("the shifted copy 700 of 5 is not listed:\n%s", out)
	}
	if !has("leak", "leak,702,3,") || !has("leak", "leak,703,4,") {
		t.Errorf("the leaks 702 and 703 are not listed:\n%s", out)
	}
	if !has("outlier", "outlier,701,,") {
		t.Errorf("the blank image 701 is not among the top 4 outliers:\n%s", out)
	}
	for _, want := range []string{"duplicates: finding each image's nearest images", "CNN scan", "outliers: measuring each image's pixel statistics", "checked 800 samples"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	for _, f := range []string{"index.html", "label.png", "outlier.png", "duplicate.png", "leak.png", "classes.png", "section-1.png", "section-2.png"} {
		if fi, err := os.Stat(filepath.Join(report, f)); err != nil || fi.Size() == 0 {
			t.Errorf("report: %s: %v", f, err)
		}
	}
	// The confusion matrix: a row per given class, its counts summing to the samples.
	cm, _ := os.ReadFile(confusionCSV)
	cmRows := strings.Split(strings.TrimSpace(string(cm)), "\n")
	if !strings.HasPrefix(cmRows[0], "given,0,1,") || len(cmRows) != 11 {
		t.Errorf("confusion CSV:\n%s", cm)
	}
	total := 0
	for _, r := range cmRows[1:] {
		for _, v := range strings.Split(r, ",")[1:] {
			k, _ := strconv.Atoi(v)
			total += k
		}
	}
	if total != 800 {
		t.Errorf("the confusion matrix counts %d samples, want 800", total)
	}
	// The map: index,x,y for every sample, in order.
	mp, _ := os.ReadFile(mapCSV)
	mpRows := strings.Split(strings.TrimSpace(string(mp)), "\n")
	if mpRows[0] != "index,x,y" || len(mpRows) != 801 || !strings.HasPrefix(mpRows[800], "799,") {
		t.Errorf("map CSV: %d rows, first %q", len(mpRows), mpRows[0])
	}
	if code, _, errOut := runCLI("check", ip, "--kinds", "outlier", "--map", mapCSV); code != 2 || !strings.Contains(errOut, "need the label kind") {
		t.Errorf("--map without the label kind: exit %d, %s", code, errOut)
	}
	alone, _ := writePair(t, t.TempDir(), "alone", px, nil, n, 28, 28) // no label file beside it
	if code, _, errOut := runCLI("check", alone, "--map", mapCSV); code != 2 || !strings.Contains(errOut, "need the label kind") {
		t.Errorf("--map without labels: exit %d, %s", code, errOut)
	}
	// Writing the report again is refused without --force and replaces it with it; a folder
	// that is not a report is refused.
	if code, _, errOut := runCLI("check", ip, "--kinds", "duplicate", "--report", report); code != 1 || !strings.Contains(errOut, "exists (use --force to replace it)") {
		t.Errorf("second report without --force: exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(report, "label.png")); err != nil {
		t.Error("a refused report removed the earlier report's label.png")
	}
	if code, _, errOut := runCLI("check", ip, "--kinds", "duplicate", "--report", report, "--force"); code != 0 {
		t.Errorf("second report: exit %d, %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(report, "label.png")); err == nil {
		t.Error("the earlier report's label.png survived the new report")
	}
	if code, _, errOut := runCLI("check", ip, "--kinds", "duplicate", "--report", dir); code != 2 || !strings.Contains(errOut, "holds the input") {
		t.Errorf("a report over the inputs' folder: exit %d, %s", code, errOut)
	}
	small, _ := writePair(t, dir, "small", all[:100*196], nil, 100, 14, 14)
	if code, _, errOut := runCLI("check", ip, lp, "--against", small, "--kinds", "leak"); code != 2 || !strings.Contains(errOut, "has 14×14 images") {
		t.Errorf("--against of another size: exit %d, %s", code, errOut)
	}
}

func itoa(b byte) string { return strings.TrimSpace(string(rune('0' + b))) }

// check IMAGES alone uses the label file named as MNIST names its pairs beside IMAGES, as the
// window does, and says so; with none there, the label kind is still a usage error.
func TestCheckFindsTheLabelsBeside(t *testing.T) {
	const n = 200
	px, labels := digits(t, n)
	dir := t.TempDir()
	ip, lp := writePair(t, dir, "set", px, labels, n, 28, 28)
	code, out, errOut := runCLI("check", "--kinds", "label", "--folds", "2", "--seeds", "1", "--epochs", "1", "--top", "3", ip)
	if code != 0 || !strings.Contains(errOut, lp+" (found beside the images)") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if rows := strings.Split(strings.TrimSpace(out), "\n"); len(rows) != 4 || !strings.HasPrefix(rows[1], "label,") {
		t.Fatalf("output %q", out)
	}
	os.Remove(lp)
	if code, _, errOut := runCLI("check", "--kinds", "label", ip); code != 2 || !strings.Contains(errOut, "the label kind needs a label file") {
		t.Fatalf("without the label file: exit %d, %q", code, errOut)
	}
}

// check --confusion and --map on a label file in which no sample has a label: no scan can run,
// so each exits 1 with a clear message before the scan, writing nothing (it used to panic in
// the confusion CSV, leaving its temporary file, or write a map of only a header, exit 0).
func TestCheckViewsNeedLabelledSamples(t *testing.T) {
	dir := t.TempDir()
	n := 60
	px := make([]byte, n*28*28)
	for i := range px {
		px[i] = byte(i * 7)
	}
	ip, _ := writePair(t, dir, "u", px, nil, n, 28, 28)
	la, _ := idx.New(idx.Int32, n)
	for i := range n {
		la.SetInt(i, sample.NoLabel)
	}
	lp := filepath.Join(dir, "u-labels-idx1-ubyte")
	if err := idx.WriteFile(lp, la); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadDir(dir)
	for _, flag := range []string{"--confusion", "--map"} {
		out := filepath.Join(dir, "out.csv")
		code, stdout, stderr := runCLI("check", flag, out, ip, lp)
		if code != 1 || !strings.Contains(stderr, lp+": no sample has a label") || stdout != "" {
			t.Errorf("%s: exit %d, %q %q", flag, code, stdout, stderr)
		}
		if after, _ := os.ReadDir(dir); len(after) != len(before) {
			t.Errorf("%s left %v", flag, after)
		}
	}
}

// check says in words what each stage does, not its bare name ("idxlabel: duplicate: describe"
// before): every stage the scans report (neardup's, outlier's, the leak's description).
func TestCheckStagesInWords(t *testing.T) {
	for _, s := range []struct {
		kind  health.Kind
		stage string
	}{{health.Duplicate, "describe"}, {health.Leak, "describe"}, {health.Duplicate, "index"}, {health.Leak, "candidates"},
		{health.Duplicate, "verify"}, {health.Outlier, "statistics"}, {health.Outlier, "embedding 1"}, {health.Outlier, "embedding 2"}} {
		got := stageText(s.kind, s.stage)
		if strings.HasSuffix(got, ": "+s.stage) || strings.HasPrefix(got, string(s.kind)+":") || len(strings.Fields(got)) < 5 {
			t.Errorf("%s %s: %q", s.kind, s.stage, got)
		}
	}
}
