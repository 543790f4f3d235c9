package export

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"idxlabel/internal/atomicfile"
)

// reportPlace returns where WriteReportFolder builds the report dir: its parent folder and the name
// prefix of its temporary folder, ".<name>.idxlabel-report-" (os.MkdirTemp adds digits; an
// earlier report set aside while it is replaced adds oldSuffix too).
func reportPlace(dir string) (parent, pattern string) {
	return filepath.Dir(dir), "." + filepath.Base(dir) + ".idxlabel-report-"
}

// recoverReports removes, before a new report of dir, what earlier reports of dir that were
// killed midway left beside it (recoverFolders, by reportPlace's names and reportTree's rule).
// Nothing is put back: the caller writes dir whole.
func recoverReports(dir string) { recoverFolders(dir, reportPlace, ReportMarker, reportTree) }

// recoverFolders removes, before a new folder output at dir (a report, a Parquet export), what
// earlier writes of dir that were killed midway left beside it: folders named by place (a
// partial or complete new output, an earlier one set aside) that are folders, not links; hold
// such an output's files and nothing else (find; or nothing at all); are not held by a write
// that still runs (a flock on their marker, atomicfile.Held); and in which nothing changed for
// atomicfile.StaleAge (abandoned). Best effort: what it cannot read or remove it leaves. Time:
// one listing of dir's parent and one of each such folder.
func recoverFolders(dir string, place func(string) (string, string), marker string, find func(dir, name string) (*tree, error)) {
	parent, pattern := place(dir)
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), pattern)
		digits, _ := strings.CutSuffix(rest, oldSuffix)
		if !ok || !allDigits(digits) || e.Type() != fs.ModeDir {
			continue
		}
		p := filepath.Join(parent, e.Name())
		if atomicfile.Held(filepath.Join(p, marker)) || !abandoned(p) {
			continue
		}
		if t, err := find(p, p); err == nil {
			t.remove()
		}
	}
}
