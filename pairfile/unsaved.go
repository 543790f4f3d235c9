package pairfile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"idxlabel/internal/atomicfile"
)

// A pair's journal of unsaved edits sits beside its label file and names both files, so the rule
// for outputs finds it from the label file's folder. When the image file is in another folder,
// a writer of the image file looks in that folder, where no journal is, and a pointer from there
// to the journal would be a path leaving its folder. So while a journal is open the window also
// keeps an unsaved-edits marker beside the image file (the file a symbolic link names, where a
// writer of it by its own name looks: "<images>.idxlabel-unsaved": one line a
// pair, never a path), and the rule for outputs refuses to replace an image file that has one,
// even with force (RefuseUnsaved), naming the marker and saying how to recover: open the pair,
// which replays or discards the edits and removes it.
//
// A line is the base name of the journal's file, a space and the journal's digest (JournalDigest:
// 16 hex digits of a hash of its absolute, resolved path), so that two pairs whose journals have
// the same base name (two annotators' "train-labels-idx1-ubyte", in two folders, beside one
// shared image file) each add and remove their own line. Earlier versions wrote the base name
// alone; such a line cannot say which pair it belongs to, so it is heeded like any line and
// removed only by a pair of that base name that is known to have held a journal (UnmarkUnsaved).
// Several pairs may share one image file, in several windows and processes: each change of a
// marker is read, changed and rewritten under the marker's own lock (markerLock), so that two
// changes at once never lose a line.

// UnsavedSuffix is appended to an image file's path to name its unsaved-edits marker.
const UnsavedSuffix = ".idxlabel-unsaved"

// maxUnsaved is the most bytes a marker is read to (a few hundred pairs' lines): a larger one is
// replaced, not read whole.
const maxUnsaved = 64 << 10

// digestLen is the length of a marker line's digest (JournalDigest): 16 hex digits, 64 bits.
const digestLen = 16

// unsavedLine is one line of a marker: a journal's base name and its digest (JournalDigest), ""
// in a line of an earlier version (the base name alone).
type unsavedLine struct{ name, digest string }

// String is the line as a marker holds it, without its newline.
func (l unsavedLine) String() string {
	if l.digest == "" {
		return l.name
	}
	return l.name + " " + l.digest
}

// names reports whether the line can name the journal at journal: its base name, with its digest
// (JournalDigest) or, a line of an earlier version, none.
func (l unsavedLine) names(journal string) bool {
	return l.name == filepath.Base(journal) && (l.digest == "" || l.digest == JournalDigest(journal))
}

// JournalDigest returns the digest that tells apart, in a marker, journals of the same base
// name: the first 8 bytes of the SHA-256 of the journal's absolute path with its folder's
// symbolic links resolved (the journal itself is never a link, and may be gone already when its
// mark is removed), in 16 lowercase hex digits. A folder that cannot be resolved (removed) is
// taken as it is named.
func JournalDigest(journal string) string {
	p := Abs(journal)
	if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		p = filepath.Join(dir, filepath.Base(p))
	}
	sum := sha256.Sum256([]byte(p))
	return hex.EncodeToString(sum[:digestLen/2])
}

// MarkUnsaved records, beside images, that the journal at journal holds unsaved edits of a pair
// of images: when the journal is in another folder than images (in the same folder the rule
// finds the journal itself), it adds the journal's line (its base name and JournalDigest) to
// images' marker (written atomically, never through a symbolic link, under the marker's lock,
// markerLock, waiting for another change of it to end, and without it when another holder keeps
// it past markerWait or something other than a regular file is at the lock file's path: markAt).
// images "" or in the journal's folder: nothing. Errors: those of creating the lock file and of
// writing; a caller whose
// marker cannot be written goes on (a writer could not replace the image file in that folder
// either). When images is a
// symbolic link, the marker is beside the file it names (SideBase), in whose folder a writer of
// that file by its own name looks, and the journal's folder is compared with that file's. So
// is the file the journal is named after (its pair's label file, "<labels>"+JournalSuffix) when
// that is a symbolic link to a file in another folder: that file is marked too (markedFiles).
func MarkUnsaved(images, journal string) error {
	var errs []error
	for _, f := range markedFiles(images, journal) {
		errs = append(errs, markAt(f+UnsavedSuffix, unsavedLine{filepath.Base(journal), JournalDigest(journal)}))
	}
	return errors.Join(errs...)
}

