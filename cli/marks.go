package cli

import (
	"fmt"
	"os"

	"idxlabel/idx"
	"idxlabel/internal/numfmt"
	"idxlabel/pairfile"
)

// labelMarks reads the accepted marks beside the label file labels (pairfile.AcceptedFile), whose
// labels as read are arr, for a writer that derives another label file from it with the same
// images (convert, apply-errata): pairfile.ReadAcceptedOf, so the marks' key needs no pass over
// the images; the image CRC it returns is the one the marks were written for, and the derived
// file's marks are keyed with it, so that they fit the same pairs the input's fit. A marks file
// that cannot be used (stale, damaged, a symbolic link) is said on stderr, naming it, and gives
// no marks. Memory: 8 bytes a mark; nothing is read when there is no file.
func (c *cli) labelMarks(labels string, arr *idx.Array) (images uint32, marks []int) {
	path := pairfile.AcceptedFile(labels)
	if _, err := os.Lstat(path); err != nil {
		return 0, nil
	}
	key, marks, err := pairfile.ReadAcceptedOf(path, arr)
	if err != nil {
		fmt.Fprintf(c.stderr, "idxlabel: %v\n", err)
		return 0, nil
	}
	return key.Images, marks
}

// keepMarks writes marks, the accepted samples of the label file out written under claim (arr:
// its labels as written) beside it, keyed with the image CRC images (labelMarks'), and says on
// stderr how many it kept. Errors: those of pairfile.Claim.KeepAccepted, naming the file.
func (c *cli) keepMarks(claim *pairfile.Claim, out string, arr *idx.Array, images uint32, marks []int) error {
	if len(marks) == 0 {
		return nil
	}
	if err := claim.KeepAccepted(out, pairfile.KeyOf(arr, images), marks); err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "idxlabel: %s: %s (pseudo-labels) marked in %s\n", out, numfmt.Plural(len(marks), "accepted suggestion"), pairfile.AcceptedFile(out))
	return nil
}
