package store

import (
	"bytes"
	"os"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
)

// Every writer that replaces a pair's files (pairfile.ClaimOutputs) asks JournalChangesNothing of
// a journal of that pair, so that the command line and the window agree on edits that cancel out.
func init() { pairfile.SetJournalRule(JournalChangesNothing) }

// journalIsQuiet reports whether the journal c, found beside d's files, changes nothing: no edit
// records, records that cancel out step by step (journal.Contents.NetEmpty, no damaged tail), or,
// written against these very files (its base record is d's), steps that give every sample back
// its label in them and move no mark (journalChangesNothing). d.mu held, or d not shared yet.
// Open removes such a journal (findJournal); so does a writer replacing the pair's files
// (JournalChangesNothing).
func journalIsQuiet(d *Dataset, c *journal.Contents) bool {
	return c.Edits() == 0 || c.NetEmpty() && c.Damaged == 0 ||
		bytes.Equal(c.Base, d.baseRecord()) && journalChangesNothing(&d.model, c)
}

// JournalChangesNothing reports whether the journal at path leaves the files it applies to as
// they are when replayed, by the rule Open drops a journal by (journalIsQuiet): the files are
// those its pair record names (a journal of an older version, which names none, answers false),
// read as a read-only Open reads them (no lock taken, nothing on disk changed), with the
// default shape options. Only a journal where its own pair keeps it is judged (ownJournal): one
// whose pair record names other files (copied beside this pair, crafted, or naming files through
// a path leaving its folder) is judged by the window opening the pair it sits beside against
// that pair, not the files it names, so it answers false. Any error (the journal or the files cannot be read, they are not the
// journal's base any more) answers false: such a journal is kept and offered. It reads the
// journal (at most idx.MaxData bytes) and the label file whole, and streams the image file to
// its end for the CRC-32C the journal's base record names, holding none of it (streamImages):
// memory O(records + the label file + about 16 bytes a sample), whatever the images' size; time
// O(the pair's size). It is asked only of a journal that holds edit records
// (pairfile.SetJournalRule, which package store sets to it).
func JournalChangesNothing(path string) bool {
	pair, err := journal.ReadPair(path)
	if err != nil || len(pair) == 0 {
		return false
	}
	images, labels := pair[0], ""
	if len(pair) == 2 {
		labels = pair[1]
	}
	if !ownJournal(path, images, labels) {
		return false
	}
	c, err := journal.Read(path, idx.MaxData())
	if err != nil {
		return false
	}
	d, err := open(images, labels, Options{ReadOnly: true}, true)
	if err != nil {
		return false
	}
	defer d.Close()
	d.mu.RLock()
	defer d.mu.RUnlock()
	return journalIsQuiet(d, c)
}

// ownJournal reports whether the journal at path is where a window editing the pair images,
// labels keeps its journal (pairfile.JournalFile, beside the file a link names; or beside the
// name used, where earlier versions kept it, pairfile.Key + JournalSuffix; or either's per-user
// fallback): the same path, or the same regular file under another spelling of its folder (never
// through a symbolic link at the journal's own name).
func ownJournal(path, images, labels string) bool {
	primary, earlier := pairfile.JournalFile(images, labels), pairfile.Key(images, labels)+pairfile.JournalSuffix
	for _, want := range []string{primary, pairfile.Fallback(primary), earlier, pairfile.Fallback(earlier)} {
		if want == "" {
			continue
		}
		if pairfile.SamePath(path, want) {
			return true
		}
		if fi, err := os.Lstat(want); err == nil && fi.Mode().IsRegular() && pairfile.SameFile(path, want) {
			return true
		}
	}
	return false
}
