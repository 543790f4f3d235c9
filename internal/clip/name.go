package clip

import "path/filepath"

// MaxName is the most characters of a file's name a window shows (Name).
const MaxName = 60

// Name returns the name of the file or folder at path (its last element, filepath.Base) as a
// window shows it in a label, a title, a status line or a list row: its control characters and
// bytes that are not UTF-8 escaped (Printable: a name from the disk cannot break the line), and a
// name longer than MaxName characters cut in its middle ("evil\n…LLL-labels-idx1-ubyte"), its
// start and the end that tells a pair's files apart kept. It is the one rule of every file name
// the window shows; a whole path goes through Printable. O(len(path)).
func Name(path string) string {
	r := []rune(Printable(filepath.Base(path)))
	if len(r) <= MaxName {
		return string(r)
	}
	head := (MaxName - 1) / 2
	return string(r[:head]) + "…" + string(r[len(r)-(MaxName-1-head):])
}
