package pairfile

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"idxlabel/internal/atomicfile"
	"idxlabel/internal/clip"
)

// ChangesSuffix is appended to the label file's path (the image file's when there is none:
// Key) to name the change log every save of the pair appends its changes to, beside the name the
// pair was opened by: "t10k-labels-idx1-ubyte.gz.changes.csv". Its rows are store's
// (store/changelog_csv.go); a paired write appends them (ChangeRows) so that a save cut off
// anywhere leaves the log complete once the pair is opened again.
const ChangesSuffix = ".changes.csv"

// ChangesFile returns the change log of the pair (images, labels; labels may be ""): Key +
// ChangesSuffix, absolute; "" for no files.
func ChangesFile(images, labels string) string {
	if key := Key(images, labels); key != "" {
		return Abs(key) + ChangesSuffix
	}
	return ""
}

// ChangeRows are the rows a save appends to its pair's change log once its files are in place
// (Write): the bytes to write at Offset, the log's size when they were made (a header line first
// when the log is new; a line end first when its last line is torn). Write keeps them on disk,
// beside the save record (rowsPath), before the first rename, and appends them after the last;
// a save cut off in between is finished by FinishInterrupted, rows included; one cut off before
// its record was written appends none. Appending them twice writes them once (appendRows).
type ChangeRows struct {
	Log    string // the change log (ChangesFile of the saved pair)
	Offset int64  // its size the rows follow
	Rows   []byte // CSV rows, the header line first when Offset is 0
	// Err is set by Write when the rows were not appended (the files were saved regardless):
	// they could not be kept beside the record, or the log could not be written or changed since
	// they were made.
	Err error
}

// rowsSuffix names the file a paired write keeps its change-log rows in until they are
// appended (ChangeRows): "<labels>.idxlabel-log" beside the save record. It is no longer than
// ManifestSuffix, so its temporary name fits wherever the record's does.
const rowsSuffix = ".idxlabel-log"

// rowsPath returns the rows file of the save record at record.
func rowsPath(record string) string {
	return strings.TrimSuffix(record, ManifestSuffix) + rowsSuffix
}

// rowsVersion is the version of the rows file's first line (rowsHeader).
const rowsVersion = 1

// maxRowsHeader bounds the first line of a rows file (bytes).
const maxRowsHeader = 4 << 10

// rowsHeader is the first line of a rows file, JSON: the log the rows go to (a bare name, beside
// the pair's file it is named after), the offset they follow, their length and SHA-256. The rows
// follow it, and nothing else.
type rowsHeader struct {
	Version int    `json:"version"`
	Log     string `json:"log"`
	Offset  int64  `json:"offset"`
	Size    int64  `json:"size"`
	SHA256  string `json:"sha256"`
}

// writeRows keeps r in the rows file at path, atomically (fsynced, its folder too).
func writeRows(path string, r *ChangeRows) error {
	sum := sha256.Sum256(r.Rows)
	h, err := json.Marshal(rowsHeader{Version: rowsVersion, Log: filepath.Base(r.Log), Offset: r.Offset, Size: int64(len(r.Rows)), SHA256: hex.EncodeToString(sum[:])})
	if err != nil {
		return err
	}
	return atomicfile.WriteFileNoFollow(path, func(w io.Writer) error {
		if _, err := w.Write(append(h, '\n')); err != nil {
			return err
		}
		_, err := w.Write(r.Rows)
		return err
	})
}

// removeRows removes the rows file at path, or, when it cannot be removed (a folder planted
// there, not empty), moves it aside (setAside). Nothing there: nil. Errors: the removal's, when
// it could not be moved either.
func removeRows(path string) error {
	err := os.Remove(path)
	if err == nil || errors.Is(err, os.ErrNotExist) || setAside(path) != "" {
		return nil
	}
	return fmt.Errorf("%s (change-log rows of an earlier save) cannot be removed: %w", path, err)
}

// errRows marks a rows file that was not used: damaged, of another version, or for another log.
var errRows = errors.New("change-log rows of an interrupted save refused")

