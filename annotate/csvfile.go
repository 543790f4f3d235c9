package annotate

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds on a CSV file this package reads (an errata or votes file): every byte is untrusted,
// so its size, each line and the number of rows are bounded before they are held.
const (
	MaxLine  = 4096      // bytes in one line
	MaxBytes = 256 << 20 // bytes in one file (256 MiB: 1,000,000 rows with long notes)
	MaxRows  = 1 << 21   // rows in one file (2,097,152)
)

// FormatError is a malformed errata or votes file: File names it, Line is the 1-based line
// (0: the file as a whole), Msg says what was expected and what was found.
type FormatError struct {
	File string
	Line int
	Msg  string
}

func (e *FormatError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// csvFile reads one bounded CSV file: an optional first comment line ("# …"), a header of
// known columns, then rows of exactly those columns.
type csvFile struct {
	name    string
	comment string // the first line's text after "#", when it was a comment
	in      *boundedReader
	r       *csv.Reader
	rows    int
}

// openCSV starts reading r, the file name, whose header must be want.
func openCSV(r io.Reader, name string, want []string) (*csvFile, error) {
	f := &csvFile{name: name, in: &boundedReader{r: r, name: name}}
	br := bufio.NewReaderSize(f.in, MaxLine+2)
	if first, err := br.Peek(1); err == nil && first[0] == '#' || startsWithBOMComment(br) {
		line, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return nil, f.fail(err)
		}
		line = strings.TrimPrefix(line, "\uFEFF")
		f.comment = strings.TrimSpace(strings.TrimPrefix(line, "#"))
		f.in.lines = 1
	}
	f.r = csv.NewReader(br)
	f.r.FieldsPerRecord = len(want)
	f.r.ReuseRecord = true
	f.r.Comment = '#'
	head, line, err := f.next()
	if err == io.EOF {
		return nil, &FormatError{name, 0, fmt.Sprintf("empty: expected the header %s", strings.Join(want, ","))}
	}
	if err != nil {
		return nil, err
	}
	for i, h := range head {
		if strings.TrimPrefix(h, "\uFEFF") != want[i] {
			return nil, &FormatError{name, line, fmt.Sprintf("expected the header %s, found %s", strings.Join(want, ","), quoteShort(strings.Join(head, ",")))}
		}
	}
	f.rows = 0
	return f, nil
}

// startsWithBOMComment reports whether br starts with a UTF-8 byte order mark and "#".
func startsWithBOMComment(br *bufio.Reader) bool {
	b, _ := br.Peek(4)
	return len(b) == 4 && string(b[:3]) == "\uFEFF" && b[3] == '#'
}

// next returns the next record and its line; io.EOF at the end. Errors: a *FormatError naming
// the line (not CSV, a wrong number of fields, a line too long, a file too large, too many
// rows), or the reader's own.
func (f *csvFile) next() ([]string, int, error) {
	rec, err := f.r.Read()
	if err == io.EOF {
		return nil, 0, io.EOF
	}
	if err != nil {
		return nil, 0, f.fail(err)
	}
	line, _ := f.r.FieldPos(0)
	line += f.in.offset()
	if f.rows++; f.rows > MaxRows {
		return nil, line, &FormatError{f.name, line, fmt.Sprintf("more than %d rows", MaxRows)}
	}
	for i, field := range rec {
		if !utf8.ValidString(field) {
			return nil, line, &FormatError{f.name, line, fmt.Sprintf("field %d is not UTF-8 text", i+1)}
		}
		if j := strings.IndexFunc(field, unicode.IsControl); j >= 0 {
			return nil, line, &FormatError{f.name, line, fmt.Sprintf("field %d holds a control character (%U): a field is one line of text", i+1, []rune(field[j:])[0])}
		}
	}
	return rec, line, nil
}

// fail turns an error of the CSV reader or the bounded reader into one naming the file.
func (f *csvFile) fail(err error) error {
	var fe *FormatError
	if errors.As(err, &fe) {
		return fe
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		if errors.As(pe.Err, &fe) {
			return fe
		}
		msg := pe.Err.Error()
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			msg = fmt.Sprintf("expected %d comma-separated fields", f.r.FieldsPerRecord)
		}
		return &FormatError{f.name, pe.Line + f.in.offset(), "not CSV: " + msg}
	}
	return fmt.Errorf("%s: %w", f.name, err)
}

// boundedReader passes a file's bytes through while counting its lines, and fails (with a
// *FormatError) at the first line longer than MaxLine or once the file passes MaxBytes.
type boundedReader struct {
	r     io.Reader
	name  string
	total int64
	line  int // bytes of the current line so far
	seen  int // lines ended so far
	lines int // lines before the CSV reader's first (the comment line), added to its numbers
	err   error
}

func (b *boundedReader) offset() int { return b.lines }

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.err != nil { // sticky: a bufio.Reader hands an error out once
		return 0, b.err
	}
	n, err := b.r.Read(p)
	for _, c := range p[:n] {
		switch {
		case c == 0:
			b.err = &FormatError{b.name, b.seen + 1, "binary data (a NUL byte): not a CSV file"}
		case c == '\n':
			b.seen++
			b.line = 0
		default:
			if b.line++; b.line > MaxLine {
				b.err = &FormatError{b.name, b.seen + 1, fmt.Sprintf("longer than %d bytes: not an errata or votes line", MaxLine)}
			}
		}
		if b.err != nil {
			return 0, b.err
		}
	}
	if b.total += int64(n); b.total > MaxBytes {
		b.err = &FormatError{b.name, 0, fmt.Sprintf("larger than %d MiB: not an errata or votes file", MaxBytes>>20)}
		return 0, b.err
	}
	return n, err
}

// parseCount reads a non-negative decimal of at most 10 digits (0 to 2147483647): a sample
// number or a count. Nothing else: no sign, spaces or other bases.
func parseCount(s string) (int, bool) {
	if s == "" || len(s) > 10 || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, 32)
	return int(v), err == nil
}

// parseLabel reads a label field: empty (or −2147483648) for none, else a 32-bit class.
func parseLabel(s string) (int32, bool) {
	if s == "" {
		return NoLabel, true
	}
	if len(s) > 11 || strings.TrimLeft(s, "-0123456789") != "" {
		return 0, false
	}
	v, err := strconv.ParseInt(s, 10, 32)
	return int32(v), err == nil
}

// formatLabel writes a label field: empty for NoLabel.
func formatLabel(l int32) string {
	if l == NoLabel {
		return ""
	}
	return strconv.Itoa(int(l))
}

// quoteShort quotes s for a message, cut to 60 bytes.
func quoteShort(s string) string {
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return strconv.Quote(s)
}
