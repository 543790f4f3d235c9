package sheets

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// A4's size in millimetres: the template's page.
const (
	PageWidth  = 210.0
	PageHeight = 297.0
)

// Mark is one thing printed on a template page: a filled rectangle (Text empty) or a line of
// text. Positions are millimetres from the page's top left.
type Mark struct {
	X, Y, W, H float64 // a rectangle; for text, X and Y are where its baseline starts
	Grey       float64 // the rectangle's or text's level: 0 black … 1 white
	Text       string  // printable ASCII
	Size       float64 // the text's size, points
}

// Page is a template: an A4 page of marks.
type Page struct {
	Marks []Mark
	// Grid is the grid's outline (the centres of its outer lines), millimetres: left, top,
	// width, height.
	Grid [4]float64
	// Box is a box's side, millimetres; Rows and Cols the grid's shape.
	Box        float64
	Rows, Cols int
}

// The template's rules, millimetres.
const (
	margin    = 15.0
	gridTop   = 56.0 // the grid's top: below the heading, which marks the page's top
	maxBox    = 15.0
	lineWidth = 0.35 // 1 point, the boxes' lines
	outerLine = 0.7  // 2 points, the grid's outline
)

// Template lays out the sheet a layout reads best: on A4, a heading (the layout's title, a
// name and a date field, what to write, and the command that reads the sheet), then the grid
// of square boxes of at most 15 mm ruled with 1-point lines inside a 2-point outline, each row's
// label printed left of it when a row holds one label (each column's above it when a column
// does), and boxes the layout skips shaded grey. The heading above the grid is what tells
// Find which way up a scanned page lies.
func Template(l *Layout) Page {
	p := Page{Rows: l.Rows, Cols: l.Cols}
	box := min(maxBox, (PageWidth-2*margin-10)/float64(l.Cols), (PageHeight-margin-gridTop)/float64(l.Rows))
	gw, gh := box*float64(l.Cols), box*float64(l.Rows)
	gx := (PageWidth - gw) / 2
	p.Grid, p.Box = [4]float64{gx, gridTop, gw, gh}, box
	title := l.Title
	if title == "" {
		title = "Handwritten digits"
	}
	text := func(x, y, size float64, s string) {
		p.Marks = append(p.Marks, Mark{X: x, Y: y, Text: ascii(s), Size: size})
	}
	rect := func(x, y, w, h, grey float64) {
		p.Marks = append(p.Marks, Mark{X: x, Y: y, W: w, H: h, Grey: grey})
	}
	text(gx, 24, 18, title)
	text(gx, 37, 11, "Name:")
	rect(gx+13, 37.5, 90, 0.3, 0)
	text(gx+110, 37, 11, "Date:")
	rect(gx+122, 37.5, gw-122, 0.3, 0)
	rows, cols := sameAlong(l, true), sameAlong(l, false)
	how := "Write one digit in each white box, inside its lines; leave a box empty rather than cross a line."
	switch {
	case rows:
		how = "Write the digit shown at the left of each row in every white box of the row, inside its lines."
	case cols:
		how = "Write the digit shown above each column in every white box of the column, inside its lines."
	}
	text(gx, 45, 9, how)
	text(gx, 50, 7, "Read with: idxlabel import-sheets "+l.flags()+" SHEETS IMAGES LABELS")
	for r := range l.Rows {
		for c := range l.Cols {
			if l.Label(r, c) == Skip {
				rect(gx+float64(c)*box, gridTop+float64(r)*box, box, box, 0.82)
			}
		}
	}
	for r := 0; r <= l.Rows; r++ {
		w := lineWidth
		if r == 0 || r == l.Rows {
			w = outerLine
		}
		rect(gx-w/2, gridTop+float64(r)*box-w/2, gw+w, w, 0)
	}
	for c := 0; c <= l.Cols; c++ {
		w := lineWidth
		if c == 0 || c == l.Cols {
			w = outerLine
		}
		rect(gx+float64(c)*box-w/2, gridTop-w/2, w, gh+w, 0)
	}
	size := min(14, box*72/25.4*0.6)
	digitW := size * 25.4 / 72 * 0.556 // Helvetica's digits are 0.556 em wide
	if rows {
		for r := range l.Rows {
			if v := rowLabel(l, r); v != Skip {
				s := fmt.Sprint(v)
				text(gx-5-digitW*float64(len(s)), gridTop+(float64(r)+0.5)*box+size*25.4/72*0.35, size, s)
			}
		}
	} else if cols {
		for c := range l.Cols {
			if v := colLabel(l, c); v != Skip {
				s := fmt.Sprint(v)
				text(gx+(float64(c)+0.5)*box-digitW*float64(len(s))/2, gridTop-2.5, size*0.8, s)
			}
		}
	}
	return p
}

