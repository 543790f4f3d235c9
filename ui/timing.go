//go:build timing

package ui

import (
	"fmt"
	"os"
	"time"

	"fyne.io/fyne/v2"
)

// Built with -tags timing (bench/gui.sh, make savelat), the window prints to stderr how long the
// first tiles took to appear (bench/gui.sh reads it) and when the grid has handled each key
// (scripts/savelat.sh reads them). Other builds have no-ops in their place (timing_off.go).

// started is when the process began showing the UI.
var (
	started  = time.Now()
	reported bool
)

// reportFirstTiles prints, once, how long the first dataset of n samples took to appear.
func reportFirstTiles(n int) {
	if reported {
		return
	}
	reported = true
	fmt.Fprintf(os.Stderr, "idxlabel: first tiles of %d samples after %d ms\n", n, time.Since(started).Milliseconds())
}

// reportKey prints when the grid had handled key name, whatever it did with the key (for an
// arrow: the cursor moved and the redraw asked for), in Unix time, nanoseconds.
func reportKey(name fyne.KeyName) {
	fmt.Fprintf(os.Stderr, "idxlabel: key %s handled at %d\n", name, time.Now().UnixNano())
}
