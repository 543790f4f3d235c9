package store

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// OutputError is CheckOutputs' refusal of an output: its message names the output, what it would
// replace, and what to do instead.
type OutputError struct{ msg string }

func (e *OutputError) Error() string { return e.msg }

// CheckOutputs refuses outputs that a writer (a command-line writer, the window's export) must
// not replace: it returns an *OutputError when two outputs name the same file, an output names
// one of the inputs, or an output is a folder that holds an input (at any depth), any of which
// would destroy an input or leave one output holding the other's data (an export replaces a
// folder OUT whole); or when an output is one of idxlabel's own files (IsStateFile, by name or
// with links resolved): replacing an open pair's lock file would let another writer take the
// pair's lock. Paths are compared cleaned and absolute, and also with symbolic links
// resolved; files that exist also with os.SameFile (which sees through hard links).
func CheckOutputs(inputs, outputs []string) error {
	type file struct {
		name, abs, real string // real: abs with symbolic links resolved ("" when it does not exist)
		fi              fs.FileInfo
	}
	stat := func(name string) file {
		abs, err := filepath.Abs(name)
		if err != nil {
			abs = filepath.Clean(name)
		}
		real, _ := filepath.EvalSymlinks(abs)
		fi, _ := os.Stat(name)
		return file{name, abs, real, fi}
	}
	same := func(a, b file) bool {
		return a.abs == b.abs || a.fi != nil && b.fi != nil && os.SameFile(a.fi, b.fi)
	}
	// holds reports whether folder is an ancestor of f, by name or with links resolved.
	holds := func(folder, f file) bool {
		under := func(dir, p string) bool {
			return dir != "" && p != "" && strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
		}
		return under(folder.abs, f.abs) || under(folder.real, f.real)
	}
	ins := make([]file, len(inputs))
	for i, name := range inputs {
		ins[i] = stat(name)
	}
	outs := make([]file, len(outputs))
	for i, name := range outputs {
		outs[i] = stat(name)
		if IsStateFile(outs[i].abs) || IsStateFile(outs[i].real) {
			return &OutputError{fmt.Sprintf("%s: output is one of idxlabel's own files (a pair's lock, journal or save record: %q in its name); write to another file", name, StateMarker)}
		}
		for _, prev := range outs[:i] {
			if same(prev, outs[i]) {
				return &OutputError{fmt.Sprintf("%s and %s are the same file: each output needs its own", prev.name, name)}
			}
		}
		for _, in := range ins {
			if same(in, outs[i]) {
				return &OutputError{fmt.Sprintf("%s: output is the input %s; write to another file", name, in.name)}
			}
			if holds(outs[i], in) {
				return &OutputError{fmt.Sprintf("%s: output is a folder that holds the input %s; write to another folder", name, in.name)}
			}
		}
	}
	return nil
}
