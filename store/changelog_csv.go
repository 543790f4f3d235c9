package store

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"idxlabel/internal/atomicfile"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// ChangesSuffix is appended to the label file's path (the image file's when there is none) to
// name the change log that every save appends its changes to, so that the record of what
// changed travels with the files: "t10k-labels-idx1-ubyte.gz.changes.csv".
const ChangesSuffix = ".changes.csv"

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
// are appended by the next save to the same files.
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

// appendChanges appends to the change log beside the label file the entries it has not had:
// for a file this session appended to before (whichever files it saved to in between), the
// entries of the saves since then; the first time this session saves to a file, every change
// since the files were opened (ChangeLog). So saving to A, then B, then A again appends each
// change to A once. Entries held back (the preference off, or a failed append) go with the next
// save to that file. save calls it once the save has put the files in place; an error is kept
// for ChangesFileError and never fails the save.
func (d *Dataset) appendChanges() {
	d.log.fileMu.Lock()
	defer d.log.fileMu.Unlock()
	d.log.err = nil
	d.mu.RLock()
	off, path, n := d.log.off, d.statePath(ChangesSuffix), len(d.log.saved)
	key := ""
	if path != "" {
		key = pairfile.Abs(path)
	}
	var list []ChangeLogEntry
	if had, ok := d.log.appended[key]; ok {
		list = d.log.saved[had:n:n]
	} else {
		list = d.log.sessionEntries(&d.model)
	}
	d.mu.RUnlock()
	if off || path == "" {
		return
	}
	if len(list) > 0 {
		if err := appendChangeLog(path, list); err != nil {
			d.log.err = fmt.Errorf("the labels were saved, but their changes were not added to the change log: %w", err)
			return
		}
	}
	if d.log.appended == nil {
		d.log.appended = map[string]int{}
	}
	d.log.appended[key] = n
}

// startsWithLine reports whether head starts with the line header: header, then a line end or
// nothing (head is the file's first len(header)+1 bytes, or all of a shorter file).
func startsWithLine(head []byte, header string) bool {
	return bytes.HasPrefix(head, []byte(header)) && (len(head) == len(header) || head[len(header)] == '\n' || head[len(header)] == '\r')
}

// errNotChangeLog: a file where the change log goes is not one idxlabel wrote.
var errNotChangeLog = errors.New("not a change log")

// appendChangeLog appends entries to the change log file at path, creating it with its header
// when it does not exist, and syncs it. It never writes through anything but a regular file of
// one name: a symbolic link, folder, FIFO or device there is refused (the link is not
// followed, so a planted link never makes it write outside the folder), and so is a file with
// other names (hard links), which could be a file elsewhere. An existing file must start with
// ChangeLogHeader, or with the header of a change log before sources (changeLogHeaderV1: its
// rows go on without the source column), errNotChangeLog otherwise, except that a file holding
// only a strict prefix of the header (its creation cut short) is emptied and started over; if its last line is torn
// (no line end), the new rows start on a line of their own. A write that fails is cut back off.
// Errors name path: the refusals above and any I/O error.
func appendChangeLog(path string, entries []ChangeLogEntry) error {
	f, fi, err := atomicfile.OpenNoFollow(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if n := atomicfile.Links(fi); n > 1 {
		return fmt.Errorf("%s has %d names (hard links) and may be a file elsewhere; refusing to append to it", path, n)
	}
	size := fi.Size()
	if size > 0 && size < int64(len(ChangeLogHeader)) {
		head := make([]byte, size)
		if _, err := f.ReadAt(head, 0); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if string(head) == ChangeLogHeader[:size] { // a creation cut short: start it over
			if err := f.Truncate(0); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			size = 0
		}
	}
	var buf bytes.Buffer
	withSource := true
	if size > 0 {
		head := make([]byte, min(size, int64(len(ChangeLogHeader)+1)))
		if _, err := f.ReadAt(head, 0); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		switch {
		case startsWithLine(head, ChangeLogHeader):
		case startsWithLine(head, changeLogHeaderV1):
			withSource = false // an older idxlabel's change log: its rows go on without sources
		default:
			return fmt.Errorf("%s: %w (it does not start with %q); refusing to append to it", path, errNotChangeLog, ChangeLogHeader)
		}
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, size-1); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if last[0] != '\n' {
			buf.WriteByte('\n')
		}
	}
	if err := writeChangeRows(&buf, entries, size == 0, withSource); err != nil {
		return err
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Truncate(size)
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Truncate(size)
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
