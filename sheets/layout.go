package sheets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"idxlabel/internal/atomicfile"
	"idxlabel/internal/clip"
)

// Skip is the label of a box that is not read (a printed prompt, a box left for notes).
const Skip = -1

// The bounds of a layout: a page holds at most MaxRows × MaxCols boxes (64 × 64 boxes on an A4
// page are 2.8 mm wide, too small to write in already), labels are 0 to MaxLabel (the largest
// IDX int32), and a layout file is at most MaxLayoutBytes.
const (
	MaxRows        = 64
	MaxCols        = 64
	MaxLabel       = math.MaxInt32
	MaxLayoutBytes = 1 << 20
)

// Layout says how a sheet's grid is read: Rows × Cols boxes, each box's label (Rows×Cols,
// row-major, Skip for a box not read) and the title printed on a template.
type Layout struct {
	Rows, Cols int
	Labels     []int
	Title      string
}

// Label returns the label of the box in row r, column c (0-based).
func (l *Layout) Label(r, c int) int { return l.Labels[r*l.Cols+c] }

// Boxes returns Rows × Cols.
func (l *Layout) Boxes() int { return l.Rows * l.Cols }

// DefaultLayout is the sheet the template prints when nothing else is said: 10 rows × 12
// columns, row k holding the digit k.
func DefaultLayout() *Layout {
	l, _ := ParseLayout(10, 12, "rows=0123456789")
	return l
}

// ParseLayout builds a layout of rows × cols boxes from a label spec, as --labels spells it:
//
//	rows=0123456789   row k holds the k-th label (one character a label, or a comma list)
//	cols=0,1,2,...    column k holds the k-th label
//	0123-56789...     one label a box, row by row (rows × cols of them)
//
// A label is a number 0 to MaxLabel; "-", "_", "x" or "skip" (in a comma list) marks a box not
// read. An empty spec means rows=0123456789 when there are 10 rows. Errors name the spec and
// say what was expected: rows or cols outside 1–MaxRows/MaxCols, a count of labels that does
// not match, a label that is not a number in range, or no box to read.
func ParseLayout(rows, cols int, spec string) (*Layout, error) {
	labels, err := parseSpec(rows, cols, spec)
	if err != nil {
		return nil, err
	}
	l := &Layout{Rows: rows, Cols: cols, Labels: labels}
	if err := l.check(); err != nil {
		return nil, fmt.Errorf("labels %q: %v", clip.Text(spec), err)
	}
	return l, nil
}

// parseSpec is ParseLayout's reading of the spec: the rows×cols labels, row-major.
func parseSpec(rows, cols int, spec string) ([]int, error) {
	if rows < 1 || rows > MaxRows || cols < 1 || cols > MaxCols {
		return nil, fmt.Errorf("a grid of %d×%d boxes: rows must be 1–%d and columns 1–%d", rows, cols, MaxRows, MaxCols)
	}
	if spec == "" {
		if rows != 10 {
			return nil, fmt.Errorf("a grid of %d rows needs its labels (--labels rows=…, cols=… or one a box): only 10 rows default to rows=0123456789", rows)
		}
		spec = "rows=0123456789"
	}
	key, list, keyed := strings.Cut(spec, "=")
	if !keyed {
		key, list = "", spec
	}
	var want int
	switch key {
	case "rows":
		want = rows
	case "cols", "columns":
		want = cols
	case "":
		want = rows * cols
	default:
		return nil, fmt.Errorf("labels %q: expected rows=…, cols=… or one label a box", clip.Text(spec))
	}
	given, err := splitLabels(list, want)
	if err != nil {
		return nil, fmt.Errorf("labels %q: %v", clip.Text(spec), err)
	}
	labels := make([]int, rows*cols)
	for r := range rows {
		for c := range cols {
			switch key {
			case "rows":
				labels[r*cols+c] = given[r]
			case "cols", "columns":
				labels[r*cols+c] = given[c]
			default:
				labels[r*cols+c] = given[r*cols+c]
			}
		}
	}
	return labels, nil
}

// splitLabels reads want labels: comma-separated when list holds a comma, else one character
// each.
func splitLabels(list string, want int) ([]int, error) {
	var parts []string
	if strings.Contains(list, ",") {
		parts = strings.Split(list, ",")
	} else {
		for _, r := range list {
			parts = append(parts, string(r))
		}
	}
	if len(parts) != want {
		return nil, fmt.Errorf("%d labels for %d (one a character, or a comma list)", len(parts), want)
	}
	out := make([]int, want)
	for k, p := range parts {
		v, err := parseLabel(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("label %d: %v", k+1, err)
		}
		out[k] = v
	}
	return out, nil
}

// parseLabel reads one label: a number 0 to MaxLabel, or a mark of a box not read.
func parseLabel(s string) (int, error) {
	switch strings.ToLower(s) {
	case "-", "_", "x", "skip":
		return Skip, nil
	}
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, fmt.Errorf("%q is not a label (a number 0–%d, or - for a box not read)", clip.Text(s), MaxLabel)
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v > MaxLabel {
		return 0, fmt.Errorf("%s is above the largest label an IDX file holds (%d)", s, MaxLabel)
	}
	return int(v), nil
}

// check reports a layout with nothing to read.
func (l *Layout) check() error {
	for _, v := range l.Labels {
		if v != Skip {
			return nil
		}
	}
	return errors.New("every box is skipped: nothing to read")
}

