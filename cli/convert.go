package cli

import (
	"fmt"
	"os"

	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
)

// runConvert re-encodes IN as OUT with the same dtype and dimensions, gzip-compressed when OUT
// ends in .gz, plain otherwise. The data streams through in chunks (bounded memory whatever the
// size) and IN is verified to its end before OUT is replaced. OUT is written atomically
// (atomicfile: temporary file beside it, fsync, rename), so it is never half-written and an
// existing OUT survives any failure. OUT must not be IN, and an existing OUT is replaced only
// with --force (claimOutputs' rule); it must be a regular file (a symbolic link is written
// through to its target). Temporary files of OUT left by a killed
// writer more than an hour ago are removed first.
func runConvert(c *cli, args []string) error {
	fs := c.flags("convert")
	force := fs.Bool("force", false, forceUsage)
	files, err := c.parse(fs, args, 2, 2)
	if err != nil {
		return err
	}
	in, out := files[0], files[1]
	claim, err := claimOutputs(files[:1], files[1:], *force, nil)
	if err != nil {
		return err
	}
	defer claim.Release()
	f, err := idx.OpenFile(in)
	if err != nil {
		return err
	}
	defer f.Close()
	atomicfile.RemoveStale(out, atomicfile.StaleAge)
	if err := idx.WriteStream(out, f.Header, f); err != nil {
		return err
	}
	fi, err := os.Stat(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%s: %s, %d bytes\n", out, f.Header, fi.Size())
	return nil
}
