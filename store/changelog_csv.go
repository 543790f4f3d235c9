package store

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"time"

	"idxlabel/internal/atomicfile"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// ChangesSuffix is appended to the label file's path (the image file's when there is none) to
// name the change log that every save appends its changes to, so that the record of what
// changed travels with the files: "t10k-labels-idx1-ubyte.gz.changes.csv" (pairfile.ChangesFile,
// which names it for the save that appends to it and for the opening that finishes an
// interrupted one).
const ChangesSuffix = pairfile.ChangesSuffix

// ChangeLogHeader is the first line of a change log file (CSV, RFC 4180, "\n" line ends).
const ChangeLogHeader = "index,original,new,how,when,source"

// changeLogHeaderV1 is the first line of a change log an idxlabel before sources wrote: saves go
// on appending rows without the source column to such a file.
const changeLogHeaderV1 = "index,original,new,how,when"

// ChangeLog returns every change since the files were opened, oldest first (see the rules
// above). It is a copy.
func (d *Dataset) ChangeLog() []ChangeLogEntry {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.log.sessionEntries(&d.model)
}

// SetWriteChanges says whether saves append their changes to the change log beside the label
// file (ChangesSuffix); it is on until turned off.
func (d *Dataset) SetWriteChanges(on bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.log.off = !on
}

// ChangesFileError returns why the last save could not append its changes to the change log
// beside the label file, or nil when it did (or had nothing to append, or SetWriteChanges is
// off). The save itself succeeded either way: the labels are written; the entries not appended
// are appended by the next save to the same files, or, when their rows were kept beside the
// label file (the error says where: pairfile's held rows), by the next opening of the pair if
// no save comes first, once either way.
func (d *Dataset) ChangesFileError() error {
	d.log.fileMu.Lock()
	defer d.log.fileMu.Unlock()
	return d.log.err
}

// WriteChangeLog writes entries as CSV rows "index,original,new,how,when,source", after the
// header line (ChangeLogHeader) when header is true. Labels are decimal integers, empty for
// sample.NoLabel (an added sample's original, a deleted sample's new); how is How.String() (empty
// when unknown); when is RFC 3339 in UTC to the second ("2026-03-01T13:05:09Z"), empty when
// unknown; source is an added sample's (ChangeLogEntry.Source), empty for none. Errors: w's.
func WriteChangeLog(w io.Writer, entries []ChangeLogEntry, header bool) error {
	return writeChangeRows(w, entries, header, true)
}

