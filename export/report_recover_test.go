package export

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"idxlabel/internal/atomicfile"
)

// What reports killed midway leave beside their folder (a partial new report, an earlier one set
// aside) is removed by the next report of that folder once abandoned; a fresh one (a report
// that may still run), one holding a file a report never writes, and a link are left alone. Before,
// each report killed while writing left its temporary folder for good (2 of 20 kill -9s of
// idxlabel check --report left one each, 1 MB with --top 1000).
func TestWriteReportFolderRemovesAbandonedLeftovers(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "report")
	old := time.Now().Add(-2 * atomicfile.StaleAge)
	mk := func(name string, files ...string) string {
		p := filepath.Join(root, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			text := "x"
			if f == ReportMarker {
				text = ReportMarkerText
			}
			if err := os.WriteFile(filepath.Join(p, f), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	partial := mk(".report.idxlabel-report-111", ReportMarker, "label.png")
	aside := mk(".report.idxlabel-report-222"+oldSuffix, ReportMarker, "index.html", "classes.png")
	empty := mk(".report.idxlabel-report-333")
	foreign := mk(".report.idxlabel-report-444", ReportMarker, "notes.txt")
	other := mk(".other.idxlabel-report-555", ReportMarker, "index.html")
	for _, p := range []string{partial, aside, empty, foreign, other} {
		os.Chtimes(p, old, old)
	}
	fresh := mk(".report.idxlabel-report-666", ReportMarker, "index.html")
	link := filepath.Join(root, ".report.idxlabel-report-777")
	os.Symlink(other, link)

	if err := WriteReportFolder(context.Background(), dir, sampleFill); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{partial, aside, empty} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is left", filepath.Base(p))
		}
	}
	for _, p := range []string{foreign, other, fresh, link, filepath.Join(other, "index.html")} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
	if at, err := ReportAt(dir); !at || err != nil {
		t.Errorf("ReportAt after the report: %v, %v", at, err)
	}
}
