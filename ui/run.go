package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"idxlabel/icons"
)

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
	default:
		w.open(args)
	}
	w.win.ShowAndRun()
	return nil
}
