//go:build !unix

package store

import "os"

// linkCount returns 1: where the system has no link count in os.FileInfo (Windows), appending
// relies on the regular-file checks alone.
func linkCount(os.FileInfo) uint64 { return 1 }
