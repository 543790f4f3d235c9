package ui

import "fyne.io/fyne/v2"

// AppID is the application's identifier (FyneApp.toml), which names its preferences.
const AppID = "org.idxlabel.app"

// Run builds the main window in win (made by main with a, the application) and gives it the
// files named, IMAGES [LABELS] (the labels found beside the images when omitted), or the demo
// dataset when there are none. The caller shows the window and runs the application.
func Run(a fyne.App, win fyne.Window, args []string) {
	w := newWindow(a, win)
	applyTestHooks(w)
	switch len(args) {
	case 0:
		w.files.openDemo()
		w.files.offerUnsavedRecovery()
	default:
		w.files.open(args)
	}
}
