// Command idxlabel ("IDX Labeler") opens, corrects, extends and writes IDX datasets, the MNIST
// file format. With a sub-command it runs on the command line (package cli); otherwise it opens
// the GUI (package ui) on the files named, or on a demo dataset.
package main

import (
	"errors"
	"os"
	"runtime"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"idxlabel/cli"
	"idxlabel/icons"
	"idxlabel/ui"
	"idxlabel/ui/platform"
)

func main() { os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr, openGUI)) }

// errNoDisplay: the GUI was asked for where there is no display to open a window on.
var errNoDisplay = errors.New("no display (DISPLAY is not set); the sub-commands work without one")

// openGUI creates the application and its window and hands them to ui, which shows the files
// named (IMAGES [LABELS]) or the demo dataset and runs until the window closes. On X11/Wayland
// systems it first checks that there is a display, since GLFW would panic without one.
// Errors: errNoDisplay.
func openGUI(args []string) error {
	if needsDisplay() && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return errNoDisplay
	}
	a := app.NewWithID(ui.AppID)
	a.SetIcon(fyne.NewStaticResource("icon.png", icons.IconPNG))
	win := a.NewWindow(ui.Title)
	ui.Run(a, win, args)
	platform.FitScreen(win)
	win.ShowAndRun()
	return nil
}

// needsDisplay reports whether windows need an X11 or Wayland display here (not on macOS or
// Windows).
func needsDisplay() bool {
	switch runtime.GOOS {
	case "darwin", "windows", "ios", "android", "js":
		return false
	}
	return true
}
