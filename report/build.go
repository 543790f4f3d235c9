// Package report builds the offline health report of a dataset from a health check
// (suspect/health): its findings with their thumbnails, the class histogram, the facts of the
// check (the files by name and SHA-256, the tool's version, when and how long), and, when a
// CNN scan ran, the confusion matrix and the 2-D map (ScanViews); and it draws the report's page
// and pictures (Report, Write: index.html, contact sheets, the histogram) into a folder that
// export puts in place by its rule for report folders (export.WriteReportFolder). It also writes
// the scan's confusion matrix and map as CSV. The command line (check --report) and the window
// (Export Health Report) build a report with the one function Build and write it with Write.
// No Fyne.
package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"idxlabel/internal/numfmt"
	"idxlabel/internal/version"
	"idxlabel/sample"
	"idxlabel/suspect/health"
)

// Input is what one health report is built from.
type Input struct {
	// Set is the checked samples as the check saw them: finding k of Result is sample k of Set.
	Set sample.Set
	// Other is the set the leaks were sought in (check --against); nil when none.
	Other *sample.Set
	// Result holds the findings to show, each kind already cut to what the report lists.
	Result *health.Result
	// Views holds the scan's confusion matrix and map (NewScanViews); the zero value: none.
	Views ScanViews
	// Images and Labels are the checked files ("" when the set has none: a new dataset, images
	// without labels). The report names them by file name, never by folder, with a SHA-256.
	Images, Labels string
	// Against lists the files the set was checked against ("" entries are left out).
	Against []string
	// Began and Took say when the check ran and how long it took.
	Began time.Time
	Took  time.Duration
	// Stale says that edits were made since the check: the report says they are not in it.
	Stale bool
}

// Build makes the health report of in: the title (the image file's name), the facts (the
// tool's version, each file by name with its SHA-256, the samples' count and size, the scan's
// out-of-fold error, when and how long, and whether edits since are left out), the findings of
// every kind with their thumbnails (Findings), and the confusion matrix and map sections of
// in.Views. Reading a file for its SHA-256 is the only I/O: a file that cannot be read is named
// with why, not a failure. Growth: O(N) for the histogram, the files' sizes for the hashes.
// Errors: those of in.Views.Sections.
func Build(in Input) (Report, error) {
	name := "the dataset"
	if in.Images != "" {
		name = filepath.Base(in.Images)
	}
	facts := [][2]string{{"Tool", "idxlabel " + version.Version}}
	if in.Images != "" {
		facts = append(facts, [2]string{"Images", fileFact(in.Images)})
	}
	if in.Labels != "" {
		facts = append(facts, [2]string{"Labels", fileFact(in.Labels)})
	}
	against := slices.DeleteFunc(slices.Clone(in.Against), func(s string) bool { return s == "" })
	for i, a := range against {
		against[i] = fileFact(a)
	}
	if len(against) > 0 {
		facts = append(facts, [2]string{"Checked against", strings.Join(against, "; ")})
	}
	h, w := in.Set.ShownSize()
	facts = append(facts, [2]string{"Samples", numfmt.Sprintf("%d", in.Set.N) + fmt.Sprintf(", %d×%d pixels", h, w)})
	if in.Result.Scan != nil {
		facts = append(facts, [2]string{"CNN scan", fmt.Sprintf("out-of-fold error %.2f%%", 100*in.Result.Scan.Error)})
	}
	facts = append(facts, [2]string{"Checked", fmt.Sprintf("%s, in %.1f s", in.Began.Format("2006-01-02 15:04"), in.Took.Seconds())})
	if in.Stale {
		facts = append(facts, [2]string{"Edits since the check", "not in this report (check again to include them)"})
	}
	r := Findings("Health check of "+name, facts, in.Result, in.Set, in.Other)
	sections, err := in.Views.Sections(in.Set.ClassName)
	if err != nil {
		return Report{}, err
	}
	r.Sections = append(r.Sections, sections...)
	return r, nil
}

// fileFact names a file for a report: its name without its folder, and its SHA-256 (of the
// bytes on disk, gzip as stored), or why it could not be read.
func fileFact(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("%s (not read: %v)", filepath.Base(path), errCause(err))
	}
	defer f.Close()
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return fmt.Sprintf("%s (not read: %v)", filepath.Base(path), errCause(err))
	}
	return fmt.Sprintf("%s (SHA-256 %s)", filepath.Base(path), hex.EncodeToString(sum.Sum(nil)))
}

// errCause returns the cause of a path error without the path (which names a folder of the
// person's machine).
func errCause(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
