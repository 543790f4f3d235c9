//go:build unix

package pairfile

import (
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

// The notice of a pair whose lock went to the per-user folder says why by CannotWrite's kinds:
// a read-only file system, no permission, or a name too long for the files kept beside it (then
// not that the folder cannot be written); for the pair's own file that the edits are kept safe
// in the per-user journal; and always that File → Save As… writes the dataset elsewhere.
func TestUnwritableNoticeSaysWhy(t *testing.T) {
	const saveAs = "File → Save As… writes the dataset to a folder you may write to"
	for _, c := range []struct {
		errno syscall.Errno
		key   bool
		want  []string
		not   string
	}{
		{syscall.EROFS, true, []string{"The folder /ro cannot be written (it is on a read-only file system)", "Save cannot replace x-labels", "kept safe meanwhile in the per-user journal"}, ""},
		{syscall.EACCES, true, []string{"The folder /ro cannot be written (you have no permission to write in it)"}, ""},
		{syscall.EROFS, false, []string{"a save that adds or deletes samples cannot replace x-labels"}, "per-user journal"},
		{syscall.ENAMETOOLONG, true, []string{"The name x-labels-idx1-ubyte is too long", "per-user journal"}, "cannot be written"},
	} {
		err := &fs.PathError{Op: "open", Path: "/ro/x-labels-idx1-ubyte" + LockSuffix, Err: c.errno}
		if !CannotWrite(err) {
			t.Fatalf("%v is not CannotWrite", err)
		}
		got := UnwritableNotice("/ro/x-labels-idx1-ubyte", c.key, err)
		for _, w := range append(c.want, saveAs) {
			if !strings.Contains(got, w) {
				t.Errorf("%v (key %v): %q does not say %q", c.errno, c.key, got, w)
			}
		}
		if c.not != "" && strings.Contains(got, c.not) {
			t.Errorf("%v (key %v): %q says %q", c.errno, c.key, got, c.not)
		}
	}
}

// A folder's or file's name holding a newline, an escape code or bytes that are not UTF-8 shows
// in the notice escaped, never raw: the notice is one paragraph of valid text whatever the disk
// holds.
func TestUnwritableNoticeEscapesNames(t *testing.T) {
	dir := "/tmp/a\nb\x1b[2J\xff\xfe"
	err := &fs.PathError{Op: "open", Path: dir + "/x\x07-labels-idx1-ubyte" + LockSuffix, Err: syscall.EROFS}
	got := UnwritableNotice(dir+"/x\x07-labels-idx1-ubyte", true, err)
	if !utf8.ValidString(got) || strings.ContainsAny(got, "\n\x1b\x07") {
		t.Fatalf("the notice holds raw control characters or bytes: %q", got)
	}
	for _, w := range []string{`The folder /tmp/a\nb\x1b[2J\xff\xfe cannot be written`, `x\a-labels-idx1-ubyte there`} {
		if !strings.Contains(got, w) {
			t.Errorf("%q does not say %q", got, w)
		}
	}
}
