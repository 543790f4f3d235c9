package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"

	"idxlabel/builder"
	"idxlabel/internal/numfmt"
	"idxlabel/pairfile"
)

// buildRun is what merge, split and subset share: outputs claimed (an existing output is refused
// unless force, and even with force when it belongs to a pair a window holds or whose journal
// holds unsaved edits), inputs opened, a plan made from the inputs and written (builder.Build;
// an output that is an input is a usage error) with progress on stderr once the work has
// taken c.progressAfter (progressLine), Ctrl+C cancelling it before any output is replaced (exit 130), and one line
// on stdout for each pair written (with its class-name file and, when it carries any, how many
// of its labels are accepted suggestions, kept in its accepted-marks file). plan returns, with
// the plan, its report (nil for none: subset's "10 of 10000 samples kept"), which runs only
// once every output is written: a command never tells of outputs it then fails to write.
func (c *cli) buildRun(in []builder.Pair, out []builder.Pair, force bool, plan func([]*builder.Input) (*builder.Plan, func(), error)) error {
	var report func()
	plans := func(inputs []*builder.Input) (*builder.Plan, error) {
		p, r, err := plan(inputs)
		report = r
		return p, err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bar := c.progress()
	written, err := builder.Build(ctx, in, out, force, plans, func(n string) {
		fmt.Fprintf(c.stderr, "idxlabel: %s\n", n)
	}, func(file string, done, total int) {
		bar.show(done == total, "%s: writing %s: %d of %d samples read", c.cmd.name, file, done, total)
	})
	bar.end()
	var oe *pairfile.OutputError
	if errors.As(err, &oe) {
		return usagef("%v", err) // an output that is an input: the command line was wrong
	}
	if err != nil {
		return err
	}
	if report != nil {
		report()
	}
	for _, w := range written {
		fmt.Fprintf(c.stdout, "%s, %s: %d samples (images %s, labels %s)", w.Out.Images, w.Out.Labels, w.Images.Dims[0], w.Images, w.Labels)
		if w.NamesFile != "" {
			fmt.Fprintf(c.stdout, "; class names in %s", w.NamesFile)
		}
		if w.Accepted > 0 {
			fmt.Fprintf(c.stdout, "; %s (pseudo-labels) marked in %s", numfmt.Plural(w.Accepted, "accepted suggestion"), w.AcceptedFile)
		}
		fmt.Fprintln(c.stdout)
		switch {
		case w.NamesShadowed != "" && w.NamesFile != "":
			fmt.Fprintf(c.stderr, "idxlabel: %s: idxlabel reads the class names of %s from this file, not from %s; remove or rename it\n", w.NamesShadowed, w.Out.Labels, w.NamesFile)
		case w.NamesShadowed != "":
			fmt.Fprintf(c.stderr, "idxlabel: %s: idxlabel reads the class names of %s from this file, which was there before; remove or rename it if it does not name these classes\n", w.NamesShadowed, w.Out.Labels)
		}
	}
	return nil
}
