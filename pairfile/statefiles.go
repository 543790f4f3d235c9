package pairfile

import (
	"os"
	"path/filepath"
	"strings"
)

// StateMarker is in the name of every file idxlabel keeps for its own bookkeeping: beside a pair,
// its journal (JournalSuffix) and a journal set aside (….discarded), its lock (LockSuffix), a
// save's record (ManifestSuffix), backups (".<name>.idxlabel-backup") and temporary files
// (".<name>.idxlabel-tmp-N"); beside an export, its trees in the making and their markers.
const StateMarker = ".idxlabel-"

// IsStateFile reports whether the file named name (a base name or a path) is one of idxlabel's
// bookkeeping files (StateMarker), which file choosers need not list.
func IsStateFile(name string) bool {
	return strings.Contains(filepath.Base(name), StateMarker)
}

// Key is the file a pair's own files are named after (its journal, save record, change log and
// first lock): the label file, or the image file when there is none ("" for neither).
func Key(images, labels string) string {
	if labels != "" {
		return labels
	}
	return images
}

// JournalSuffix is appended to the label file's path (the image file's when there is none) to
// name the journal of unsaved edits: "t10k-labels-idx1-ubyte.gz.idxlabel-journal" (JournalFile).
const JournalSuffix = ".idxlabel-journal"

// JournalFile returns where the journal of unsaved edits of the pair (images, labels; either may
// be "") is written: SideBase(Key(images, labels)) + JournalSuffix, beside the label file (the
// image file when there is none) or, when that is a symbolic link, beside the file it names, as
// its lock is (LockFile). So a writer of that file, or a window opening it by another name, finds
// the journal beside it whichever name the pair was opened by. Earlier versions wrote it beside
// the name used (Key + JournalSuffix): a dataset opening the pair looks there too. "" for no files.
func JournalFile(images, labels string) string {
	if key := Key(images, labels); key != "" {
		return SideBase(key) + JournalSuffix
	}
	return ""
}

// ManifestSuffix is appended to the label file's path (the image file's when there is none) to
// name the record a paired save writes just before its renames: "<labels>.idxlabel-saving",
// beside the file a symbolic link names (RecordPath).
const ManifestSuffix = ".idxlabel-saving"

// Abs returns p absolute and cleaned (p cleaned when it cannot be made absolute): how the pair's
// files are named and compared.
func Abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

// SamePath reports whether a and b name the same path once absolute and cleaned.
func SamePath(a, b string) bool { return a != "" && b != "" && Abs(a) == Abs(b) }

// SameFile reports whether a and b name the same file: the same path once absolute and cleaned,
// or, both existing, the same file under two names (os.SameFile: through hard and symbolic
// links).
func SameFile(a, b string) bool {
	if SamePath(a, b) {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// RecordPath returns where the record of a paired write of images and labels (labels may be
// "") is, absolute: SideBase(Key(images, labels)) + ManifestSuffix, beside the label file (the
// image file when there is none) or, when that is a symbolic link, beside the file it names,
// where the pair's lock (LockFile) and journal (JournalFile) are. So a save cut off through a
// link is found by a writer or opener of the file it names, and the other way round. Earlier
// versions wrote it beside the name used; recordPaths looks there too.
func RecordPath(images, labels string) string {
	return Abs(SideBase(Key(images, labels))) + ManifestSuffix
}

// recordPaths returns where records of an interrupted save of the pair may be: RecordPath, and
// beside the name used (Key + ManifestSuffix), where an earlier version wrote a save through a
// symbolic link, when that is another place.
func recordPaths(images, labels string) []string {
	paths := []string{RecordPath(images, labels)}
	if old := Abs(Key(images, labels)) + ManifestSuffix; old != paths[0] {
		paths = append(paths, old)
	}
	return paths
}
