package builder

import (
	"context"

	"idxlabel/pairfile"
)

// Build is the whole of a build, as every writer of plans (the command line's merge, split and
// subset, the window's Split Dataset) runs it: the outputs claimed by the one rule for outputs
// (pairfile.ClaimOutputs, the class-name file beside each output label file counted an output: one
// left from before would name the new classes; force replaces existing files), the inputs opened
// (Open; each notice handed to notice), the outputs checked again against the inputs'
// class-name files (pairfile.CheckOutputs), the plan made (plan) and written (Write, under the
// claim, with progress; the notices it leaves in the plan, an input's accepted-marks file
// refused, handed to notice), the claim released at the end. When ctx is cancelled before the outputs
// are put in place, nothing is replaced. Errors: those of pairfile.ClaimOutputs (a
// *pairfile.OutputError for an output that is an input), Open, pairfile.CheckOutputs, plan and Write.
func Build(ctx context.Context, in, out []Pair, force bool, plan func([]*Input) (*Plan, error), notice func(string), progress Progress) ([]Written, error) {
	var inFiles, outFiles []string
	for _, p := range in {
		inFiles = append(inFiles, p.Images, p.Labels)
	}
	for _, p := range out {
		outFiles = append(outFiles, p.Images, p.Labels, NamesFileFor(p.Labels))
	}
	claim, err := pairfile.ClaimOutputs(inFiles, outFiles, force, nil)
	if err != nil {
		return nil, err
	}
	defer claim.Release()
	inputs := make([]*Input, len(in))
	for k, p := range in {
		if inputs[k], err = Open(p); err != nil {
			return nil, err
		}
		if notice != nil {
			for _, n := range inputs[k].Notices {
				notice(n)
			}
		}
		if f := inputs[k].NamesFile; f != "" {
			inFiles = append(inFiles, f)
		}
	}
	if err := pairfile.CheckOutputs(inFiles, outFiles); err != nil {
		return nil, err
	}
	p, err := plan(inputs)
	if err != nil {
		return nil, err
	}
	written, err := Write(ctx, claim, p, progress)
	if notice != nil {
		for _, n := range p.Notices {
			notice(n)
		}
	}
	return written, err
}
