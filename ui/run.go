package ui

import (
	"fmt"
	"os"
	"time"

	"fyne.io/fyne/v2"
)

// started is when the process began showing the UI. With IDXLABEL_TIMING=1 in the environment
// the time to the first tiles (bench/gui.sh reads it) and the moment each key has been handled
// by the grid (scripts/savelat.sh reads them) are printed to stderr.
var (
	started  = time.Now()
	timing   = os.Getenv("IDXLABEL_TIMING") != ""
	reported bool
)

// reportFirstTiles prints, once, how long the first dataset took to appear.
func reportFirstTiles(n int) {
	if !timing || reported {
		return
	}
	reported = true
	fmt.Fprintf(os.Stderr, "idxlabel: first tiles of %d samples after %d ms\n", n, time.Since(started).Milliseconds())
}

// reportKey prints when the grid's TypedKey returned for key name, whatever it did with the key
// (for an arrow: the cursor moved and the redraw asked for), in Unix time, nanoseconds.
func reportKey(name fyne.KeyName) {
	if timing {
		fmt.Fprintf(os.Stderr, "idxlabel: key %s handled at %d\n", name, time.Now().UnixNano())
	}
}

// AppID is the application's identifier (FyneApp.toml), which names its preferences.
const AppID = "org.idxlabel.app"

// Run builds the main window in win (made by main with a, the application) and gives it the
// files named, IMAGES [LABELS] (the labels found beside the images when omitted), or the demo
// dataset when there are none. The caller shows the window and runs the application.
func Run(a fyne.App, win fyne.Window, args []string) {
	w := newMainWindow(a, win)
	switch len(args) {
	case 0:
		w.openDemo()
		w.offerUnsavedRecovery()
	default:
		w.open(args)
	}
}
