// Package store is the dataset a person edits: an IDX image file and label file opened as a pair
// (plain or gzip, any IDX dtype), the edits made to it (relabel, append, delete, restore) with
// unlimited undo and redo, a crash-safe journal of every edit, and an atomic paired save.
//
// Two types make it up. The model (model.go, unexported, embedded in Dataset so that its
// queries are Dataset's) is what a person's edits do, in memory: the samples, their labels,
// deletion and review marks, appended samples, class names, the undo and redo stacks
// (modeledit.go, carry.go, history.go), the counts (tally.go), the queries (query.go,
// filter.go) and the notifications (change.go, notify.go); it writes no file. Each kind of step
// has one file holding all of it, its journal encoding included (relabel.go, decide.go,
// append.go, delete.go; kinds.go and records.go hold what they share). Dataset is the session
// that keeps those edits: it opens and locks the pair (open.go, dataset.go; the pair's files on
// disk are package pairfile's), journals every edit before the model applies it (edit.go,
// sessionjournal.go, journalwrite.go), offers and replays a journal left by a crash
// (recovery.go), saves (save.go), logs the changes (changelog.go, changelog_csv.go), and refuses
// edits when it cannot keep them (closed, read-only, saving, a journal awaiting a decision:
// takesEdits). One lock, the model's, guards both, so every method of either is safe for
// concurrent use.
//
// Samples are numbered 0…Len()-1: first the samples of the files in file order, then appended
// samples. Deleted samples keep their number until the next save removes them. Pixels stay in one
// contiguous buffer per origin (the file's, the appended ones') and Pixels returns views.
//
// Never losing work: every edit is appended to a journal file beside the label file, or the file
// its symbolic link names ("<labels>.idxlabel-journal", pairfile.JournalFile) and synced to disk before the edit method returns. Reopening the
// pair finds the journal and offers it (Recovery, ReplayJournal). Saving writes both files to
// temporary names, syncs and decodes them back, then renames them over the targets; a save cut
// off between the two renames is finished the next time the pair is opened, by any of its names,
// from the record "<labels>.idxlabel-saving" beside the label file or the file its symbolic link
// names (pairfile.RecordPath), which names only this pair's own files.
//
// A save keeps the undo history, renumbered past the samples it removed (carry.go: a saved
// deletion can no longer be undone; a saved append is undone by marking its samples deleted),
// and starts the journal over with that history as its first record (history.go), so an undo
// after a save survives a crash too. What changed since the files were opened (State's Edited,
// Added, Original) stays visible across saves until the pair is closed.
//
// Trust: everything read beside a pair is untrusted. A save record is obeyed only when every name
// in it is one of the pair's files or the exact temporary name a save makes for it; otherwise it
// is moved aside and the files are left as they are. No file kept or read beside a pair (its
// journal, lock, save record, change log, class-name and sources files) is opened through a
// symbolic link (atomicfile.OpenNoFollow, atomicfile.WriteFileNoFollow). One process edits a pair at a time (an advisory lock,
// "<labels>.idxlabel-lock"; a second opener gets a pairfile.LockedError naming the holder), Save
// refuses files changed on disk since they were read (pairfile.ErrChangedOnDisk), and a journal
// record that cannot be synced refuses its edit (ErrJournalWrite). Options.ReadOnly opens a pair without
// writing, renaming or deleting anything.
//
// Accepted suggestions (accepted.go): a label set as HowSuggestedAccepted is a pseudo-label
// (State.Accepted) until a person labels the sample; a save keeps the marks beside the label file
// (pairfile.AcceptedFile) and Open reads them back, or says why not (Notices). A review's
// decisions (State.Reviewed) are kept the same way (pairfile.ReviewedMarks), so they outlive a
// close and a reopen.
//
// Provenance: every edit records how and when it was made (How), in the journal too; ChangeLog
// lists the changes in effect since the files were opened, and each save appends its own to
// "<labels>.changes.csv" (ChangesSuffix) beside the files (changelog.go has the rules).
//
// store never imports Fyne; it reports changes through Subscribe.
package store
