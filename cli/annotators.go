package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"idxlabel/annotate"
	"idxlabel/builder"
	"idxlabel/idx"
	"idxlabel/pairfile"
)

// What agree, errata and apply-errata share: reading a label file as one annotator's column,
// hashing an image file, and their exit status for a failure.

// readLabelColumn is pairfile.ReadLabelColumn: the label file name as one annotator's column.
func readLabelColumn(name string) (*idx.Array, []int32, error) { return pairfile.ReadLabelColumn(name) }

// hashImageFile streams the image file name (pairfile.OpenImages) and returns its digests and
// header. Errors name the file.
func hashImageFile(ctx context.Context, name string) (*annotate.ImageHashes, idx.Header, error) {
	f, err := pairfile.OpenImages(name)
	if err != nil {
		return nil, idx.Header{}, err
	}
	defer f.Close()
	h, err := annotate.HashImages(ctx, f.Header, f)
	if err != nil {
		return nil, idx.Header{}, fmt.Errorf("%s: %w", name, err)
	}
	return h, f.Header, nil
}

// failure is the exit status 2 of agree, errata and apply-errata for anything that stopped them
// (a file that cannot be read or is not what it should be, an output refused), since their
// status 1 says what they found (annotators disagree, a row was left out). The message is the
// one every command prints, with its advice ("use --force"); an interrupt stays an interrupt
// (status 130) and errReported stays status 1.
func failure(err error) error {
	var ue usageError
	if err == nil || err == errReported || err == errHelpShown || errors.Is(err, context.Canceled) || errors.As(err, &ue) {
		return err
	}
	return usageError{describe(err) + advice(err)}
}

// annotatorNames returns the names agree gives its files: their base names, or the paths as
// given when two base names are the same.
func annotatorNames(files []string) []string {
	names := make([]string, len(files))
	seen := map[string]bool{}
	clash := false
	for i, f := range files {
		names[i] = filepath.Base(f)
		clash = clash || seen[names[i]]
		seen[names[i]] = true
	}
	if clash {
		copy(names, files)
	}
	return names
}

// plural writes a count with its noun, in the singular for 1: "1 row", "50 rows".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// namesFileFor is the class-name file a writer puts beside an output label file (the
// builder's rule, builder.NamesFileFor): claimed with the label file, since one left from
// before would name the new classes.
func namesFileFor(labels string) string { return builder.NamesFileFor(labels) }

// findNames returns the class names of the first of labels that has a class-name file beside
// it (pairfile.FindClassNames), and that file; a class-name file that cannot be read is said on
// stderr and left out, as the builder does.
func (c *cli) findNames(labels ...string) (map[int]string, string) {
	for _, l := range labels {
		names, file, err := pairfile.FindClassNames(l)
		if err != nil {
			fmt.Fprintf(c.stderr, "idxlabel: %v (class names left out)\n", err)
			continue
		}
		if file != "" {
			return names, file
		}
	}
	return nil, ""
}

// keepNames writes names beside the output label file out (namesFileFor), or removes a
// class-name file left there when there are none, as the builder does (builder.Write); it says
// on stderr when another class-name file beside out would be read instead. Errors: writing or
// removing the file.
func (c *cli) keepNames(out string, names map[int]string) error {
	target := namesFileFor(out)
	if len(names) > 0 {
		if err := pairfile.WriteClassNames(target, names); err != nil {
			return err
		}
	} else if err := os.Remove(target); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if _, found, _ := pairfile.FindClassNames(out); found != "" && found != target {
		fmt.Fprintf(c.stderr, "idxlabel: %s: idxlabel reads the class names of %s from this file; remove or rename it if it does not name these classes\n", found, out)
	}
	return nil
}