// finishRows appends the rows kept at path (by a save whose record was found and finished) to
// the change log log, the pair's own (ChangesFile as the pair is opened), then removes the file.
// It returns a notice when the rows could not be appended: the file is then kept aside
// ("<path>.<time>.refused"), never deleted, and the notice names it. Nothing there: "". The file
// is read twice as a stream (its hash, then the rows), never held whole.
func finishRows(path, log string) string {
	f, fi, err := atomicfile.OpenNoFollow(path, os.O_RDONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		return ""
	}
	if err == nil {
		defer f.Close()
		err = appendKept(f, fi.Size(), log)
	}
	if err == nil {
		os.Remove(path)
		return ""
	}
	moved := setAside(path)
	if moved == "" {
		moved = path + " (it could not be moved)"
	}
	return fmt.Sprintf("The change log %s is missing the changes of the interrupted save (%v); they were kept in %s.", log, err, moved)
}

// appendKept checks the rows file f (size bytes) and appends its rows to log (appendRows).
// Errors: errRows with what was wrong, and appendRows'.
func appendKept(f *os.File, size int64, log string) error {
	br := bufio.NewReader(io.LimitReader(f, maxRowsHeader))
	line, err := br.ReadSlice('\n')
	if err != nil {
		return fmt.Errorf("%w: its first line is damaged", errRows)
	}
	var h rowsHeader
	if err := json.Unmarshal(line, &h); err != nil {
		return fmt.Errorf("%w: its first line is damaged (%v)", errRows, err)
	}
	start := int64(len(line))
	switch {
	case h.Version != rowsVersion:
		return fmt.Errorf("%w: it is of version %d", errRows, h.Version)
	case h.Log != filepath.Base(log):
		return fmt.Errorf("%w: it is for %q, not for this pair's change log", errRows, clip.Text(h.Log))
	case h.Offset < 0 || h.Size < 0 || start+h.Size != size:
		return fmt.Errorf("%w: it holds %d bytes of rows, not the %d it says", errRows, size-start, h.Size)
	}
	rows := io.NewSectionReader(f, start, h.Size)
	sum := sha256.New()
	if _, err := io.Copy(sum, rows); err != nil {
		return err
	}
	if hex.EncodeToString(sum.Sum(nil)) != h.SHA256 {
		return fmt.Errorf("%w: its rows are damaged (their SHA-256 differs)", errRows)
	}
	return appendRows(log, h.Offset, rows, h.Size)
}

// errLogChanged: the change log is not as it was when the rows were made.
var errLogChanged = errors.New("the change log changed since the save's rows were made")

// appendRows writes rows (size bytes) at offset in the change log at path, once: the log must
// hold offset bytes, or offset and then a beginning of rows (an earlier append of them cut off, or
// finished: the rest is written, or nothing). A log that does not exist is created when offset is
// 0. It never writes through a symbolic link, a folder, FIFO or device, nor to a file with other
// names (hard links, which could be a file elsewhere). A write that fails is cut back off. The
// log is synced. Memory: a 64 KiB buffer, whatever the rows' size. Errors: those refusals,
// errLogChanged, and I/O errors, naming path.
func appendRows(path string, offset int64, rows io.ReaderAt, size int64) error {
	flag := os.O_RDWR
	if offset == 0 {
		flag |= os.O_CREATE
	}
	f, fi, err := atomicfile.OpenNoFollow(path, flag, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	if n := atomicfile.Links(fi); n > 1 {
		return fmt.Errorf("%s has %d names (hard links) and may be a file elsewhere; refusing to append to it", path, n)
	}
	have := fi.Size()
	done := have - offset // the rows already there
	if done < 0 || done > size {
		return fmt.Errorf("%s: %w (it holds %d bytes; the rows follow byte %d)", path, errLogChanged, have, offset)
	}
	buf := make([]byte, 64<<10)
	cmp := make([]byte, len(buf))
	for at := int64(0); at < done; {
		n := int(min(int64(len(buf)), done-at))
		if _, err := f.ReadAt(buf[:n], offset+at); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if _, err := rows.ReadAt(cmp[:n], at); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if !bytes.Equal(buf[:n], cmp[:n]) {
			return fmt.Errorf("%s: %w (its bytes after byte %d are not the rows')", path, errLogChanged, offset)
		}
		at += int64(n)
	}
	if done == size {
		return nil // appended already
	}
	if _, err := io.CopyBuffer(io.NewOffsetWriter(f, have), io.NewSectionReader(rows, done, size-done), buf); err != nil {
		f.Truncate(have)
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Truncate(have)
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// AppendRows appends r's rows to its log now (appendRows: once, checked against r.Offset), for a
// writer that has no paired write to carry them. Errors: appendRows'.
func AppendRows(r *ChangeRows) error {
	return appendRows(r.Log, r.Offset, bytes.NewReader(r.Rows), int64(len(r.Rows)))
}
