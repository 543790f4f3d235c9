package report

import (
	"context"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/export"
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
		Kinds: []Kind{
			{Name: "label", Description: "doubted labels", ScoreNote: "1 − p", Flagged: 2, Findings: []Finding{
				{Index: 7, Other: -1, Label: "3", Suggested: "5", Score: 0.99, Pixels: px(255)},
				{Index: 9, Other: -1, Label: "1", Suggested: "1", Score: 0.5, Pixels: px(128)},
			}},
			{Name: "duplicate", Description: "copies", Flagged: 1, Findings: []Finding{
				{Index: 4, Other: 8, Label: "2", OtherLabel: "7", Score: 1, Pixels: px(255), OtherPixels: px(255)},
			}},
			{Name: "outlier", Description: "not digits"},
		},
		Classes:  []ClassCount{{"0 <zero>", 12}, {"1", 30}},
		Sections: []Section{{Title: "Confusion matrix", Caption: "rows: given", Image: chart, Table: &Table{Header: []string{"given", "0"}, Rows: [][]string{{"0", "<b>5</b>"}}}}},
	}
}

// TestWrite writes a report and checks its files, that every string is escaped, that the
// PNGs decode, and that the page names only its own files (no network, no scripts).
func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	if err := Write(context.Background(), dir, sampleReport()); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != export.ReportMarker+" classes.png duplicate.png index.html label.png section-1.png" {
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

// Write refuses findings whose pixels are not H×W, writing nothing, and a cancelled context,
// leaving no temporary folder.
func TestWriteRefusals(t *testing.T) {
	root := t.TempDir()
	r := sampleReport()
	r.Kinds[0].Findings[0].Pixels = make([]byte, 10)
	if err := Write(context.Background(), filepath.Join(root, "bad"), r); err == nil {
		t.Error("pixels of the wrong size were accepted")
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Write(cancelled, filepath.Join(root, "cancelled"), sampleReport()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if left, _ := os.ReadDir(root); len(left) != 0 {
		t.Errorf("left %v", left)
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
	if err := Write(context.Background(), dir, sampleReport()); err != nil {
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
