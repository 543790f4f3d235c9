package ui

import "fyne.io/fyne/v2"

// builders are the window's dataset-building workflows: File → Append Dataset… (appender),
// File → Save Shown As… (shownSaver).
type builders struct {
	app   *appender
	shown *shownSaver
}

func newBuilders(c *controller, d *dialogs, win fyne.Window) builders {
	return builders{app: &appender{c: c, d: d, win: win}, shown: &shownSaver{c: c, d: d, win: win}}
}
