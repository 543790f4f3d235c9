package pairfile

import (
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"

	"idxlabel/idx"
	"idxlabel/pairfile/journal"
)

// A journal whose edit records do not cancel out step by step (journal.Holds) can still change
// nothing: 3 typed over a 7, then 7 typed back. Whether it does depends on what the records mean
// and on the files they apply to, which are the dataset's (package store), so the rule is set
// from there (SetJournalRule); the window drops such a journal when it opens the pair, and every
// writer under ClaimOutputs follows the same rule: it is not unsaved work, so it refuses nothing,
// and once the claim holds the outputs it is removed (left, it would be offered against the new
// files, or refuse the next writer, as edits of files it no longer fits).

// JournalRule reports whether the journal at path, which holds edit records (journal.Holds),
// leaves the files its pair record names as they are when replayed. It answers false whenever it
// cannot tell (a journal that names no files, files that cannot be read, damage).
type JournalRule func(path string) bool

var journalRule atomic.Pointer[JournalRule]

// SetJournalRule sets the rule ClaimOutputs asks of a journal that holds edit records (nil: none,
// every such journal refuses its outputs). Package store sets it to store.JournalChangesNothing,
// the rule its Open drops journals by, so that a program that edits pairs and a writer agree.
func SetJournalRule(rule JournalRule) {
	if rule == nil {
		journalRule.Store(nil)
		return
	}
	journalRule.Store(&rule)
}

// verdicts remembers what each journal refuseUnsaved looked at holds, so that each is read (and
// judged by the JournalRule) once a claim.
type verdicts map[string]verdict

type verdict struct {
	edits int  // journal.Holds' count
	held  bool // journal.Holds: it holds edit records, or cannot be read
	quiet bool // held, yet the JournalRule says it changes nothing
}

// of returns the verdict on the journal at path. A journal in the per-user fallback folder is
// never judged quiet: it belongs to a pair whose folder could not be written, whose window takes
// its lock in that folder too, where a writer's claim does not look (lockForWrite skips a folder
// it cannot write), so the window may be live and still writing it; removing it would lose the
// window's next edits. (A writer to such a folder fails anyway.)
func (vs verdicts) of(path string) verdict {
	if v, ok := vs[path]; ok {
		return v
	}
	var v verdict
	v.edits, v.held = journal.Holds(path, idx.MaxData())
	if rule := journalRule.Load(); v.held && rule != nil && !inFallback(path) {
		v.quiet = (*rule)(path)
	}
	vs[path] = v
	return v
}

// quiet returns the journals judged quiet, sorted, each once.
func (vs verdicts) quiet() []string {
	var out []string
	for p, v := range vs {
		if v.quiet {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// markerQuiet reports whether every journal the unsaved-edits marker at marker names (its lines,
// readUnsaved: a base name and a digest of the journal's path, or a bare base name) is one judged
// quiet whose pair names p: then the marker speaks only of journals
// that change nothing, and goes with them (dropQuiet). A marker that cannot be read, or names a
// journal not found, is not quiet.
func (vs verdicts) markerQuiet(p, marker string) bool {
	lines := readUnsaved(marker)
	if len(lines) == 0 {
		return false
	}
	quiet := vs.quiet()
	for _, l := range lines {
		if !slices.ContainsFunc(quiet, func(q string) bool {
			if !l.names(q) {
				return false
			}
			pair, err := journal.ReadPair(q)
			return err == nil && slices.ContainsFunc(pair, func(f string) bool { return SameFile(f, p) })
		}) {
			return false
		}
	}
	return true
}

// inFallback reports whether path is in the per-user fallback folder (FallbackDir).
func inFallback(path string) bool {
	dir := FallbackDir()
	return dir != "" && SamePath(filepath.Dir(Abs(path)), dir)
}

// dropQuiet removes the journals judged quiet (a regular file's name is removed, never a link
// followed) and their names from the unsaved-edits marker beside their pair's image file.
func dropQuiet(journals []string) {
	for _, j := range journals {
		pair, _ := journal.ReadPair(j)
		if fi, err := os.Lstat(j); err != nil || !fi.Mode().IsRegular() || os.Remove(j) != nil {
			continue
		}
		if len(pair) > 0 {
			UnmarkUnsaved(pair[0], j)
		}
	}
}
