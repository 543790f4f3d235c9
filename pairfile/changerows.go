package pairfile

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
// its record was written, or undone after a rename failed, appends none; when the append fails
// they are held beside the record (holdRows) for the next opening. Appending them twice writes
// them once (appendRows).
type ChangeRows struct {
	Log    string // the change log (ChangesFile of the saved pair)
	Offset int64  // its size the rows follow
	Rows   []byte // CSV rows, the header line first when Offset is 0
	// Err is set by Write when the rows were not appended (the files were saved regardless):
	// they could not be kept beside the record, or the log could not be written or changed since
	// they were made (the rows are then held for the next opening, and Err says where).
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
	return atomicfile.WriteFileNoFollow(path, r.encode)
}

// encode writes r as a rows file holds it: its header line (rowsHeader), then the rows.
func (r *ChangeRows) encode(w io.Writer) error {
	sum := sha256.Sum256(r.Rows)
	h, err := json.Marshal(rowsHeader{Version: rowsVersion, Log: filepath.Base(r.Log), Offset: r.Offset, Size: int64(len(r.Rows)), SHA256: hex.EncodeToString(sum[:])})
	if err != nil {
		return err
	}
	if _, err := w.Write(append(h, '\n')); err != nil {
		return err
	}
	_, err = w.Write(r.Rows)
	return err
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

// finishRows appends the rows kept at path (by a save whose record was found and finished, or
// held after their append failed: holdRows; whose is "the interrupted save" or "an earlier
// save", for the notice) to the change log log, the pair's own (ChangesFile as the pair is
// opened), then removes the file. It returns a notice when the rows could not be appended: the
// file is then kept aside ("<path>.<time>.refused"), never deleted, and the notice names it.
// Nothing there: "". The file is read twice as a stream (its hash, then the rows), never held
// whole.
func finishRows(path, log, whose string) string {
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
	return fmt.Sprintf("The change log %s is missing the changes of %s (%v); they were kept in %s.", log, whose, err, moved)
}

// heldTag ends the name of a rows file whose append failed at the end of its save (holdRows):
// "<labels>.idxlabel-log.<time>.held" beside the save record.
const heldTag = "held"

// holdRows keeps r, rows of a save whose files are in place but that could not append them
// (appendErr), beside the record at record under a name of its own that never replaces another
// (atomicfile's aside names with heldTag), so that the next opening of the pair appends them
// (finishHeldRows) once, even when no later save does: the rows file kept beside the record is
// moved there (kept: commitAll), or r is written there (a write with no files to put in place).
// It returns appendErr, saying where the rows were kept, or that they could not be.
func holdRows(record string, r *ChangeRows, kept bool, appendErr error) error {
	var held string
	var err error
	switch {
	case record == "":
		return appendErr
	case kept:
		held, err = atomicfile.MoveAside(rowsPath(record), heldTag)
	default:
		held, err = atomicfile.WriteAside(rowsPath(record), heldTag, r.encode)
	}
	if err != nil {
		return fmt.Errorf("%w (and they could not be kept beside the files: %v)", appendErr, err)
	}
	return fmt.Errorf("%w; they were kept in %s and go to the change log with the next save, or when the pair is next opened", appendErr, held)
}

// heldRows returns the held rows files (holdRows) beside the record at record, oldest first (by
// the time and number in their names: atomicfile.AsideName). Memory: one name per file in the
// record's folder that is a held rows file.
func heldRows(record string) []string {
	rows := rowsPath(record)
	dir, prefix := filepath.Dir(rows), filepath.Base(rows)+"."
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	type held struct {
		path, stamp string
		k           int
	}
	var found []held
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, "."+heldTag) {
			continue
		}
		stamp := strings.TrimSuffix(strings.TrimPrefix(name, prefix), "."+heldTag)
		if len(stamp) < len(atomicfile.AsideStamp) {
			continue
		}
		k := 1
		if rest := stamp[len(atomicfile.AsideStamp):]; rest != "" {
			n, err := strconv.Atoi(strings.TrimPrefix(rest, "-"))
			if err != nil || !strings.HasPrefix(rest, "-") || n < 2 {
				continue
			}
			k = n
		}
		found = append(found, held{filepath.Join(dir, name), stamp[:len(atomicfile.AsideStamp)], k})
	}
	slices.SortFunc(found, func(a, b held) int {
		return cmp.Or(strings.Compare(a.stamp, b.stamp), cmp.Compare(a.k, b.k))
	})
	var out []string
	for _, h := range found {
		out = append(out, h.path)
	}
	return out
}

