package ui

import (
	"fmt"
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"idxlabel/icons"
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

// Run opens the main window and runs until it is closed. With no arguments it shows the demo
// dataset; with IMAGES [LABELS] it opens that pair (the labels found beside the images when
// omitted). It returns when the window closes.
func Run(args []string) error {
	a := app.NewWithID(AppID)
	a.SetIcon(fyne.NewStaticResource("icon.png", icons.IconPNG))
	w := newMainWindow(a)
	switch len(args) {
	case 0:
		w.openDemo()
		w.offerUnsavedRecovery()
	default:
		w.open(args)
	}
	fitScreen(w.win)
	w.win.ShowAndRun()
	return nil
}
