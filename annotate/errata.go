package annotate

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// An errata file is CSV: a first comment line naming the images file's SHA-256 and sample
// count, the header ErrataHeader, then one row a correction:
//
//	# idxlabel errata: images sha256 0fa7898d…, 10000 samples, "t10k-images-idx3-ubyte.gz"
//	index,sha256,old,new,votes,note
//	2130,8b4a…,4,9,3/3,crowd review 2024
//
// index is the sample's number (0-based) in the images it was made from, sha256 the
// SampleDigest of its stored bytes, old the label it had and new the label it should have
// (empty: no label), votes "V/A" (V of the A annotators who labelled it gave new; empty when
// unknown), note free text on one line.

// ErrataHeader is the header row of an errata file.
var ErrataHeader = []string{"index", "sha256", "old", "new", "votes", "note"}

// VotesHeader is the header row of a votes file (Panel.Majority's or DawidSkene's votes).
var VotesHeader = []string{"index", "label", "votes", "annotators"}

// Row is one correction: sample Index, whose stored bytes have the digest SHA256, is labelled
// Old and should be labelled New (NoLabel: none).
type Row struct {
	Line     int // the 1-based line it was read from (0 for a row made by MakeErrata)
	Index    int
	SHA256   Digest
	Old, New int32
	Votes    string // "V/A" or ""
	Note     string
}

// Errata is a list of corrections to the labels of one set of images.
type Errata struct {
	// Images is the SHA-256 of the images file the rows were made from (ImageHashes.File),
	// and Samples its sample count; HasImages is false (Samples −1) when the file did not say.
	Images    Digest
	HasImages bool
	Samples   int
	Rows      []Row
}

// ErrNote: a note holds a control character (a line break, a tab, an escape) or is not
// UTF-8; an errata field is one line of text.
var ErrNote = errors.New("a note is one line of text: no control characters (line breaks, tabs, escapes)")

// CheckNote returns ErrNote for a note an errata file cannot hold, and an error for one longer
// than 1,000 bytes.
func CheckNote(note string) error {
	if !utf8.ValidString(note) || strings.IndexFunc(note, unicode.IsControl) >= 0 {
		return ErrNote
	}
	if len(note) > 1000 {
		return fmt.Errorf("a note is at most 1000 bytes, found %d", len(note))
	}
	return nil
}

// MakeErrata returns a row for every sample whose label in old differs from new (both one
// label a sample, as many as h.Samples), with the note (CheckNote) on every row. votes, when
// not nil (one a sample), gives each row its votes, "V/A", where the vote's label is new;
// otherwise the field stays empty. Errors: lengths that differ from the images' sample count,
// a note CheckNote refuses.
func MakeErrata(h *ImageHashes, old, new []int32, votes []Vote, note string) (*Errata, error) {
	n := len(h.Samples)
	switch {
	case len(old) != n:
		return nil, fmt.Errorf("annotate: %d old labels for %d images", len(old), n)
	case len(new) != n:
		return nil, fmt.Errorf("annotate: %d new labels for %d images", len(new), n)
	case votes != nil && len(votes) != n:
		return nil, fmt.Errorf("annotate: %d votes for %d images", len(votes), n)
	}
	if err := CheckNote(note); err != nil {
		return nil, err
	}
	e := &Errata{Images: h.File, HasImages: true, Samples: n}
	for i := range n {
		if old[i] == new[i] {
			continue
		}
		r := Row{Index: i, SHA256: h.Samples[i], Old: old[i], New: new[i], Note: note}
		if votes != nil && votes[i].Label == new[i] && votes[i].Annotators > 0 {
			r.Votes = fmt.Sprintf("%d/%d", votes[i].Votes, votes[i].Annotators)
		}
		e.Rows = append(e.Rows, r)
	}
	return e, nil
}

