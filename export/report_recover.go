package export

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"idxlabel/internal/atomicfile"
)

// reportPlace returns where WriteReport builds the report dir: its parent folder and the name
// prefix of its temporary folder, ".<name>.idxlabel-report-" (os.MkdirTemp adds digits; an
// earlier report set aside while it is replaced adds oldSuffix too).
func reportPlace(dir string) (parent, pattern string) {
	return filepath.Dir(dir), "." + filepath.Base(dir) + ".idxlabel-report-"
}

// recoverReports removes, before a new report of dir, what earlier reports of dir that were
// killed midway left beside it: folders named by reportPlace (a partial or complete new
// report, an earlier report set aside) that are folders, not links; hold a report's files and
// nothing else (reportTree; or nothing at all); are not held by a report that still runs (a
// flock on their ReportMarker, atomicfile.Held); and in which nothing changed for
// atomicfile.StaleAge (abandoned). Nothing is put back: the caller writes dir whole. Best
// effort: what it cannot read or remove it leaves. Time: one listing of dir's parent and one of
// each such folder.
func recoverReports(dir string) {
	parent, pattern := reportPlace(dir)
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
		if atomicfile.Held(filepath.Join(p, ReportMarker)) || !abandoned(p) {
			continue
		}
		if t, err := reportTree(p, p); err == nil {
			t.remove()
		}
	}
}
