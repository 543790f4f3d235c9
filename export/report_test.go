package export

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fillReport returns a fill for WriteReportFolder that writes index.html and the PNG files
// named (their content is not looked at here: package report writes the real ones).
func fillReport(pngs ...string) func(string) error {
	return func(dir string) error {
		for _, n := range append([]string{"index.html"}, pngs...) {
			if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
}

// sampleFill is a report's files: its page, a contact sheet, the histogram and a section.
var sampleFill = fillReport("label.png", "classes.png", "section-1.png")

// TestWriteReportFolderReplaces: an earlier report is replaced whole, an empty folder is used, and
// anything else is refused and left untouched; ReportAt tells the three apart beforehand.
func TestWriteReportFolderReplaces(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	dir := filepath.Join(root, "report")
	if at, err := ReportAt(dir); at || err != nil {
		t.Fatalf("ReportAt before the report: %v, %v", at, err)
	}
	if err := WriteReportFolder(ctx, dir, sampleFill); err != nil {
		t.Fatal(err)
	}
	if at, err := ReportAt(dir); !at || err != nil {
		t.Fatalf("ReportAt on a report: %v, %v", at, err)
	}
	if err := WriteReportFolder(ctx, dir, fillReport("label.png")); err != nil {
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
	if err := WriteReportFolder(ctx, empty, sampleFill); err != nil {
		t.Errorf("an empty folder: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)
	if _, err := ReportAt(dir); !errors.Is(err, ErrInTheWay) {
		t.Errorf("ReportAt on a report with a file added: %v", err)
	}
	if err := WriteReportFolder(ctx, dir, sampleFill); !errors.Is(err, ErrInTheWay) {
		t.Errorf("a report with a file added: %v", err)
	}
	other := filepath.Join(root, "photos")
	os.Mkdir(other, 0o755)
	os.WriteFile(filepath.Join(other, "a.png"), []byte("x"), 0o644)
	if err := WriteReportFolder(ctx, other, sampleFill); !errors.Is(err, ErrInTheWay) {
		t.Errorf("a folder that is not a report: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(other, "a.png")); string(b) != "x" {
		t.Error("the refused folder was changed")
	}
	failing := errors.New("disk full")
	if err := WriteReportFolder(ctx, filepath.Join(root, "failed"), func(string) error { return failing }); !errors.Is(err, failing) || !strings.Contains(err.Error(), filepath.Join(root, "failed")) {
		t.Errorf("a fill that fails: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := WriteReportFolder(cancelled, filepath.Join(root, "cancelled"), sampleFill); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(root, ".*idxlabel-report-*")); len(left) != 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}

// A report folder named with a trailing separator ("report/", as a shell completes a folder)
// is the folder "report": written when it does not exist (the temporary folder was made inside
// the missing "report/", failing with "no such file or directory"), and replacing an earlier
// report (it was renamed into a folder of its own, failing with "invalid argument").
func TestWriteReportFolderTrailingSeparator(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	dir := filepath.Join(root, "report") + string(filepath.Separator)
	for range 2 {
		if err := WriteReportFolder(ctx, dir, sampleFill); err != nil {
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
func TestWriteReportFolderErrorNamesTheFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing", "report")
	err := WriteReportFolder(context.Background(), dir, sampleFill)
	if err == nil || !strings.Contains(err.Error(), dir) || strings.Contains(err.Error(), "idxlabel-report-") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("report in a missing folder: %v", err)
	}
}