// finishHeldRows appends the held rows files beside the record at record (heldRows) to the
// pair's change log log, oldest first, each once (finishRows), and returns the notices of those
// that could not be.
func finishHeldRows(record, log string) []string {
	var notices []string
	for _, h := range heldRows(record) {
		if n := finishRows(h, log, "an earlier save"); n != "" {
			notices = append(notices, n)
		}
	}
	return notices
}

// appendKept checks the rows file f (size bytes) and appends its rows to log (appendRows).
// Errors: errRows with what was wrong, and appendRows'.
func appendKept(f *os.File, size int64, log string) error {
	h, start, err := readRowsHeader(f, size, log)
	if err != nil {
		return err
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

// readRowsHeader reads and checks the first line of the rows file f (size bytes) for the change
// log log, and returns it and where the rows start. Errors: errRows with what was wrong.
func readRowsHeader(f *os.File, size int64, log string) (h rowsHeader, start int64, err error) {
	br := bufio.NewReader(io.LimitReader(io.NewSectionReader(f, 0, size), maxRowsHeader))
	line, err := br.ReadSlice('\n')
	if err != nil {
		return h, 0, fmt.Errorf("%w: its first line is damaged", errRows)
	}
	if err := json.Unmarshal(line, &h); err != nil {
		return h, 0, fmt.Errorf("%w: its first line is damaged (%v)", errRows, err)
	}
	start = int64(len(line))
	switch {
	case h.Version != rowsVersion:
		return h, 0, fmt.Errorf("%w: it is of version %d", errRows, h.Version)
	case h.Log != filepath.Base(log):
		return h, 0, fmt.Errorf("%w: it is for %q, not for this pair's change log", errRows, clip.Text(h.Log))
	case h.Offset < 0 || h.Size < 0 || start+h.Size != size:
		return h, 0, fmt.Errorf("%w: it holds %d bytes of rows, not the %d it says", errRows, size-start, h.Size)
	}
	return h, start, nil
}

// dropHeldWithin removes the held rows files beside the record at record (heldRows) whose rows
// r begins with, at the same offset of the same log: a window's save plans again the entries an
// append that failed held back, so r holds them. It runs once the save's files are in place, when
// r is sure to be appended (by the save, or by the opening that finishes it). Others are left for
// the next opening. Memory: a header line per file; the hash of a prefix of r.
func dropHeldWithin(record string, r *ChangeRows) {
	for _, path := range heldRows(record) {
		f, fi, err := atomicfile.OpenNoFollow(path, os.O_RDONLY, 0)
		if err != nil {
			continue
		}
		h, _, err := readRowsHeader(f, fi.Size(), r.Log)
		f.Close()
		if err != nil || h.Offset != r.Offset || h.Size > int64(len(r.Rows)) {
			continue
		}
		if sum := sha256.Sum256(r.Rows[:h.Size]); hex.EncodeToString(sum[:]) == h.SHA256 {
			os.Remove(path)
		}
	}
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
	want := make([]byte, len(buf))
	for at := int64(0); at < done; {
		n := int(min(int64(len(buf)), done-at))
		if _, err := f.ReadAt(buf[:n], offset+at); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if _, err := rows.ReadAt(want[:n], at); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if !bytes.Equal(buf[:n], want[:n]) {
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
