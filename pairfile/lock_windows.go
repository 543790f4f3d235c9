//go:build windows

package pairfile

import (
	"errors"
	"io/fs"
	"syscall"

	"idxlabel/internal/atomicfile"
)

// Windows constants the syscall package lacks.
const (
	processQueryLimitedInformation = 0x1000            // PROCESS_QUERY_LIMITED_INFORMATION
	stillActive                    = 259               // STILL_ACTIVE, GetExitCodeProcess's code while a process runs
	errorWriteProtect              = syscall.Errno(19) // ERROR_WRITE_PROTECT: the medium is write-protected
)

// processAlive reports whether a process with this id runs on this host: it can be opened and
// has no exit code yet (an exited process whose handle someone still holds can be opened too).
// A process of another user that we may not open counts as running.
func processAlive(pid int) bool {
	h, err := syscall.OpenProcess(processQueryLimitedInformation, false, uint32(pid))
	if err != nil {
		return errors.Is(err, fs.ErrPermission)
	}
	defer syscall.CloseHandle(h)
	var code uint32
	if err := syscall.GetExitCodeProcess(h, &code); err != nil {
		return true
	}
	return code == stillActive
}

// openSafe is added to the flags of every open of a lock file: open a link planted in its place
// as the link itself (see atomicfile.NoFollow), which lockPair then refuses as not a regular file.
const openSafe = atomicfile.NoFollow

// removeWhileOpen: false, a file open anywhere cannot be removed on Windows (Go opens files
// without FILE_SHARE_DELETE); see lock.release.
const removeWhileOpen = false

// isLink reports whether an open failed because the path is a symbolic link; never on Windows,
// where such an open succeeds on the link itself.
func isLink(error) bool { return false }

// CannotWrite reports whether err says the folder cannot be written: no permission (access
// denied), a write-protected medium, or a name too long for it.
func CannotWrite(err error) bool {
	return errors.Is(err, fs.ErrPermission) || errors.Is(err, errorWriteProtect) || nameTooLong(err)
}

// errorFilenameExcedRange is ERROR_FILENAME_EXCED_RANGE ("The filename or extension is too
// long."), which the syscall package lacks.
const errorFilenameExcedRange = syscall.Errno(206)

// nameTooLong reports whether err says a file name is too long (ERROR_FILENAME_EXCED_RANGE, or
// the ENAMETOOLONG Go's own code may return).
func nameTooLong(err error) bool {
	return errors.Is(err, errorFilenameExcedRange) || errors.Is(err, syscall.ENAMETOOLONG)
}
