package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
)

// Recovery returns the journal found at Open that awaits a decision, or nil. While it is
// pending, edits fail with ErrRecoveryPending.
func (d *Dataset) Recovery() *Recovery {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.recovery
}

// findJournal looks at every journal that can belong to this pair (beside it, and the per-user
// fallback used when its folder could not be written; beside the name used as well as beside the
// file a symbolic link names, where earlier versions and pairfile.JournalFile put it; for a pair
// with a label file, also those of its image file opened alone) and records the most complete one as a
// pending Recovery: among those written against these very files, the one with the most edit
// records; failing that, the one with the most records; failing that, an unreadable one (so the
// person can set it aside). Journals whose edits cancel out (journalIsQuiet: every step undone, or
// after a save every step back where the save left it; or, written against these files, steps
// that give every sample back its label in them) and empty files
// are removed: there is nothing in them. The journals not chosen are listed in Recovery.Others
// and set aside, never deleted, when the person decides.
func (d *Dataset) findJournal() error {
	primary := d.journalFile()
	candidates := []string{primary, pairfile.Fallback(primary)}
	// A pair opened through a link, by an earlier version: its journal beside the link's name.
	if old := d.statePath(pairfile.JournalSuffix); old != "" {
		candidates = append(candidates, old, pairfile.Fallback(old))
	}
	if d.labelsPath != "" && d.imagesPath != "" {
		// Edits typed on the image file opened alone, before this label file existed: they fit
		// these files no more, but are offered (and kept) rather than never seen again.
		alone := pairfile.JournalFile(d.imagesPath, "")
		old := d.imagesPath + pairfile.JournalSuffix
		candidates = append(candidates, alone, pairfile.Fallback(alone), old, pairfile.Fallback(old))
	}
	var found []*Recovery
	for k, p := range candidates {
		if p == "" || slices.ContainsFunc(candidates[:k], func(q string) bool { return pairfile.SamePath(p, q) }) {
			continue
		}
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue // never read or write through a link, folder or device
		}
		rec := &Recovery{Path: p, ModTime: fi.ModTime()}
		if fi.Size() == 0 {
			dropJournal(d.imagesPath, p)
			continue
		}
		c, err := journal.Read(p, idx.MaxData())
		if err != nil {
			rec.Reason = err.Error()
			found = append(found, rec)
			continue
		}
		rec.contents, rec.Edits, rec.Damaged = c, c.Edits(), c.Damaged
		rec.Matches = bytes.Equal(c.Base, d.baseRecord())
		if journalIsQuiet(d, c) {
			dropJournal(d.imagesPath, p)
			continue
		}
		if !rec.Matches {
			rec.Reason = "the files changed after the journal was written (their sample count, size or content differ)"
		}
		found = append(found, rec)
	}
	if len(found) == 0 {
		// No journal holds edits: a mark left beside the image file (a journal removed since,
		// or whose edits cancel out) goes.
		for _, p := range candidates {
			pairfile.UnmarkUnsaved(d.imagesPath, p)
		}
		return nil
	}
	best := found[0]
	for _, r := range found[1:] {
		if r.better(best) {
			best = r
		}
	}
	for _, r := range found {
		if r != best {
			best.Others = append(best.Others, r.Path)
		}
	}
	d.recovery = best
	pairfile.MarkUnsaved(d.imagesPath, best.Path) // until it is replayed and saved, or discarded
	return nil
}

// dropJournal removes the journal at path, found holding nothing (empty, or its edits cancel
// out), and its mark beside images: the mark first, while the journal is still there to show
// that this pair held one (pairfile.UnmarkUnsaved then removes an earlier version's line of its
// base name too).
func dropJournal(images, path string) {
	pairfile.UnmarkUnsaved(images, path)
	os.Remove(path)
}

// setAsideOthers moves the journals not chosen (Recovery.Others) to "<journal>.<time>.discarded"
// (keepAside: "<journal>.<time>-2.discarded" and on for a second one in the same second) so they
// are neither offered again nor lost.
func setAsideOthers(rec *Recovery) {
	for _, p := range rec.Others {
		keepAside(p, "discarded")
	}
}

