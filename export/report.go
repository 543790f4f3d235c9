package export

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
)

// ReportMarker is the file a report folder holds (DIR/.idxlabel-report, with
// ReportMarkerText), so that WriteReportFolder replaces only an earlier report.
const (
	ReportMarker     = ".idxlabel-report"
	ReportMarkerText = "idxlabel health report: index.html and PNG images written by idxlabel; writing a report here again replaces this folder whole.\n"
)

// WriteReportFolder writes a health report's folder dir (package report makes its files): fill
// writes index.html and PNG files into a temporary folder beside dir (its ReportMarker written
// first and held while it runs), which is renamed to dir at the end, so a failed or cancelled
// write leaves nothing half-written; what a killed one left beside dir is removed by the next
// report of dir once abandoned for atomicfile.StaleAge (recoverReports). An existing dir is
// replaced only when it is an earlier report (the ReportMarker file and only index.html and .png
// files) or empty. dir is cleaned first: "report/" is the folder report, its temporary folder
// beside it. Errors: ErrInTheWay (wrapped, naming dir and what is there), fill's error, the
// context's error (ctx is checked once fill is done, before dir is replaced), and any write error
// (naming dir, not the temporary folder).
func WriteReportFolder(ctx context.Context, dir string, fill func(tmp string) error) error {
	dir = filepath.Clean(dir)
	if err := checkReportDir(dir); err != nil {
		return err
	}
	recoverReports(dir)
	out := folderOutput{what: "the report", marker: ReportMarker, markerText: ReportMarkerText, place: reportPlace,
		replaceable: folderReplaceable, find: reportTree}
	return out.write(ctx, dir, func(tmp string) error {
		if err := fill(tmp); err != nil {
			return err
		}
		return ctx.Err()
	})
}

// pathCause is err's cause when err is a *fs.PathError (naming a temporary path the person
// never gave), else err.
func pathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
