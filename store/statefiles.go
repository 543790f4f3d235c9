package store

import (
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