// keepAside renames the file at path (a journal; a symbolic link is renamed, not followed) to
// "<path>.<time>.<tag>", or "<path>.<time>-<k>.<tag>" when files set aside earlier in the same
// second took the names before (atomicfile.MoveAside: never over another file), so that it is
// neither used again nor lost, and returns the new name; "" when there is nothing at path or it
// cannot be renamed (it then stays where it is).
func keepAside(path, tag string) string {
	if _, err := os.Lstat(path); err != nil {
		return ""
	}
	to, err := atomicfile.MoveAside(path, tag)
	if err != nil {
		return ""
	}
	return to
}

// ReplayJournal applies the pending journal's edits, in order, exactly as they were made (undo
// and redo history included), and continues journaling after them. A record that does not fit
// (an index beyond the samples, a label outside the label dtype's range) ends the replay there:
// the whole journal is first copied to "<journal>.<time>.unreplayed" (a name of its own, never
// over another file: copyAside), then cut back to the last
// record applied, and the error says so. It returns how many edit records (Recovery.Edits) were
// applied. A journal begun after a save starts with the history the save carried (history.go):
// it restores the undo and redo stacks, so they are as they were too. Errors: no
// matching journal is pending, the journal cannot be reopened or copied, or the replay stopped
// early (the dataset then holds the records before it, and editing goes on).
func (d *Dataset) ReplayJournal() (int, error) {
	applied, ch, err := func() (int, *Change, error) {
		d.mu.Lock()
		defer d.mu.Unlock()
		rec := d.recovery
		if rec == nil || !rec.Matches {
			return 0, nil, fmt.Errorf("no journal that matches these files is pending")
		}
		c := rec.contents
		good := c.Good
		applied, replayed := 0, 0
		var history []byte // a version 1 history record, re-encoded in version 2
		var stopped error
		for k, p := range c.Records {
			if _, err := d.replay(k, p, c.Version); err != nil {
				good = c.BaseEnd()
				if k > 0 {
					good = c.Ends[k-1]
				}
				stopped = fmt.Errorf("journal %s: record %d of %d was not replayed: %v", rec.Path, k+1, len(c.Records), err)
				break
			}
			replayed++
			if p[0] != recHistory {
				applied++
			} else if c.Version == 1 {
				history = d.historyRecord() // the stacks it restored, without provenance
			}
		}
		if stopped != nil || c.Damaged > 0 {
			copyPath, err := copyAside(rec.Path, "unreplayed")
			if err != nil {
				return applied, nil, fmt.Errorf("journal %s: cannot keep a copy before cutting off what was not replayed: %w", rec.Path, err)
			}
			if stopped != nil {
				stopped = fmt.Errorf("%w; %d edit(s) were replayed and the whole journal was kept as %s", stopped, applied, copyPath)
			}
		}
		if c.Version < journal.Version {
			// An older idxlabel's journal: rewritten in this version (the records applied; those
			// of version 1 without provenance) so that the records appended from now on carry
			// theirs, and so that it names the pair it belongs to (its pair record).
			var err error
			if good, err = upgradeJournal(rec.Path, d.pair(), c.Base, history, c.Records[:replayed], c.Version); err != nil {
				return applied, nil, fmt.Errorf("journal %s: cannot rewrite it in the current format: %w", rec.Path, err)
			}
		}
		j, err := journal.Reopen(rec.Path, good)
		if err != nil {
			return applied, nil, err
		}
		d.journal, d.recovery = j, nil
		if rec.Path != d.journalFile() {
			d.journalPath = rec.Path // the fallback location: keep using it
		}
		setAsideOthers(rec)
		ch := d.changed(Change{Kind: Reset})
		return applied, &ch, stopped
	}()
	if ch != nil {
		d.notify(*ch)
	}
	return applied, err
}

// upgradeJournal replaces the journal at path, of an older version, by a journal of this
// version for the files pair, of the same base and records, written atomically, and returns its
// length. Records of version 1 are upgraded (upgradeRecord; a history record replaced by
// history, the same stacks encoded with provenance); those of versions 2 and 3 are kept as they
// are (version 4 only adds what they never hold: appendmarks.go).
func upgradeJournal(path string, pair []string, base, history []byte, records [][]byte, version int) (int64, error) {
	out := records
	if version == 1 {
		out = nil
		for _, p := range records {
			if p[0] == recHistory {
				p = history
			} else {
				p = upgradeRecord(p)
			}
			if p != nil {
				out = append(out, p)
			}
		}
	}
	return journal.Write(path, pair, base, out)
}

