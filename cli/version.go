package cli

import (
	"fmt"
	"runtime"

	"idxlabel/internal/version"
)

// versionLine is what idxlabel version prints: "idxlabel 0.1.0 (go1.26.0 linux/amd64)".
func versionLine() string {
	return fmt.Sprintf("idxlabel %s (%s %s/%s)", version.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// runVersion prints idxlabel's version (internal/version, FyneApp.toml's), the Go release it
// was built with and its platform, on stdout.
func runVersion(c *cli, args []string) error {
	if _, err := c.parse(c.flags("version"), args, 0, 0); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, versionLine())
	return nil
}