// layoutFile is the JSON a layout file holds.
type layoutFile struct {
	Rows   int               `json:"rows"`
	Cols   int               `json:"cols"`
	Title  string            `json:"title"`
	Labels string            `json:"labels"`
	Boxes  []json.RawMessage `json:"boxes"`
}

type layoutBox struct {
	Row   *int            `json:"row"`
	Col   *int            `json:"col"`
	Label json.RawMessage `json:"label"`
}

// maxTitle bounds a layout's title, in bytes.
const maxTitle = 200

// ReadLayout reads a layout file: JSON
//
//	{"rows": 10, "cols": 12, "title": "Digits", "labels": "rows=0123456789",
//	 "boxes": [{"row": 0, "col": 11, "label": "skip"}, {"row": 9, "col": 0, "label": 7}]}
//
// rows and cols (1–MaxRows, 1–MaxCols) are required; "labels" (ParseLayout's spec) labels every
// box, and "boxes" labels boxes by row and column (0-based), overriding it; without "labels"
// every box must be in "boxes", each once. A label is a number 0 to MaxLabel or "skip". The file
// is untrusted: it must be a regular file of at most MaxLayoutBytes, and is refused, naming it
// and saying what was wrong, when it is not such JSON (an unknown field, a box outside the grid
// or listed twice, a box without a label, a title above 200 bytes).
func ReadLayout(path string) (*Layout, error) {
	f, fi, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > MaxLayoutBytes {
		return nil, fmt.Errorf("%s: a layout file of %d bytes; at most %d", path, fi.Size(), MaxLayoutBytes)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxLayoutBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxLayoutBytes {
		return nil, fmt.Errorf("%s: a layout file above %d bytes", path, MaxLayoutBytes)
	}
	l, err := parseLayoutFile(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return l, nil
}

// parseLayoutFile is ReadLayout on the file's bytes.
func parseLayoutFile(data []byte) (*Layout, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var lf layoutFile
	if err := dec.Decode(&lf); err != nil {
		return nil, fmt.Errorf("not a layout (JSON with rows, cols, labels, boxes): %v", err)
	}
	if dec.More() {
		return nil, errors.New("not a layout: more after its JSON object")
	}
	if len(lf.Title) > maxTitle {
		return nil, fmt.Errorf("a title of %d bytes; at most %d", len(lf.Title), maxTitle)
	}
	if lf.Rows < 1 || lf.Rows > MaxRows || lf.Cols < 1 || lf.Cols > MaxCols {
		return nil, fmt.Errorf("rows %d, cols %d: rows must be 1–%d and cols 1–%d", lf.Rows, lf.Cols, MaxRows, MaxCols)
	}
	if len(lf.Boxes) > lf.Rows*lf.Cols {
		return nil, fmt.Errorf("%d boxes listed for a grid of %d×%d", len(lf.Boxes), lf.Rows, lf.Cols)
	}
	l := &Layout{Rows: lf.Rows, Cols: lf.Cols, Title: lf.Title, Labels: make([]int, lf.Rows*lf.Cols)}
	set := make([]bool, len(l.Labels))
	if lf.Labels != "" {
		labels, err := parseSpec(lf.Rows, lf.Cols, lf.Labels)
		if err != nil {
			return nil, err
		}
		copy(l.Labels, labels)
		for k := range set {
			set[k] = true
		}
	}
	listed := make([]bool, len(l.Labels))
	for k, raw := range lf.Boxes {
		var b layoutBox
		d := json.NewDecoder(bytes.NewReader(raw))
		d.DisallowUnknownFields()
		if err := d.Decode(&b); err != nil {
			return nil, fmt.Errorf("box %d: expected {\"row\": R, \"col\": C, \"label\": L or \"skip\"}: %v", k+1, err)
		}
		if b.Row == nil || b.Col == nil || b.Label == nil {
			return nil, fmt.Errorf("box %d: needs row, col and label", k+1)
		}
		r, c := *b.Row, *b.Col
		if r < 0 || r >= l.Rows || c < 0 || c >= l.Cols {
			return nil, fmt.Errorf("box %d: row %d, col %d is outside the grid of %d×%d (rows and columns count from 0)", k+1, r, c, l.Rows, l.Cols)
		}
		i := r*l.Cols + c
		if listed[i] {
			return nil, fmt.Errorf("box %d: row %d, col %d is listed twice", k+1, r, c)
		}
		listed[i], set[i] = true, true
		v, err := boxLabel(b.Label)
		if err != nil {
			return nil, fmt.Errorf("box %d (row %d, col %d): %v", k+1, r, c, err)
		}
		l.Labels[i] = v
	}
	for i, ok := range set {
		if !ok {
			return nil, fmt.Errorf("row %d, col %d has no label: give \"labels\" or list every box (\"skip\" for a box not read)", i/l.Cols, i%l.Cols)
		}
	}
	if err := l.check(); err != nil {
		return nil, err
	}
	return l, nil
}

// boxLabel reads a box's label: a JSON number 0 to MaxLabel, or a string ParseLayout takes for
// one label ("skip", "-", "7").
func boxLabel(raw json.RawMessage) (int, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return parseLabel(strings.TrimSpace(s))
	}
	var n json.Number
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&n); err != nil {
		return 0, fmt.Errorf("label %s: expected a number or \"skip\"", raw)
	}
	return parseLabel(n.String())
}