// sameAlong reports whether every row (byRow) or every column holds one label (skipped boxes
// aside).
func sameAlong(l *Layout, byRow bool) bool {
	n, m := l.Rows, l.Cols
	if !byRow {
		n, m = m, n
	}
	for i := range n {
		want := Skip
		for j := range m {
			r, c := i, j
			if !byRow {
				r, c = j, i
			}
			v := l.Label(r, c)
			if v == Skip {
				continue
			}
			if want == Skip {
				want = v
			} else if v != want {
				return false
			}
		}
	}
	return true
}

func rowLabel(l *Layout, r int) int {
	for c := range l.Cols {
		if v := l.Label(r, c); v != Skip {
			return v
		}
	}
	return Skip
}

func colLabel(l *Layout, c int) int {
	for r := range l.Rows {
		if v := l.Label(r, c); v != Skip {
			return v
		}
	}
	return Skip
}

// flags returns the command-line options that give this layout (ParseLayout's spec).
func (l *Layout) flags() string {
	spec := func(vs []int) string {
		var b strings.Builder
		comma := false
		for _, v := range vs {
			if v > 9 {
				comma = true
			}
		}
		for k, v := range vs {
			if comma && k > 0 {
				b.WriteByte(',')
			}
			if v == Skip {
				b.WriteByte('-')
			} else {
				fmt.Fprint(&b, v)
			}
		}
		return b.String()
	}
	var labels string
	switch {
	case sameAlong(l, true):
		vs := make([]int, l.Rows)
		for r := range vs {
			vs[r] = rowLabel(l, r)
		}
		labels = "rows=" + spec(vs)
	case sameAlong(l, false):
		vs := make([]int, l.Cols)
		for c := range vs {
			vs[c] = colLabel(l, c)
		}
		labels = "cols=" + spec(vs)
	default:
		labels = spec(l.Labels)
	}
	if len(labels) > 60 {
		return fmt.Sprintf("--layout LAYOUT.json (%d×%d)", l.Rows, l.Cols)
	}
	return fmt.Sprintf("--rows %d --cols %d --labels %s", l.Rows, l.Cols, labels)
}

// ascii replaces what is not printable ASCII by '?', so the text is the same in every PDF
// reader's standard font.
func ascii(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 32 || r > 126 {
			return '?'
		}
		return r
	}, s)
}

// WritePDF writes p as a one-page PDF 1.4 (ISO 32000's subset every reader takes): rectangles
// filled in grey, text in the standard Helvetica font, A4, to print at actual size (the reader
// of the sheets does not depend on the size printed).
func WritePDF(w io.Writer, p Page) error {
	const pt = 72 / 25.4
	var content strings.Builder
	for _, m := range p.Marks {
		if m.Text != "" {
			fmt.Fprintf(&content, "%.3f g BT /F1 %.2f Tf %.2f %.2f Td (%s) Tj ET\n", m.Grey, m.Size, m.X*pt, (PageHeight-m.Y)*pt, pdfEscape(m.Text))
			continue
		}
		fmt.Fprintf(&content, "%.3f g %.2f %.2f %.2f %.2f re f\n", m.Grey, m.X*pt, (PageHeight-m.Y-m.H)*pt, m.W*pt, m.H*pt)
	}
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>", PageWidth*pt, PageHeight*pt),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", content.Len(), content.String()),
	}
	bw := bufio.NewWriter(w)
	n, _ := bw.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objects))
	for k, o := range objects {
		offsets[k] = n
		m, _ := fmt.Fprintf(bw, "%d 0 obj\n%s\nendobj\n", k+1, o)
		n += m
	}
	fmt.Fprintf(bw, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(bw, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(bw, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, n)
	return bw.Flush()
}

// pdfEscape escapes a PDF literal string's special characters.
func pdfEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`).Replace(s)
}
