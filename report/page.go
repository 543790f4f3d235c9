package report

import (
	"bytes"
	"context"
	"fmt"
	"idxlabel/internal/atomicfile"
	"image"
	"image/png"
	"path/filepath"
	"strings"

	"idxlabel/export"
)

// Report is a dataset health report: what Write puts in a folder as index.html and PNG
// images, readable offline in any browser (no scripts, nothing fetched from the network).
// Every string in it is shown as text (HTML-escaped), so names read from files are safe.
type Report struct {
	Title string
	// Facts are name–value lines shown under the title (the files, the samples, when, how long).
	Facts [][2]string
	// H and W are the samples' size in pixels (the tiles of the contact sheets).
	H, W int
	// Kinds are the kinds of finding checked, each with a contact sheet of its findings.
	Kinds []Kind
	// Classes is the class histogram (nil: none, for a set without labels).
	Classes []ClassCount
	// Sections are added after the built-in ones, in order: a titled image or table with a
	// caption (the confusion matrix, the 2-D map, …).
	Sections []Section
}

// Kind is one kind of finding: its count and its top findings.
type Kind struct {
	Name        string // the kind's name ("label", "outlier", …)
	Description string // one sentence: what a finding of this kind is
	ScoreNote   string // what the score means
	Flagged     int    // findings that pass the kind's bar
	// Findings are the top findings, most severe first, shown on the contact sheet and in a
	// table (the caller bounds how many).
	Findings []Finding
}

// Finding is one finding as the report shows it.
type Finding struct {
	Index int // the sample's number in its file
	// Other is the second sample's number (a duplicate's other copy, a leak's sample in the
	// other set); -1 for none.
	Other            int
	Label, Suggested string  // the given and the suggested label as shown ("" for none)
	OtherLabel       string  // the second sample's label ("" for none or unknown)
	Score            float64 // the kind's score
	// Pixels and OtherPixels are the samples' H×W display pixels (0 = background); OtherPixels
	// is nil for a finding without a second sample.
	Pixels, OtherPixels []byte
}

// ClassCount is one bar of the class histogram.
type ClassCount struct {
	Class string // the class as shown (its number, and its name when it has one)
	Count int
}

// Section is an extra part of the report: a title, a caption, and an image, a table or both.
type Section struct {
	Title, Caption string
	Image          image.Image // saved as a PNG beside index.html (nil: none)
	Alt            string      // the image's text alternative (default: Title)
	Table          *Table      // nil: none
}

// Table is a table of text cells.
type Table struct {
	Header []string
	Rows   [][]string
}

// Write writes r into the folder dir as index.html and PNG images: one contact sheet per kind
// (<kind>.png), the class histogram (classes.png) and each section's image (section-N.png),
// through export.WriteReportFolder (built under a temporary name beside dir and renamed at the
// end; an existing dir replaced only when it is an earlier report or empty). Errors: samples
// whose pixels are not H×W, and those of export.WriteReportFolder (export.ErrInTheWay wrapped,
// the context's error, a write error naming dir).
func Write(ctx context.Context, dir string, r Report) error {
	if r.H <= 0 || r.W <= 0 {
		return fmt.Errorf("report: samples of %d×%d pixels", r.H, r.W)
	}
	for _, k := range r.Kinds {
		for _, f := range k.Findings {
			if len(f.Pixels) != r.H*r.W || f.OtherPixels != nil && len(f.OtherPixels) != r.H*r.W {
				return fmt.Errorf("report: %s finding %d: pixels are not %d×%d", k.Name, f.Index, r.H, r.W)
			}
		}
	}
	return export.WriteReportFolder(ctx, dir, func(tmp string) error { return build(ctx, tmp, r) })
}

// build writes the report's files into the folder dir (which holds its ReportMarker).
func build(ctx context.Context, dir string, r Report) error {
	page := pageData{Report: r}
	save := func(name string, img image.Image) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			return err
		}
		return atomicfile.WriteNew(filepath.Join(dir, name), b.Bytes())
	}
	for _, k := range r.Kinds {
		name := ""
		if len(k.Findings) > 0 {
			name = safeName(k.Name) + ".png"
			if err := save(name, contactSheet(k.Findings, r.H, r.W)); err != nil {
				return err
			}
		}
		page.Sheets = append(page.Sheets, name)
	}
	if len(r.Classes) > 0 {
		page.Histogram = "classes.png"
		if err := save(page.Histogram, histogram(r.Classes)); err != nil {
			return err
		}
	}
	for n, s := range r.Sections {
		name := ""
		if s.Image != nil {
			name = fmt.Sprintf("section-%d.png", n+1)
			if err := save(name, s.Image); err != nil {
				return err
			}
		}
		page.SectionImages = append(page.SectionImages, name)
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, page); err != nil {
		return err
	}
	return atomicfile.WriteNew(filepath.Join(dir, "index.html"), b.Bytes())
}

// safeName keeps letters, digits and '-' of a kind's name for its file name.
func safeName(s string) string {
	out := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, s)
	if out == "" || out == "classes" || strings.HasPrefix(out, "section-") {
		out = "kind-" + out
	}
	return out
}
