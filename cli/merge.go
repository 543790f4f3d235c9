package cli

import "idxlabel/builder"

// runMerge appends pairs in the order given into one pair (builder.Merge): the images must have
// the same rank, height and width and a dtype one of them holds (refused naming the file, exit
// 1, nothing written); label dtypes are widened as needed; the class-name files are merged by
// name. The outputs are written as buildRun writes them.
func runMerge(c *cli, args []string) error {
	fs := c.flags("merge")
	force := fs.Bool("force", false, "replace output files that exist (never a pair whose journal holds unsaved edits)")
	files, err := c.parse(fs, args, 6, -1)
	if err != nil {
		return err
	}
	if len(files)%2 != 0 {
		return usagef("merge: %d files given; expected pairs IMAGES LABELS, then OUT_IMAGES OUT_LABELS", len(files))
	}
	var in []builder.Pair
	for k := 0; k < len(files)-2; k += 2 {
		in = append(in, builder.Pair{Images: files[k], Labels: files[k+1]})
	}
	out := builder.Pair{Images: files[len(files)-2], Labels: files[len(files)-1]}
	return c.buildRun(in, []builder.Pair{out}, *force, func(inputs []*builder.Input) (*builder.Plan, func(), error) {
		p, err := builder.Merge(inputs, out)
		return p, nil, err
	})
}
