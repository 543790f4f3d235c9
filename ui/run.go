package ui

import (
	"fmt"
	"os"
	"time"

	"fyne.io/fyne/v2"
)

// started is when the process began showing the UI; with IDXLABEL_TIMING=1 in the environment
// the time to the first tiles is printed to stderr (bench/gui.sh reads it).
var started = time.Now()

// reportFirstTiles prints, once, how long the first dataset took to appear.
func reportFirstTiles(n int) {
	if os.Getenv("IDXLABEL_TIMING") == "" || reported {
		return
	}
	reported = true
	fmt.Fprintf(os.Stderr, "idxlabel: first tiles of %d samples after %d ms\n", n, time.Since(started).Milliseconds())
}

var reported bool

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
