package pairfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"idxlabel/internal/atomicfile"
	"idxlabel/pairfile/journal"
)

// OutputError is CheckOutputs' refusal of an output: its message names the output, what it would
// replace, and what to do instead.
type OutputError struct{ msg string }

func (e *OutputError) Error() string { return e.msg }

// CheckOutputs refuses outputs that a writer (a command-line writer, the window's export) must
// not replace: it returns an *OutputError when two outputs name the same file, an output names
// one of the inputs, or an output is a folder that holds an input (at any depth), any of which
// would destroy an input or leave one output holding the other's data (an export replaces a
// folder OUT whole), or an output's marks file of any kind (MarksKinds: accepted or reviewed) is
// an input (the write removes and rewrites it); or when an output is one of idxlabel's own files (IsStateFile, by name or
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
		var marks []file // removed and rewritten once the output is in place (Claim.Replaced)
		for _, k := range MarksKinds {
			marks = append(marks, stat(k.File(name)))
		}
		for _, in := range ins {
			if same(in, outs[i]) {
				return &OutputError{fmt.Sprintf("%s: output is the input %s; write to another file", name, in.name)}
			}
			for k, m := range marks {
				if same(in, m) {
					return &OutputError{fmt.Sprintf("%s: its %s file %s is the input %s, which writing it would remove; write to another file", name, MarksKinds[k].what, m.name, in.name)}
				}
			}
			if holds(outs[i], in) {
				return &OutputError{fmt.Sprintf("%s: output is a folder that holds the input %s; write to another folder", name, in.name)}
			}
		}
	}
	return nil
}

// ErrExists: an output already exists and the writer was not told to replace it (ClaimOutputs
// with force false; the command line's --force). Its message states the fact; the command line
// adds its advice, the window asks. It is atomicfile.ErrExists, which writers below this package
// (export) return too.
var ErrExists = atomicfile.ErrExists

// ErrUnsavedEdits is what every *UnsavedEditsError matches with errors.Is.
var ErrUnsavedEdits = errors.New("a journal of unsaved edits belongs to this file")

// UnsavedEditsError says that an output belongs to a pair whose journal holds edits not yet
// saved (a window that stopped before saving them): replacing the file would make them
// unreplayable, so no writer replaces it, not even when told to (--force).
type UnsavedEditsError struct {
	Output  string // the output as the writer named it
	Journal string // the journal holding the edits ("" when only Marker is known)
	Pair    string // the file the journal belongs to: the pair's label file (image file when alone)
	Edits   int    // the journal's intact edit records; 0 when it cannot be read
	// Marker: the unsaved-edits marker beside the output (UnsavedSuffix), when that is what
	// refuses it: the journal is beside a label file in another folder.
	Marker string
}

func (e *UnsavedEditsError) Error() string {
	if e.Marker != "" {
		journals := "a journal"
		if names := unsavedNames(e.Marker); len(names) > 0 {
			journals = strings.Join(names, ", ")
		}
		return fmt.Sprintf("%s: the marker %s says %s beside the label file of a pair with this image file (in another folder) holds unsaved edits, made in a window that stopped before saving them; replacing the file would lose them", e.Output, e.Marker, journals)
	}
	held := "edits it cannot read"
	if e.Edits > 0 {
		held = fmt.Sprintf("%d unsaved edits", e.Edits)
	}
	return fmt.Sprintf("%s: the journal %s holds %s of %s, made in a window that stopped before saving them; replacing the file would lose them", e.Output, e.Journal, held, e.Pair)
}

// Is makes errors.Is(err, ErrUnsavedEdits) true for an *UnsavedEditsError.
func (e *UnsavedEditsError) Is(target error) bool { return target == ErrUnsavedEdits }

// Replaceable is a writer's rule of what it may replace at an output that exists: nil when it
// may (with force), else an error saying what is in the way, refused with or without force.
type Replaceable func(out string) error

// FileOutput is the Replaceable of a writer whose output is one file written atomically
// (package atomicfile): a regular file, or a symbolic link to one (written through). Errors:
// atomicfile.Resolve's (a folder, FIFO, socket, device or a link to nothing: an *fs.PathError
// wrapping atomicfile.ErrNotRegular).
func FileOutput(out string) error {
	_, err := atomicfile.Resolve(out)
	return err
}

