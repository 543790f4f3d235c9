//go:build unix

package cli

import (
	"io/fs"
	"syscall"
	"testing"
)

// A write refused because its folder cannot be written (a read-only file system, no permission,
// a name too long: pairfile.CannotWrite) says where to write instead; the command line opens no
// pair for editing, so the window's notice about the per-user journal does not apply to it.
func TestCannotWriteAdvisesAnotherFolder(t *testing.T) {
	const want = " (choose an output in a folder you may write to, or a shorter name)"
	for _, errno := range []syscall.Errno{syscall.EROFS, syscall.EACCES, syscall.ENAMETOOLONG} {
		err := &fs.PathError{Op: "create", Path: "/ro/s-images", Err: errno}
		if got := advice(err); got != want {
			t.Errorf("advice(%v) = %q, want %q", err, got, want)
		}
	}
}