// markAt adds mine to the marker at path unless it holds it already, under its lock (markerLock). When
// another holder keeps the marker's lock past markerWait (stuck, or planted), or something other
// than a regular file is planted at the lock file's path (a symbolic link, a folder, a FIFO:
// errLockFile, never followed or waited on), or the lock file cannot be opened or created (one
// another user left, unreadable to this one), the line is added without the lock: a mark left out
// would let a writer replace the image file under unsaved edits, which is worse than the small
// chance of a line lost in a change made meanwhile.
func markAt(path string, mine unsavedLine) error {
	add := func(lines []unsavedLine) ([]unsavedLine, bool) {
		return append(lines, mine), !slices.Contains(lines, mine)
	}
	l, err := markerLock(path)
	if err != nil { // whatever kept the lock from being taken, the mark is written without it
		return rewriteMarker(path, add)
	}
	defer l.release()
	return rewriteMarker(path, add)
}

// changeMarker changes the marker at path (rewriteMarker) under its lock (markerLock), held from
// its read to its write. Errors: those of the lock (a *LockedError when another holder kept it
// past markerWait) and of rewriteMarker.
func changeMarker(path string, change func([]unsavedLine) ([]unsavedLine, bool)) error {
	l, err := markerLock(path)
	if err != nil {
		return err
	}
	defer l.release()
	return rewriteMarker(path, change)
}

