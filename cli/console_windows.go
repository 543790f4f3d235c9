//go:build windows

package cli

import (
	"log"
	"os"
	"strings"
	"syscall"

	"idxlabel/pairfile"
)

// idxlabel.exe is linked as a GUI-subsystem program (-H=windowsgui, see `make windows`), so
// Windows starts it without a console and without standard output or error unless they were
// redirected: run from cmd.exe or PowerShell, what a sub-command prints would go nowhere. For a
// command line that does not open the GUI, init attaches the process to the console of the
// program that started it (AttachConsole(ATTACH_PARENT_PROCESS)) and points standard output and
// error at that console; a stream redirected to a file or a pipe is kept as it is. A GUI start
// stays detached, so closing the console it was started from does not close the window.

var procAttachConsole = syscall.NewLazyDLL("kernel32.dll").NewProc("AttachConsole")

// attachParentProcess is ATTACH_PARENT_PROCESS, (DWORD)-1.
const attachParentProcess = uintptr(^uint32(0))

func init() {
	if !opensGUI(os.Args[1:]) {
		attachConsole()
	}
}

// opensGUI reports whether Run opens the GUI for these arguments: none, or one or two that name
// files (not folders) and are not a command, "help" or an option. It mirrors Run's rule.
func opensGUI(args []string) bool {
	if len(args) == 0 {
		return true
	}
	if len(args) > 2 || args[0] == "help" || strings.HasPrefix(args[0], "-") {
		return false
	}
	for _, cmd := range commands {
		if cmd.name == args[0] {
			return false
		}
	}
	for _, a := range args {
		if fi, err := os.Stat(a); (err != nil || fi.IsDir()) && !pairfile.SavePending(a) {
			return false
		}
	}
	return true
}

// attachConsole gives standard output and error the parent's console where they have no
// handle. Best effort: without a parent console (started from Explorer) nothing changes.
func attachConsole() {
	out, errOut := hasHandle(syscall.STD_OUTPUT_HANDLE), hasHandle(syscall.STD_ERROR_HANDLE)
	if out && errOut {
		return
	}
	if ok, _, _ := procAttachConsole.Call(attachParentProcess); ok == 0 {
		return
	}
	// Read and write access: Go writes to a console (UTF-16, WriteConsoleW) only when
	// GetConsoleMode works on the handle, and that needs GENERIC_READ.
	con, err := os.OpenFile("CONOUT$", os.O_RDWR, 0)
	if err != nil {
		return
	}
	if !out {
		os.Stdout = con
	}
	if !errOut {
		os.Stderr = con
		log.SetOutput(con)
	}
}

// hasHandle reports whether the standard stream std (syscall.STD_OUTPUT_HANDLE, …) has a handle.
func hasHandle(std int) bool {
	h, err := syscall.GetStdHandle(std)
	return err == nil && h != 0 && h != syscall.InvalidHandle
}
