//go:build !unix

package store

import "os"

// hardLinks returns 1: os.FileInfo does not carry the link count here (on Windows it takes a
// GetFileInformationByHandle call on an open handle, which a save does not make).
func hardLinks(os.FileInfo) int { return 1 }