// rewriteMarker reads the marker at path and gives its lines (readUnsaved) to change, which
// returns the lines it is to hold and whether to write them; with no line left the marker is
// removed. The caller holds the marker's lock (changeMarker). Errors: those of writing and of
// removing (none when it is gone already).
func rewriteMarker(path string, change func([]unsavedLine) ([]unsavedLine, bool)) error {
	lines := readUnsaved(path)
	if unsavedReadHook != nil {
		unsavedReadHook(path)
	}
	lines, write := change(lines)
	switch {
	case !write:
		return nil
	case len(lines) == 0:
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	return writeUnsaved(path, lines)
}

// markedFiles returns the files MarkUnsaved marks for the journal at journal of a pair of
// images: images, and the file the journal is named after (journal without JournalSuffix: the
// label file, or the image file of a pair without one), each as SideBase names it (the file a
// symbolic link names), each once, those whose folder is not the journal's. None for "".
func markedFiles(images, journal string) []string {
	if images == "" || journal == "" {
		return nil
	}
	files := []string{SideBase(images)}
	if owner, ok := strings.CutSuffix(journal, JournalSuffix); ok {
		files = append(files, SideBase(owner))
	}
	var out []string
	for _, f := range files {
		if filepath.Dir(Abs(f)) != filepath.Dir(Abs(journal)) && !slices.ContainsFunc(out, func(o string) bool { return SamePath(o, f) }) {
			out = append(out, f)
		}
	}
	return out
}

// UnmarkUnsaved removes the journal at journal from images' marker (MarkUnsaved): its own line,
// never another journal's of the same base name. A line of an earlier version with the same
// base name (no digest) is removed with it when this pair is known to have held a journal: its
// own line was in the marker, or the journal is still there (a caller removing a journal calls
// UnmarkUnsaved first); otherwise it stays, since it may be another pair's. The marker goes
// when no line is left in it. A marker that cannot be read (damaged, oversized) or holds no
// valid line is removed. Each marker is changed under its lock (markerLock). No marker is no
// error. Errors: those of the lock (another holder kept it for markerWait) and of writing. The
// image file's marker (beside the file a link
// names) and every file MarkUnsaved marks (markedFiles) are looked at, and, when images is a
// symbolic link, a marker an earlier version wrote beside the link itself.
func UnmarkUnsaved(images, journal string) error {
	if images == "" || journal == "" {
		return nil
	}
	// The image file's marker is looked at even in the journal's folder, as it always was; the
	// link's own, where an earlier version wrote it.
	files := append([]string{SideBase(images), images}, markedFiles(images, journal)...)
	var errs []error
	for k, f := range files {
		if !slices.ContainsFunc(files[:k], func(o string) bool { return SamePath(o, f) }) {
			errs = append(errs, unmarkAt(f+UnsavedSuffix, journal))
		}
	}
	return errors.Join(errs...)
}

// unmarkAt removes the journal's line from the marker at path (UnmarkUnsaved, changeMarker); no
// marker: nothing, no lock taken.
func unmarkAt(path, journal string) error {
	if _, err := os.Lstat(path); err != nil {
		return nil
	}
	mine := unsavedLine{filepath.Base(journal), JournalDigest(journal)}
	return changeMarker(path, func(lines []unsavedLine) ([]unsavedLine, bool) {
		held := slices.Contains(lines, mine)
		if !held {
			fi, err := os.Lstat(journal)
			held = err == nil && fi.Mode().IsRegular()
		}
		kept := slices.DeleteFunc(slices.Clone(lines), func(l unsavedLine) bool {
			return l == mine || held && l == unsavedLine{name: mine.name}
		})
		// None left: removed (a damaged marker too); none removed: not this pair's, left alone.
		return kept, len(kept) == 0 || len(kept) != len(lines)
	})
}

// UnsavedMarker returns the unsaved-edits marker of the file at p (p itself, or the file its
// symbolic link names), "" when it has none: anything at "<p>.idxlabel-unsaved", whatever it
// holds (it is never obeyed, only heeded).
func UnsavedMarker(p string) string {
	files := []string{p}
	if r, err := atomicfile.Resolve(p); err == nil && !SamePath(r, p) {
		files = append(files, r)
	}
	for _, f := range files {
		if _, err := os.Lstat(f + UnsavedSuffix); err == nil {
			return f + UnsavedSuffix
		}
	}
	return ""
}

// unsavedNames returns the base names of the journals the marker at path names (for messages),
// each once, in its order; nil when it cannot be read.
func unsavedNames(path string) []string {
	var names []string
	for _, l := range readUnsaved(path) {
		if !slices.Contains(names, l.name) {
			names = append(names, l.name)
		}
	}
	return names
}

// readUnsaved returns the lines a marker holds, each once: its non-empty lines that are a base
// name (no separator, not "." or "..") followed by a space and a digest of digestLen lowercase
// hex digits, or, written by an earlier version, a base name alone; nil when it cannot be read
// (missing, a link, larger than maxUnsaved). Other lines are dropped.
func readUnsaved(path string) []unsavedLine {
	b, err := atomicfile.ReadFileNoFollow(path, maxUnsaved)
	if err != nil {
		return nil
	}
	var lines []unsavedLine
	for raw := range bytes.SplitSeq(b, []byte("\n")) {
		l := parseUnsaved(string(raw))
		if l.name != "" && !slices.Contains(lines, l) {
			lines = append(lines, l)
		}
	}
	return lines
}

// parseUnsaved reads one line of a marker (readUnsaved), without a carriage return before its
// newline or a UTF-8 byte order mark before it (a marker kept in git with autocrlf, or saved by
// a Windows editor: its line is still its pair's, which removes it); a line that is neither form
// gives the zero unsavedLine.
func parseUnsaved(s string) unsavedLine {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "\ufeff"), "\r")
	l := unsavedLine{name: s}
	if n := len(s) - digestLen - 1; n > 0 && s[n] == ' ' && isDigest(s[n+1:]) {
		l = unsavedLine{s[:n], s[n+1:]}
	}
	if l.name == "" || l.name == "." || l.name == ".." || filepath.Base(l.name) != l.name {
		return unsavedLine{}
	}
	return l
}

// isDigest reports whether s is digestLen lowercase hex digits.
func isDigest(s string) bool {
	if len(s) != digestLen {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// writeUnsaved writes lines, one a line, to the marker at path (atomically, no link followed).
func writeUnsaved(path string, lines []unsavedLine) error {
	return atomicfile.WriteFileNoFollow(path, func(w io.Writer) error {
		var b bytes.Buffer
		for _, l := range lines {
			b.WriteString(l.String())
			b.WriteByte('\n')
		}
		_, err := w.Write(b.Bytes())
		return err
	})
}
