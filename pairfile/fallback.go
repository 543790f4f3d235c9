package pairfile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"idxlabel/internal/atomicfile"
	"idxlabel/internal/clip"
)

// MaxFallbackName is the longest file name Fallback gives, in bytes: 255 (the name limit
// of ext4, APFS, NTFS) less the longest suffix a journal or lock there gets: a journal's
// ".<time>.discarded" (26 bytes; its atomicfile temporary name adds 25, with the leading dot).
// A journal set aside again within the same second takes ".<time>-<k>.discarded"
// (atomicfile.AsideName, 2 to 4 bytes more): at this limit that name is too long, and the
// journal then stays where it is, never replaced. The limit is kept so that the names given
// before are found.
const MaxFallbackName = 255 - 26

// Fallback returns the per-user place of the state file primary (a journal or a lock file
// beside a pair) for when the pair's folder cannot be written (a read-only dataset folder):
// FallbackDir()/<hash>-<name>, the hash being of primary's absolute path; "" when the system has
// no configuration folder. A name that would be longer than MaxFallbackName bytes is cut (at a
// character boundary) to fit, the hash keeping it apart from others; shorter names are as they
// have always been, so journals already there are found.
func Fallback(primary string) string {
	dir := FallbackDir()
	if dir == "" || primary == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(Abs(primary)))
	name := hex.EncodeToString(sum[:8]) + "-" + filepath.Base(primary)
	if len(name) > MaxFallbackName {
		name = strings.ToValidUTF8(name[:MaxFallbackName], "")
	}
	return filepath.Join(dir, name)
}

// FallbackDir returns the per-user folder of the state files Fallback names, "" when the system
// has no configuration folder.
func FallbackDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "idxlabel", "journals")
}

// UnwritableNotice is what LockPair says when the folder of the pair's file target cannot be
// written (cause, CannotWrite, found by unwritable: no permission to write in it, a read-only
// file system, or a name too long for the files kept beside it), whether the lock went to the
// per-user folder or a lock file left there could be taken without writing: that
// the folder cannot be written, so saving over the file there will be refused; for the pair's
// own file (key: its label file, or its image file when it has none, where its journal goes)
// that the edits are kept safe meanwhile in the per-user journal (FallbackDir), where the journal
// goes when its own place cannot be written; and that File → Save As… writes the dataset
// elsewhere. It speaks to the window: only the window opens a pair for editing (the command line
// opens pairs read-only and names the file of any write refused). Names are shown by
// clip.Printable: a control character or a byte that is not UTF-8 in a folder's or file's name
// shows as an escape.
func UnwritableNotice(target string, key bool, cause error) string {
	const saveAs = "File → Save As… writes the dataset to a folder you may write to"
	dir, name := filepath.Split(SideBase(target))
	dir, name = clip.Printable(filepath.Clean(dir)), clip.Printable(name) // names from the disk: no raw newline or escape code
	what, file := fmt.Sprintf("The folder %s cannot be written (%s)", dir, unwritableReason(cause)), clip.Printable(filepath.Base(target))+" there"
	if nameTooLong(cause) {
		what, file = fmt.Sprintf("The name %s is too long for the lock, journal and temporary files idxlabel keeps beside it", name), "it"
	}
	if !key {
		return fmt.Sprintf("%s, so a save that adds or deletes samples cannot replace %s; %s.", what, file, saveAs)
	}
	return fmt.Sprintf("%s, so Save cannot replace %s. Your edits are kept safe meanwhile in the per-user journal (in %s); %s.", what, file, clip.Printable(FallbackDir()), saveAs)
}

// unwritableReason words why a folder cannot be written (CannotWrite's kinds but a name too
// long): no permission, or a read-only file system (or medium).
func unwritableReason(err error) string {
	if errors.Is(err, fs.ErrPermission) {
		return "you have no permission to write in it"
	}
	return "it is on a read-only file system"
}

// unwritable returns why the folder where target's lock, journal and temporary files go (beside
// SideBase(target)) cannot be written, nil when it can: the one rule for UnwritableNotice.
// lockErr is what creating target's lock there gave: when it says the folder cannot be written
// (CannotWrite) it is the reason; otherwise a file is created there (named as an atomicfile
// temporary file of target, so a sweep removes one a crash left) and removed at once, since a
// lock file left in a folder made read-only since opens without writing. Errors: a CannotWrite
// error, or nil (a probe failing otherwise, a missing folder say, is not this notice's to tell).
func unwritable(target string, lockErr error) error {
	if CannotWrite(lockErr) {
		return lockErr
	}
	side := SideBase(target)
	f, err := os.CreateTemp(filepath.Dir(side), "."+filepath.Base(side)+atomicfile.TempMarker+"*")
	if err != nil {
		if CannotWrite(err) {
			return err
		}
		return nil
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}