// ClaimOutputs is the one rule every writer (each command-line writer, and any other program
// about to replace files) follows before it writes outputs computed from inputs:
//
//  1. CheckOutputs: no output is an input, a folder holding one, another output or one of
//     idxlabel's own files (*OutputError).
//  2. Whatever is at an output must be something the writer may replace: may (FileOutput when
//     nil) says what is in the way, and that is refused with or without force. A class-name or
//     sources file beside the outputs (ClassNamesSuffix, SourcesSuffix) is written without
//     following a link, so there nothing but a regular file may be (never a symbolic link).
//  3. The outputs' locks are taken (as a writer's: job=write in the lock file): a pair open for editing in a window or
//     another process is refused (*LockedError), as is a pair whose save was cut off.
//  4. Even with force, no output belongs to a pair whose journal holds unsaved edits
//     (RefuseUnsaved: *UnsavedEditsError, naming the journal, or the unsaved-edits marker
//     beside an image file whose pair's journal is in another folder: unsaved.go); opening the
//     pair in the window replays or discards them. A journal whose edits change nothing (the
//     JournalRule: 3 typed over a 7, then 7 typed back), which the window drops when it opens
//     the pair, refuses nothing either: it is removed (with its name in the marker) once
//     every step here has passed, so that it is neither offered against the new files nor
//     refuses the next writer as edits it no longer fits.
//  5. Without force, no output exists (ErrExists, wrapped, naming it): nothing os.Lstat finds
//     (a file, a folder, a symbolic link) but an empty folder, which holds nothing to lose.
//     This comes last, so that "use --force" is never the advice where force is refused too.
//
// The claim itself changes nothing on disk but the locks and the journals of step 4 that change
// nothing: the accepted-marks file beside an output (AcceptedFile) is removed only once the
// writer's new file is in place (Claim.Replaced, which the claim's pair writes call themselves),
// so a writer that fails or is cancelled leaves the pair and its marks as they were.
//
// On success the outputs are the writer's until it calls the Claim's Release: it writes them
// while it holds the claim (a pair through Claim.WritePair or Claim.CommitPair, which take no
// lock of their own), so that no other writer or window gets in between the check and the
// write. On an error nothing is held. It reads the outputs' metadata, a folder's first entry,
// the names in the outputs' folders and each journal found (bounded by idx.MaxData); nothing
// else grows with the outputs' sizes.
func ClaimOutputs(inputs, outputs []string, force bool, may Replaceable) (*Claim, error) {
	if err := CheckOutputs(inputs, outputs); err != nil {
		return nil, err
	}
	if may == nil {
		may = FileOutput
	}
	var exists []string
	for _, o := range outputs {
		if fi, err := os.Lstat(o); err == nil {
			check := may
			if isSideFile(o) {
				check = func(string) error { return sideFileOutput(o, fi) }
			}
			if err := check(o); err != nil {
				return nil, err
			}
		}
		if outputExists(o) {
			exists = append(exists, o)
		}
	}
	release, err := lockForWrite(outputs...)
	if err != nil {
		return nil, err
	}
	quiet, err := refuseUnsaved(outputs)
	if err != nil {
		release()
		return nil, err
	}
	if len(exists) > 0 && !force {
		release()
		return nil, fmt.Errorf("%s: %w", exists[0], ErrExists)
	}
	dropQuiet(quiet)
	c := &Claim{release: release}
	for _, o := range outputs {
		c.outputs = append(c.outputs, Abs(o))
	}
	return c, nil
}

// Claim is the hold a writer has on its outputs from ClaimOutputs' check until it calls
// Release: their locks, under which no window opens them for editing and no other
// writer claims them. The pair writes a writer makes through it (WritePair, CommitPair) are the
// write the claim was made for: each output is written once, and a path the claim does not hold
// is refused. Its methods are safe for concurrent use.
type Claim struct {
	mu       sync.Mutex
	outputs  []string // absolute, cleaned
	written  []string // the outputs a pair write of this claim has put in place (or is putting)
	replaced []string // the outputs the writer has said are in place (Replaced)
	release  func()
	released bool
}

// ErrNotClaimed: a write through a Claim names a file the claim does not hold, one it has
// already written, or comes after Release.
var ErrNotClaimed = errors.New("not claimed for this write")

// take marks paths ("" ignored) as being written under c: each must be an output of c not
// written yet, and c not released. Errors: ErrNotClaimed, wrapped with the path.
func (c *Claim) take(paths ...string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range paths {
		if p == "" {
			continue
		}
		p = Abs(p)
		switch {
		case c.released:
			return fmt.Errorf("%s: %w (the claim was released)", p, ErrNotClaimed)
		case slices.Contains(c.written, p):
			return fmt.Errorf("%s: %w (already written under this claim)", p, ErrNotClaimed)
		case !slices.Contains(c.outputs, p):
			return fmt.Errorf("%s: %w", p, ErrNotClaimed)
		}
	}
	for _, p := range paths {
		if p != "" {
			c.written = append(c.written, Abs(p))
		}
	}
	return nil
}

// Release gives the outputs up: their locks are released. Calling it again, or on a nil Claim,
// does nothing.
func (c *Claim) Release() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.released {
		c.released = true
		c.release()
	}
}

// isSideFile reports whether the output o is a file written beside a pair, never through a
// symbolic link: a class-name or sources file.
func isSideFile(o string) bool {
	return strings.HasSuffix(o, ClassNamesSuffix) || strings.HasSuffix(o, SourcesSuffix)
}

// sideFileOutput refuses, at a side file's output o (Lstat's fi), anything but a regular file: a
// symbolic link is not written through (atomicfile.WriteFileNoFollow). Errors: an *fs.PathError
// wrapping atomicfile.ErrNotRegular naming what is there.
func sideFileOutput(o string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return &fs.PathError{Op: "write", Path: o, Err: fmt.Errorf("%w (%s); it is written beside the pair without following links: remove it", atomicfile.ErrNotRegular, atomicfile.Kind(fi.Mode()))}
}

