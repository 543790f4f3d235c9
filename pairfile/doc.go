// Package pairfile holds a pair's files on disk: an IDX image file and label file, and the files
// idxlabel keeps beside them. It is what the store's editing session, the builder (package
// dataset), the command line and the benchmarks share, and it knows neither the dataset a person
// edits (package store) nor the window (package ui).
//
//   - Names and partners (names.go): the label file of an image file and back as MNIST and its
//     siblings name them (FindLabels, FindImages, LabelsFileFor), which of two files is which
//     (ClassifyPair), and the names of idxlabel's own files (Key, IsStateFile, the suffixes).
//   - Locks (lock.go): one process edits a pair at a time (LockPair, an advisory lock beside
//     each file, "<file>.idxlabel-lock", or beside the file its symbolic link names: LockFile),
//     and a writer takes the locks of what it writes.
//   - Unsaved-edits markers (unsaved.go): beside an image file whose pair's journal is in
//     another folder, so that the rule for outputs refuses it too, with no path leaving a folder;
//     each change of one made under its own lock (markerlock.go).
//   - The rule for outputs (outputs.go): ClaimOutputs checks what a writer is about to replace
//     (no input, none of idxlabel's own files, no file of a pair open for editing or whose journal
//     holds unsaved edits, nothing that exists without force) and returns a Claim that holds the
//     outputs until the write it guards is done (Claim.WritePair, Claim.CommitPair). A journal
//     whose edits change nothing, by the rule package store sets (quietjournal.go:
//     SetJournalRule), refuses nothing and is removed by the claim.
//   - The paired atomic commit (write.go, commit.go, record.go): both files written to temporary
//     names, synced, read back, then renamed with a record beside the label file, or the file
//     its symbolic link names ("<labels>.idxlabel-saving": RecordPath) so that a crash between the renames is finished when the
//     pair is next opened (FinishInterrupted) and shown as saved meanwhile (ReadView). The
//     change-log rows a save appends (changerows.go: ChangeRows) are kept beside the record
//     before it is written and appended after the last rename, once, by the save or by
//     FinishInterrupted. A save whose rename fails is undone (undo.go) under a record that says
//     so, so a kill during the undo is undone, never finished, by the next opening; rows that
//     cannot be appended when a save ends are held beside the record for the next opening.
//   - Class-name files (classnames.go, classwrite.go): found and read beside the labels,
//     untrusted and bounded, and written so that they read back the same.
//   - Side files (beside.go): class names, sources and accepted marks sit beside the label file,
//     or beside the file a symbolic link names (SideBase), and are never read or written through
//     a link at their own path; what a write killed before its rename left of them is removed
//     by the next write and the next open for editing.
//   - Accepted marks (accepted.go): which labels are accepted suggestions (pseudo-labels),
//     kept beside the label file ("<labels>.idxlabel-accepted"; beside the file a symbolic
//     link names, which writes go through to) and keyed by the pair's
//     contents, so a file left from other contents is refused as stale, never applied; a
//     writer removes the marks of a label file it replaces only once the new file is in place
//     (Claim.Replaced), and a pair derived from a marked one gets the marks of the samples it
//     keeps, renumbered, in its own file written after its labels (carry.go:
//     CarryAccepted, Claim.KeepAccepted). Reviewed marks (the samples a person decided in a
//     review, "<labels>.idxlabel-reviewed") follow the same rule (MarksKind), written by the
//     window's save only: a derived pair starts with none.
//   - The pair rule (shape.go): the shapes an image file and a label file may have (CheckPair).
//   - Stamps (stamp.go): what a file looked like when read, to refuse a save over a file
//     another program changed since (ErrChangedOnDisk).
//   - The journal's file (package journal): the framing of a pair's log of unsaved edits, which
//     names its pair, so the rule for outputs finds it whatever the files are named.
//
// Everything read beside a pair is untrusted: a save record is obeyed only when every name in it
// is one of the pair's files; no file beside a pair (lock, journal, record, class-name, sources
// and accepted-marks files) is opened through a symbolic link (atomicfile.OpenNoFollow). Nothing here
// imports Fyne.
package pairfile
