package export

import (
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// sampleReport is a small report: two kinds (one of pairs), names with markup, a histogram and
// an extra section with an image and a table.
func sampleReport() Report {
	px := func(v byte) []byte {
		p := make([]byte, 28*28)
		for k := 300; k < 500; k++ {
			p[k] = v
		}
		return p
	}
	chart := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for k := range chart.Pix {
		chart.Pix[k] = 200
	}
	return Report{
		Title: "Health check of <t10k>", Facts: [][2]string{{"Images", "a&b.gz"}}, H: 28, W: 28,
		Kinds: []ReportKind{
			{Name: "label", Description: "doubted labels", ScoreNote: "1 − p", Flagged: 2, Findings: []ReportFinding{
				{Index: 7, Other: -1, Label: "3", Suggested: "5", Score: 0.99, Pixels: px(255)},
				{Index: 9, Other: -1, Label: "1", Suggested: "1", Score: 0.5, Pixels: px(128)},
			}},
			{Name: "duplicate", Description: "copies", Flagged: 1, Findings: []ReportFinding{
				{Index: 4, Other: 8, Label: "2", OtherLabel: "7", Score: 1, Pixels: px(255), OtherPixels: px(255)},
			}},
			{Name: "outlier", Description: "not digits"},
		},
		Classes:  []ClassCount{{"0 <zero>", 12}, {"1", 30}},
		Sections: []Section{{Title: "Confusion matrix", Caption: "rows: given", Image: chart, Table: &Table{Header: []string{"given", "0"}, Rows: [][]string{{"0", "<b>5</b>"}}}}},
	}
}

// TestWriteReport writes a report and checks its files, that every string is escaped, that the
// PNGs decode, and that the page names only its own files (no network, no scripts).
func TestWriteReport(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	if err := WriteReport(context.Background(), dir, sampleReport()); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != ReportMarker+" classes.png duplicate.png index.html label.png section-1.png" {
		t.Fatalf("files %q", got)
	}
	for _, n := range names {
		if strings.HasSuffix(n, ".png") {
			f, _ := os.Open(filepath.Join(dir, n))
			_, err := png.Decode(f)
			f.Close()
			if err != nil {
				t.Errorf("%s: %v", n, err)
			}
		}
	}
	page, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	html := string(page)
	for _, want := range []string{"Health check of &lt;t10k&gt;", "a&amp;b.gz", "0 &lt;zero&gt;", "&lt;b&gt;5&lt;/b&gt;", `src="label.png"`, `src="section-1.png"`, "Confusion matrix", "rows: given", "outlier: 0 flagged", "None found."} {
		if !strings.Contains(html, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	for _, bad := range []string{"<script", "http://", "https://", "<t10k>", "<b>5"} {
		if strings.Contains(html, bad) {
			t.Errorf("index.html holds %q", bad)
		}
	}
}

// TestWriteReportReplaces: an earlier report is replaced whole, an empty folder is used, and
// anything else is refused and left untouched; ReportAt tells the three apart beforehand.
func TestWriteReportReplaces(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	dir := filepath.Join(root, "report")
	r := sampleReport()
	if at, err := ReportAt(dir); at || err != nil {
		t.Fatalf("ReportAt before the report: %v, %v", at, err)
	}
	if err := WriteReport(ctx, dir, r); err != nil {
		t.Fatal(err)
	}
	if at, err := ReportAt(dir); !at || err != nil {
		t.Fatalf("ReportAt on a report: %v, %v", at, err)
	}
	r.Sections = nil
	if err := WriteReport(ctx, dir, r); err != nil {
		t.Fatalf("replacing an earlier report: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "section-1.png")); err == nil {
		t.Error("the earlier report's section-1.png survived")
	}
	empty := filepath.Join(root, "empty")
	os.Mkdir(empty, 0o755)
	if at, err := ReportAt(empty); at || err != nil {
		t.Errorf("ReportAt on an empty folder: %v, %v", at, err)
	}
	if err := WriteReport(ctx, empty, r); err != nil {
		t.Errorf("an empty folder: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	if _, err := ReportAt(dir); !errors.Is(err, ErrInTheWay) {
		t.Errorf("ReportAt on a report with a file added: %v", err)
	}
	if err := WriteReport(ctx, dir, r); !errors.Is(err, ErrInTheWay) {
		t.Errorf("a report with a file added: %v", err)
	}
	other := filepath.Join(root, "photos")
	os.Mkdir(other, 0o755)
	os.WriteFile(filepath.Join(other, "a.png"), []byte("x"), 0o644)
	if err := WriteReport(ctx, other, r); !errors.Is(err, ErrInTheWay) {
		t.Errorf("a folder that is not a report: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(other, "a.png")); string(b) != "x" {
		t.Error("the refused folder was changed")
	}
	r.Kinds[0].Findings[0].Pixels = make([]byte, 10)
	if err := WriteReport(ctx, filepath.Join(root, "bad"), r); err == nil {
		t.Error("pixels of the wrong size were accepted")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := WriteReport(cancelled, filepath.Join(root, "cancelled"), sampleReport()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(root, ".*idxlabel-report-*")); len(left) != 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}

// TestReportInBrowser renders the report in headless Chromium, when it is installed (Debian's
// chromium package; scripts/deps.sh does not install it), offline, and checks in the screenshot
// that the page drew and that its contact sheet loaded from the folder: the sheet's dark ground
// (sheetGround) covers a good area.
func TestReportInBrowser(t *testing.T) {
	browser, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (apt-get install chromium): the report is not rendered")
	}
	dir := filepath.Join(t.TempDir(), "report")
	if err := WriteReport(context.Background(), dir, sampleReport()); err != nil {
		t.Fatal(err)
	}
	shot := filepath.Join(t.TempDir(), "shot.png")
	cmd := exec.Command(browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+t.TempDir(),
		"--screenshot="+shot, "--window-size=1000,1400", "file://"+filepath.Join(dir, "index.html"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	dark := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if c := color.RGBAModel.Convert(img.At(x, y)).(color.RGBA); c == sheetGround {
				dark++
			}
		}
	}
	if dark < 5000 {
		t.Fatalf("the screenshot has %d pixels of the contact sheets' ground: the sheets did not load", dark)
	}
}

// A report folder named with a trailing separator ("report/", as a shell completes a folder)
// is the folder "report": written when it does not exist (the temporary folder was made inside
// the missing "report/", failing with "no such file or directory"), and replacing an earlier
// report (it was renamed into a folder of its own, failing with "invalid argument").
func TestWriteReportTrailingSeparator(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	dir := filepath.Join(root, "report") + string(filepath.Separator)
	for range 2 {
		if err := WriteReport(ctx, dir, sampleReport()); err != nil {
			t.Fatal(err)
		}
	}
	if at, err := ReportAt(dir); !at || err != nil {
		t.Fatalf("ReportAt: %v, %v", at, err)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Errorf("%d entries beside the report, want only the report", len(entries))
	}
}

// A report that cannot be written names the report's folder and why, not the temporary folder
// it was built in (".report.idxlabel-report-2569215151: read-only file system", a name the
// person never gave and that no longer exists).
func TestWriteReportErrorNamesTheFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing", "report")
	err := WriteReport(context.Background(), dir, sampleReport())
	if err == nil || !strings.Contains(err.Error(), dir) || strings.Contains(err.Error(), "idxlabel-report-") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("report in a missing folder: %v", err)
	}
}
