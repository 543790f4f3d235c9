package pairfile

import "os"

// SaveProgress says how far a save of the pair (images, labels; labels may be "") got when it
// was cut off between its renames, from the record of it beside the pair (the record ReadView
// and FinishInterrupted use, checked the same way): files is how many files the save writes, placed how many
// of them it had put in place (their temporary file is gone). 0 < placed < files means the files
// on disk mix the new and the old: they are not the pair that was saved, nor the one before it,
// even when their counts agree. It reads the record and looks for its temporary files, and
// changes nothing on disk. Both are 0 when there is no record, when it is refused (ReadView's
// notice says why), and when it is the record of a failed save being undone (ReadView shows the
// pair as it was before it).
func SaveProgress(images, labels string) (files, placed int) {
	var m *manifest
	for _, p := range recordPaths(images, labels) {
		if r, err := readManifest(p, []string{images, labels}); err == nil && r != nil {
			m = r
			break
		}
	}
	if m == nil || m.Undo {
		return 0, 0 // an undo: ReadView shows the pair as it was before the save
	}
	for _, f := range m.Files {
		if _, err := os.Lstat(f.Temp); err != nil {
			placed++
		}
	}
	return len(m.Files), placed
}
