package pairfile

import "idxlabel/idx"

// CommitPair puts the written files of one pair in place as one operation, as WritePair does:
// images and labels are IDX files already written in full to temporary names beside their
// targets (idx.CreateFunc, idx.WritePending), and are renamed over imagesPath and labelsPath
// with a save record, so that a crash between the renames is finished when the pair is next
// opened for editing (FinishInterrupted). It is
// for a writer that streams a pair too large to hold (a command-line merge or split). Both
// targets must be outputs of c not written yet; the claim's locks are held throughout. On any
// failure the targets keep their old content and the temporary files are removed. Errors:
// ErrNotClaimed (the temporary files removed), a rename or save-record error naming the target.
func (c *Claim) CommitPair(imagesPath, labelsPath string, images, labels *idx.Pending) error {
	if err := c.take(imagesPath, labelsPath); err != nil {
		images.Abort()
		labels.Abort()
		return err
	}
	return commitAll([]*idx.Pending{images, labels}, []bool{false, false}, Key(imagesPath, labelsPath)+ManifestSuffix, nil)
}