// copyAside copies the file at src (never through a symbolic link) to a new file
// "<src>.<time>.<tag>", or "<src>.<time>-<k>.<tag>" when that is taken (atomicfile.WriteAside:
// written whole and synced before it is linked in, never over another file), and returns its
// name. Errors: src cannot be opened or read, or the copy cannot be written.
func copyAside(src, tag string) (string, error) {
	in, _, err := atomicfile.OpenNoFollow(src, os.O_RDONLY, 0)
	if err != nil {
		return "", err
	}
	defer in.Close()
	return atomicfile.WriteAside(src, tag, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}

// DiscardJournal deletes the pending journal's file, giving up its edits, and lets editing
// start afresh. keepCopy renames it to "<journal>.<time>.discarded" instead of deleting it
// ("<journal>.<time>-<k>.discarded" when that name is taken: atomicfile.MoveAside, never over
// another file). Errors: the file cannot be removed or renamed.
func (d *Dataset) DiscardJournal(keepCopy bool) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	rec := d.recovery
	if rec == nil {
		return nil
	}
	var err error
	if keepCopy {
		_, err = atomicfile.MoveAside(rec.Path, "discarded")
	} else {
		err = os.Remove(rec.Path)
	}
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	pairfile.UnmarkUnsaved(d.imagesPath, rec.Path)
	setAsideOthers(rec)
	d.recovery = nil
	return nil
}

// Abandon gives up the unsaved edits on purpose (the person chose "Discard"): it closes and
// deletes the journal, so reopening the files does not offer them again, and clears the undo and
// redo stacks (and the history a save carried), so Dirty is false and nothing of what was given
// up can be undone or redone. Keeping the stacks would let Undo and Redo act on edits the person
// threw away, and journal them after a base record alone, a journal no replay can follow (an
// undo with nothing to undo); carrying them as a history record would tell a replay that the
// files hold steps they do not. The samples in memory are not reverted: the window closes or
// replaces the dataset right after. If it is edited further, the new journal starts over
// against the files, so a crash recovers those edits on top of the files, without the ones
// given up. Errors: the journal cannot be removed.
func (d *Dataset) Abandon() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.forgetSteps(false)
	d.carry = nil
	if d.journal == nil {
		return nil
	}
	path := d.journal.Path()
	d.journal.Close()
	d.journal = nil
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		return err
	}
	pairfile.UnmarkUnsaved(d.imagesPath, path)
	return nil
}

// replay replays the k-th record of a journal of the given version (d.mu held): the history
// record, which may only come first (replayHistory), or an edit, undo or redo, applied as the
// edit did originally but without journaling it, and logged (changelog.go). Errors: a history
// record after edits, a record that does not decode or does not fit the dataset (an index out of
// range, a wrong pixel count, a How that does not fit the edit), in which case nothing is
// applied.
func (d *Dataset) replay(k int, p []byte, version int) (Change, error) {
	t := p[0]
	if t == recHistory {
		if k != 0 {
			return Change{}, errors.New("a history record after edits")
		}
		return Change{}, d.replayHistory(p, version)
	}
	if t == recNames {
		return Change{}, d.replayNames(p)
	}
	r := &dec{b: p[1:]}
	if t == recUndo || t == recRedo {
		undo := t == recUndo
		var when int64
		if version >= 2 {
			when = r.i64()
		}
		if r.err != nil || len(r.b) != 0 {
			return Change{}, errors.New("an undo or redo record of the wrong length")
		}
		if undo && len(d.undo) == 0 || !undo && len(d.redo) == 0 {
			return Change{}, errors.New("undo or redo with nothing to undo or redo")
		}
		a, ch := d.performStep(undo)
		d.log.step(&d.model, a, undo, when)
		return ch, nil
	}
	var pv provenance
	if version >= 2 {
		pv = provenance{how: How(r.u8()), when: r.i64()}
		if r.err != nil {
			return Change{}, r.err
		}
		if err := checkHow(t, pv.how); err != nil {
			return Change{}, err
		}
	}
	a, err := decodeEdit(&d.model, t, r)
	if err != nil {
		return Change{}, err
	}
	*provOf(a) = pv
	ch := d.perform(a)
	d.log.do(&d.model, a)
	return ch, nil
}
