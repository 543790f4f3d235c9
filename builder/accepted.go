package builder

import (
	"hash/crc32"

	"idxlabel/pairfile"
	"idxlabel/sample"
)

// castagnoli is the CRC-32C table of the images' checksums (pairfile.ImagesCRC's).
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// acceptedMarks reads the accepted marks of every input with a marks file (Input.AcceptedFile),
// keyed by its labels and the CRC-32C of its images (computed by readImages, which must have
// read them), and returns them numbered in the plan (an input's sample i is the samples of the
// inputs before it plus i), ascending; a mark on a sample without a label is left out, as the
// window leaves it out. A file that cannot be used (stale, damaged, a symbolic link, too large)
// is a notice in p.Notices, naming it, and gives no mark. Memory: 8 bytes a mark.
func (p *Plan) acceptedMarks() []int {
	var out []int
	base := 0
	for _, in := range p.Inputs {
		if in.AcceptedFile != "" {
			marks, err := pairfile.ReadAccepted(in.AcceptedFile, pairfile.KeyOf(in.Labels, in.imagesCRC))
			if err != nil {
				p.Notices = append(p.Notices, err.Error())
			}
			for _, i := range marks {
				if in.Class(i) != sample.NoLabel {
					out = append(out, base+i)
				}
			}
		}
		base += in.Shape.N
	}
	return out
}