// outputExists reports whether something is at path for a writer to replace: anything os.Lstat
// finds except an empty folder.
func outputExists(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return !errors.Is(err, fs.ErrNotExist)
	}
	if !fi.IsDir() {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	names, _ := f.Readdirnames(1)
	return len(names) > 0
}

// RefuseUnsaved returns an *UnsavedEditsError when one of paths belongs to a pair whose journal
// holds unsaved edits (ClaimOutputs' step 4), whatever the files are
// named: an unsaved-edits marker beside the path or the file its symbolic link names
// (UnsavedMarker: an image file whose pair's journal is beside a label file in another folder);
// a journal that names the path in its pair record (journal.Contents.Pair: every journal
// idxlabel writes names both files of its pair), found among the journals in the path's folder,
// in the folder of the file a symbolic link names, and in the per-user fallback folder; and,
// for journals of older versions, which name no file, the journal beside the path, beside the
// file a symbolic link names, beside the label file of an image file (FindLabels), or their
// per-user fallbacks. A journal holds edits when it has edit records which do not cancel out,
// or when it cannot be read (journal.Holds), unless the JournalRule says they change nothing
// (SetJournalRule). Call it while holding the paths' locks
// (ClaimOutputs does), so that no window starts a journal meanwhile. It reads the names in those folders and the first record
// of each journal there; a journal naming the path is read whole (at most idx.MaxData bytes).
func RefuseUnsaved(paths ...string) error {
	_, err := refuseUnsaved(paths)
	return err
}

// refuseUnsaved is RefuseUnsaved, and returns the journals it let pass because, though they hold
// edit records, the JournalRule says they change nothing (quietjournal.go), for ClaimOutputs to
// remove once it holds the outputs. Such a journal refuses nothing, and neither does an
// unsaved-edits marker that names only such journals. With no JournalRule set, every journal
// that holds edit records refuses, as do all markers.
func refuseUnsaved(paths []string) (quiet []string, err error) {
	vs := verdicts{}
	if journalRule.Load() != nil {
		// Every path's journals are judged first: a marker beside one path may name a quiet
		// journal found only beside another (its pair's label file, in another folder).
		for _, p := range paths {
			for _, c := range unsavedCandidates(filepath.Clean(p)) {
				vs.of(c.journal)
			}
		}
	}
	for _, p := range paths {
		p = filepath.Clean(p)
		if m := UnsavedMarker(p); m != "" && !vs.markerQuiet(p, m) {
			return nil, &UnsavedEditsError{Output: p, Marker: m}
		}
		for _, c := range unsavedCandidates(p) {
			if v := vs.of(c.journal); v.held && !v.quiet {
				return nil, &UnsavedEditsError{Output: p, Journal: c.journal, Pair: c.owner, Edits: v.edits}
			}
		}
	}
	return vs.quiet(), nil
}

// unsavedCandidates returns the journals that can hold unsaved edits of the file at p (cleaned),
// each with the file of its pair it belongs to (RefuseUnsaved): those whose pair record names p
// or the file its symbolic link names, and, by name, the journal beside each of those, beside
// p's label file (FindLabels), and their per-user fallbacks.
func unsavedCandidates(p string) []namingJournal {
	files := []string{p} // the path, and the file its symbolic link names
	if r, err := atomicfile.Resolve(p); err == nil && !SamePath(r, p) {
		files = append(files, r)
	}
	cands := journalsNaming(files)
	owners := files
	if l := FindLabels(p); l != "" {
		owners = append(slices.Clip(owners), l)
	}
	for _, owner := range owners {
		primary := owner + JournalSuffix
		cands = append(cands, namingJournal{primary, owner}, namingJournal{Fallback(primary), owner})
	}
	return cands
}

// namingJournal is a journal found by journalsNaming and the file of its pair it names the pair
// by: its label file, or its image file when it has none (the file the journal is named after).
type namingJournal struct{ journal, owner string }

// journalsNaming returns the journals whose pair record names one of files (a path, and the
// file its symbolic link names): those in the files' folders and in the per-user fallback
// folder, named "<something>" + JournalSuffix, regular files. A journal that cannot be read is
// not returned (the rules by name in RefuseUnsaved offer those that can belong to the file).
func journalsNaming(files []string) []namingJournal {
	var dirs []string
	for _, f := range files {
		dirs = append(dirs, filepath.Dir(Abs(f)))
	}
	if fb := FallbackDir(); fb != "" {
		dirs = append(dirs, fb)
	}
	var out []namingJournal
	seen := map[string]bool{}
	for _, dir := range dirs {
		if seen[dir] {
			continue
		}
		seen[dir] = true
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), JournalSuffix) || !e.Type().IsRegular() {
				continue
			}
			j := filepath.Join(dir, e.Name())
			pair, err := journal.ReadPair(j)
			if err != nil {
				continue
			}
			for _, f := range files {
				if slices.ContainsFunc(pair, func(p string) bool { return SameFile(p, f) }) {
					out = append(out, namingJournal{j, pair[len(pair)-1]})
					break
				}
			}
		}
	}
	return out
}
