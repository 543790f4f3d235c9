package main

import (
	"fmt"
	"os"

	"idxlabel/idx"
)

// runConvert decodes IN and writes the same dtype and dimensions to OUT, gzip-compressed when
// OUT ends in .gz, plain otherwise. OUT is written atomically (temporary file in its folder,
// fsync, rename), so it is never half-written and an existing OUT survives any failure.
func runConvert(c *cli, args []string) error {
	files, err := c.parse(c.flags("convert"), args, 2, 2)
	if err != nil {
		return err
	}
	in, out := files[0], files[1]
	a, err := idx.ReadFile(in)
	if err != nil {
		return err
	}
	if err := idx.WriteFile(out, a); err != nil {
		return err
	}
	fi, err := os.Stat(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "%s: %s, %d bytes\n", out, a.Header, fi.Size())
	return nil
}
