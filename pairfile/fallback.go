package pairfile

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
)

// MaxFallbackName is the longest file name Fallback gives, in bytes: 255 (the name limit
// of ext4, APFS, NTFS) less the longest suffix a journal or lock there gets: a journal's
// ".<time>.discarded" (26 bytes; its atomicfile temporary name adds 25, with the leading dot).
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
