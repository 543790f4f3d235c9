package store

import "idxlabel/pairfile"

// checkStamps checks every file the dataset read against its stamp (d.mu held), the content of
// those named in replace too. Errors: as pairfile.Stamp.Check, for the first file that changed.
func (d *Dataset) checkStamps(replace ...string) error {
	for _, s := range d.stamps {
		content := false
		for _, r := range replace {
			content = content || pairfile.SamePath(r, s.Path())
		}
		if err := s.Check(content); err != nil {
			return err
		}
	}
	return nil
}

// restamp returns the stamps of the pair after a save that wrote the files in written: those
// are stamped afresh, the others keep the stamp they had (the save did not touch them, and
// hashing a large image file again would cost as much as reading it).
func (d *Dataset) restamp(imagesPath, labelsPath string, written []string) []pairfile.Stamp {
	var out []pairfile.Stamp
	for _, p := range []string{imagesPath, labelsPath} {
		if p == "" {
			continue
		}
		kept := -1
		for k, s := range d.stamps {
			if pairfile.SamePath(s.Path(), p) {
				kept = k
			}
		}
		fresh := kept < 0
		for _, w := range written {
			fresh = fresh || pairfile.SamePath(w, p)
		}
		if fresh {
			out = append(out, pairfile.TakeStamp(p))
		} else {
			out = append(out, d.stamps[kept])
		}
	}
	return out
}