// writeChangeRows is WriteChangeLog, without the source column when withSource is false (rows
// appended to a change log an idxlabel before sources wrote: changeLogHeaderV1).
func writeChangeRows(w io.Writer, entries []ChangeLogEntry, header, withSource bool) error {
	cw := csv.NewWriter(w)
	if header {
		h := ChangeLogHeader
		if !withSource {
			h = changeLogHeaderV1
		}
		if _, err := io.WriteString(w, h+"\n"); err != nil {
			return err
		}
	}
	label := func(l int) string {
		if l == sample.NoLabel {
			return ""
		}
		return strconv.Itoa(l)
	}
	for _, e := range entries {
		when := ""
		if !e.When.IsZero() {
			when = e.When.UTC().Format(time.RFC3339)
		}
		row := []string{strconv.Itoa(e.Index), label(e.Original), label(e.New), e.How.String(), when}
		if withSource {
			row = append(row, e.Source)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ExportChangeLog writes the change log of the session (ChangeLog), header first, to path,
// atomically: a file already there is replaced whole, and on failure it is left as it was. It
// returns the number of entries written. Errors: path names one of the pair's own files (the
// images, the labels, or the change log saves append to, which holds earlier sessions' changes),
// and any write error.
func (d *Dataset) ExportChangeLog(path string) (int, error) {
	entries := d.ChangeLog()
	images, labels := d.Paths()
	d.mu.RLock()
	own := d.statePath(ChangesSuffix)
	d.mu.RUnlock()
	for _, p := range []string{images, labels, own} {
		if p != "" && pairfile.SameFile(path, p) {
			return 0, fmt.Errorf("%s is one of this dataset's own files: write the change log to another file", path)
		}
	}
	err := atomicfile.WriteFile(path, func(w io.Writer) error { return WriteChangeLog(w, entries, true) })
	return len(entries), err
}

// logJob is what a save appends to the change log beside the label file it writes
// (sessionLog.plan): the entries the log has not had, and how many of the session's saved
// entries it then holds (sessionLog.appended).
type logJob struct {
	path    string           // the change log (pairfile.ChangesFile of the target); "" for none
	key     string           // path, absolute: sessionLog.appended's key
	entries []ChangeLogEntry // what it appends, oldest first
	saved   []ChangeLogEntry // the save's own entries (sessionLog.pending), for sessionLog.save
	n       int              // len(sessionLog.saved) once the save is done
	off     bool             // SetWriteChanges is off: nothing is appended
}

// plan settles what a save to imagesPath and labelsPath appends to its change log (m.mu held,
// the dataset marked saving, so no edit changes it): for a file this session appended to before
// (whichever files it saved to in between), the entries of the saves since then and this save's;
// the first time this session saves to a file, every change since the files were opened
// (ChangeLog). So saving to A, then B, then A again appends each change to A once. Entries held
// back (the preference off, or a failed append) go with the next save to that file.
func (l *sessionLog) plan(m *model, imagesPath, labelsPath string) *logJob {
	j := &logJob{path: pairfile.ChangesFile(imagesPath, labelsPath), off: l.off, saved: l.pending(m)}
	j.key = j.path
	l.fileMu.Lock()
	defer l.fileMu.Unlock()
	j.n = len(l.saved) + len(j.saved)
	if had, ok := l.appended[j.key]; ok {
		j.entries = append(slices.Clone(l.saved[had:]), j.saved...)
	} else {
		j.entries = l.sessionEntries(m)
	}
	return j
}

// changeRows makes the rows of j for the save to carry (pairfile.Write appends them once the
// files are in place, and FinishInterrupted when the save is cut off): nil when nothing is to be
// appended; with err when the log cannot take them (prepareChangeLog's refusals), which fails the
// append, never the save. Memory: the rows themselves.
func changeRows(j *logJob) (*pairfile.ChangeRows, error) {
	if j.off || j.path == "" || len(j.entries) == 0 {
		return nil, nil
	}
	return prepareChangeLog(j.path, j.entries)
}

// logged records how the save's append went (rows may be nil; prepErr is changeRows'), for
// ChangesFileError and for the next save (sessionLog.appended). save calls it once the save has
// put the files in place.
func (l *sessionLog) logged(j *logJob, rows *pairfile.ChangeRows, prepErr error) {
	l.fileMu.Lock()
	defer l.fileMu.Unlock()
	l.err = nil
	if j.off || j.path == "" {
		return
	}
	err := prepErr
	if err == nil && rows != nil {
		err = rows.Err
	}
	if err != nil {
		l.err = fmt.Errorf("the labels were saved, but their changes were not added to the change log: %w", err)
		return
	}
	if l.appended == nil {
		l.appended = map[string]int{}
	}
	l.appended[j.key] = j.n
}

// startsWithLine reports whether head starts with the line header: header, then a line end or
// nothing (head is the file's first len(header)+1 bytes, or all of a shorter file).
func startsWithLine(head []byte, header string) bool {
	return bytes.HasPrefix(head, []byte(header)) && (len(head) == len(header) || head[len(header)] == '\n' || head[len(header)] == '\r')
}

// errNotChangeLog: a file where the change log goes is not one idxlabel wrote.
var errNotChangeLog = errors.New("not a change log")

// prepareChangeLog returns the rows that append entries to the change log file at path: at its
// end, with its header first when it does not exist; pairfile.AppendRows (or a paired write)
// writes them. It never reads through anything but a regular file of one name: a symbolic link,
// folder, FIFO or device there is refused (the link is not followed, so a planted link never
// makes it write outside the folder), and so is a file with other names (hard links), which
// could be a file elsewhere. An existing file must start with ChangeLogHeader, or with the header
// of a change log before sources (changeLogHeaderV1: its rows go on without the source column),
// errNotChangeLog otherwise, except that a file holding only a strict prefix of the header (its
// creation cut short) is started over (the rows, header first, go at offset 0, after that prefix
// of theirs); if its last line is torn (no line end), the new rows start on a line of their own.
// Errors name path: the refusals above and any I/O error.
func prepareChangeLog(path string, entries []ChangeLogEntry) (*pairfile.ChangeRows, error) {
	r := &pairfile.ChangeRows{Log: path}
	f, fi, err := atomicfile.OpenNoFollow(path, os.O_RDONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		var buf bytes.Buffer
		if err := writeChangeRows(&buf, entries, true, true); err != nil {
			return nil, err
		}
		r.Rows = buf.Bytes()
		return r, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if n := atomicfile.Links(fi); n > 1 {
		return nil, fmt.Errorf("%s has %d names (hard links) and may be a file elsewhere; refusing to append to it", path, n)
	}
	size := fi.Size()
	if size > 0 && size < int64(len(ChangeLogHeader)) {
		head := make([]byte, size)
		if _, err := f.ReadAt(head, 0); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if string(head) == ChangeLogHeader[:size] {
			size = 0 // a creation cut short: the header is written whole, after what it holds of it
		}
	}
	var buf bytes.Buffer
	withSource := true
	if size > 0 {
		head := make([]byte, min(size, int64(len(ChangeLogHeader)+1)))
		if _, err := f.ReadAt(head, 0); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		switch {
		case startsWithLine(head, ChangeLogHeader):
		case startsWithLine(head, changeLogHeaderV1):
			withSource = false // an older idxlabel's change log: its rows go on without sources
		default:
			return nil, fmt.Errorf("%s: %w (it does not start with %q); refusing to append to it", path, errNotChangeLog, ChangeLogHeader)
		}
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, size-1); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if last[0] != '\n' {
			buf.WriteByte('\n')
		}
	}
	if err := writeChangeRows(&buf, entries, size == 0, withSource); err != nil {
		return nil, err
	}
	r.Offset, r.Rows = size, buf.Bytes()
	return r, nil
}

// appendChangeLog appends entries to the change log file at path now (prepareChangeLog, then
// pairfile.AppendRows, which syncs it and cuts a failed write back off). Errors: theirs.
func appendChangeLog(path string, entries []ChangeLogEntry) error {
	r, err := prepareChangeLog(path, entries)
	if err != nil {
		return err
	}
	return pairfile.AppendRows(r)
}
