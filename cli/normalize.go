package cli

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"

	"idxlabel/internal/atomicfile"
	"idxlabel/normalize"
)

// normalizeFlags are the options normalize and import share.
type normalizeFlags struct {
	center    string
	ink       string
	threshold int
}

func (n *normalizeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&n.center, "center", "mass", "centring: mass (MNIST's centre of mass) or box (bounding box)")
	fs.StringVar(&n.ink, "ink", "auto", "which pixels are ink: auto, light (light on dark) or dark (dark on light)")
	fs.IntVar(&n.threshold, "threshold", 0, "ink ≥ this grey level (1–255) is ink, the rest ground; 0 chooses it from each image (Otsu's method)")
}

func (n *normalizeFlags) options() (normalize.Options, error) {
	c, err := normalize.ParseCentering(n.center)
	if err != nil {
		return normalize.Options{}, usagef("%v", err)
	}
	p, err := normalize.ParsePolarity(n.ink)
	if err != nil {
		return normalize.Options{}, usagef("--%v", err)
	}
	if n.threshold < 0 || n.threshold > 255 {
		return normalize.Options{}, usagef("--threshold %d: expected 0–255", n.threshold)
	}
	return normalize.Options{Centering: c, Polarity: p, Threshold: n.threshold}, nil
}

// runNormalize turns one image (PNG or JPEG) into a 28×28 MNIST-style PNG by MNIST's
// preprocessing (normalize.Digit). IN must be a regular file of at most normalize.MaxPixels.
// OUT is written atomically (atomicfile: temporary file, fsync, rename; stale temporary files
// of OUT are removed first); it must not be IN, an existing OUT is replaced only with --force
// (claimOutputs' rule), and it must be a regular file (a symbolic link is written through).
func runNormalize(c *cli, args []string) error {
	fs := c.flags("normalize")
	var nf normalizeFlags
	nf.register(fs)
	force := fs.Bool("force", false, forceUsage)
	files, err := c.parse(fs, args, 2, 2)
	if err != nil {
		return err
	}
	opts, err := nf.options()
	if err != nil {
		return err
	}
	claim, err := claimOutputs(files[:1], files[1:], *force, nil)
	if err != nil {
		return err
	}
	defer claim.Release()
	pix, err := normalize.LoadFile(files[0], opts, true)
	if err != nil {
		return err
	}
	g := image.NewGray(image.Rect(0, 0, normalize.FieldSize, normalize.FieldSize))
	copy(g.Pix, pix)
	atomicfile.RemoveStale(files[1], atomicfile.StaleAge)
	if err := atomicfile.WriteFile(files[1], func(w io.Writer) error { return png.Encode(w, g) }); err != nil {
		return err
	}
	row, col, _ := normalize.CenterOfMass(g)
	box, _ := normalize.BoundingBox(g)
	fmt.Fprintf(c.stdout, "%s: 28×28, ink box %d×%d px, centre of mass (%.2f, %.2f)\n", files[1], box.Dx(), box.Dy(), row, col)
	return nil
}