// WriteCSV writes e as an errata file to w. imagesName (quoted, for a reader's information
// only: never used as a path) names the images in the comment line.
func (e *Errata) WriteCSV(w io.Writer, imagesName string) error {
	if e.HasImages {
		count := ""
		if e.Samples >= 0 {
			count = fmt.Sprintf(", %d samples", e.Samples)
		}
		if _, err := fmt.Fprintf(w, "# idxlabel errata: images sha256 %s%s, %s\n", e.Images, count, strconv.Quote(imagesName)); err != nil {
			return err
		}
	}
	cw := csv.NewWriter(w)
	cw.Write(ErrataHeader)
	rec := make([]string, len(ErrataHeader))
	for _, r := range e.Rows {
		rec[0] = strconv.Itoa(r.Index)
		rec[1] = r.SHA256.String()
		rec[2] = formatLabel(r.Old)
		rec[3] = formatLabel(r.New)
		rec[4] = r.Votes
		rec[5] = r.Note
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

var (
	commentDigest  = regexp.MustCompile(`\bsha256 ([0-9a-fA-F]{64})\b`)
	commentSamples = regexp.MustCompile(`\b([0-9]{1,10}) samples\b`)
	votesField     = regexp.MustCompile(`^([0-9]{1,10})/([0-9]{1,10})$`)
)

// ReadErrata reads an errata file from r; name names it in errors. The file is untrusted: it is
// read within MaxBytes, MaxLine and MaxRows, and every field is checked: index a sample number
// (0 to 2147483647, digits only), sha256 64 hexadecimal digits, old and new labels (empty for
// none; not both the same), votes empty or "V/A" with V ≤ A, note one line of text (CheckNote);
// no sample twice. Nothing in it is ever used as a path. Errors: a *FormatError naming the file
// and line, or the reader's error.
func ReadErrata(r io.Reader, name string) (*Errata, error) {
	f, err := openCSV(r, name, ErrataHeader)
	if err != nil {
		return nil, err
	}
	e := &Errata{Samples: -1}
	if m := commentDigest.FindStringSubmatch(f.comment); m != nil {
		e.Images, _ = ParseDigest(m[1])
		e.HasImages = true
		if s := commentSamples.FindStringSubmatch(f.comment); s != nil {
			e.Samples, _ = parseCount(s[1])
		}
	}
	prevNote := ""
	ascending := true // rows by increasing index, as MakeErrata writes them: no sample twice
	for {
		rec, line, err := f.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		bad := func(format string, a ...any) error {
			return &FormatError{name, line, fmt.Sprintf(format, a...)}
		}
		row := Row{Line: line}
		var ok bool
		if row.Index, ok = parseCount(rec[0]); !ok {
			return nil, bad("index %s is not a sample number (0, 1, 2, …)", quoteShort(rec[0]))
		}
		if row.SHA256, err = ParseDigest(rec[1]); err != nil {
			return nil, bad("sha256 %s: %v", quoteShort(rec[1]), err)
		}
		if row.Old, ok = parseLabel(rec[2]); !ok {
			return nil, bad("old label %s is not a 32-bit class (or empty for none)", quoteShort(rec[2]))
		}
		if row.New, ok = parseLabel(rec[3]); !ok {
			return nil, bad("new label %s is not a 32-bit class (or empty for none)", quoteShort(rec[3]))
		}
		if row.Old == row.New {
			return nil, bad("old and new label are the same (%s): nothing to correct", quoteShort(rec[2]))
		}
		if rec[4] != "" {
			m := votesField.FindStringSubmatch(rec[4])
			v, okV := 0, false
			a, okA := 0, false
			if m != nil {
				v, okV = parseCount(m[1])
				a, okA = parseCount(m[2])
			}
			if !okV || !okA || v > a {
				return nil, bad("votes %s: expected V/A, V of the A annotators who labelled the sample, or nothing", quoteShort(rec[4]))
			}
			row.Votes = rec[4]
		}
		if err := CheckNote(rec[5]); err != nil {
			return nil, bad("note: %v", err)
		}
		row.Note = rec[5]
		if row.Note == prevNote { // one string for a note every row repeats
			row.Note = prevNote
		}
		prevNote = row.Note
		if n := len(e.Rows); n > 0 && row.Index <= e.Rows[n-1].Index {
			ascending = false
		}
		e.Rows = append(e.Rows, row)
	}
	if !ascending {
		if err := repeated(e.Rows, name); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// repeated returns a *FormatError for the first line (in file order) that corrects a sample
// an earlier line corrects too, nil when none does. O(R log R) for R rows.
func repeated(rows []Row, name string) error {
	order := make([]int32, len(rows))
	for k := range order {
		order[k] = int32(k)
	}
	slices.SortFunc(order, func(a, b int32) int {
		return cmp.Or(cmp.Compare(rows[a].Index, rows[b].Index), cmp.Compare(a, b))
	})
	var dup *FormatError
	for k := 1; k < len(order); k++ {
		first, again := rows[order[k-1]], rows[order[k]]
		if first.Index == again.Index && (dup == nil || again.Line < dup.Line) {
			dup = &FormatError{name, again.Line, fmt.Sprintf("sample %d is corrected twice (line %d too)", again.Index, first.Line)}
		}
	}
	if dup == nil {
		return nil
	}
	return dup
}

// WriteVotes writes votes (one a sample) as CSV index,label,votes,annotators to w: label empty
// where it is NoLabel.
func WriteVotes(w io.Writer, votes []Vote) error {
	cw := csv.NewWriter(w)
	cw.Write(VotesHeader)
	rec := make([]string, len(VotesHeader))
	for i, v := range votes {
		rec[0] = strconv.Itoa(i)
		rec[1] = formatLabel(v.Label)
		rec[2] = strconv.Itoa(int(v.Votes))
		rec[3] = strconv.Itoa(int(v.Annotators))
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// ReadVotes reads a votes file (WriteVotes) for n samples from r; name names it in errors.
// Samples it does not list have no vote (Label NoLabel, 0 of 0). The file is untrusted and read
// within the same bounds as ReadErrata: index a sample number below n, each once; label empty or
// a 32-bit class; votes ≤ annotators. Errors: a *FormatError naming the file and line, or the
// reader's error.
func ReadVotes(r io.Reader, name string, n int) ([]Vote, error) {
	f, err := openCSV(r, name, VotesHeader)
	if err != nil {
		return nil, err
	}
	out := make([]Vote, n)
	for i := range out {
		out[i].Label = NoLabel
	}
	listed := make([]bool, n)
	for {
		rec, line, err := f.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		bad := func(format string, a ...any) error {
			return &FormatError{name, line, fmt.Sprintf(format, a...)}
		}
		i, ok := parseCount(rec[0])
		if !ok || i >= n {
			return nil, bad("index %s is not a sample number of the %d images", quoteShort(rec[0]), n)
		}
		if listed[i] {
			return nil, bad("sample %d is listed twice", i)
		}
		listed[i] = true
		l, okL := parseLabel(rec[1])
		v, okV := parseCount(rec[2])
		a, okA := parseCount(rec[3])
		if !okL || !okV || !okA || v > a {
			return nil, bad("expected a label (or nothing), then V votes of A annotators, V ≤ A; found %s", quoteShort(strings.Join(rec, ",")))
		}
		out[i] = Vote{Label: l, Votes: int32(v), Annotators: int32(a)}
	}
}
