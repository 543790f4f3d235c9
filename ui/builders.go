package ui

import (
	"idxlabel/ui/dialogs"

	"fyne.io/fyne/v2"
)

// builders are the window's dataset-building workflows: File → Append Dataset… (appender),
// File → Save Shown As… (shownSaver), Tools → Split Dataset… (splitter), Edit → Class Names…
// (classNamer).
type builders struct {
	app   *appender
	shown *shownSaver
	split *splitter
	names *classNamer
}

// newBuilders builds them for the window: save saves the dataset over its files and then runs
// then; open opens files as File → Open does.
func newBuilders(c *controller, d *dialogs.Dialogs, win fyne.Window, save func(then func()), open func(paths []string)) builders {
	return builders{
		app:   &appender{c: c, d: d, win: win},
		shown: &shownSaver{c: c, d: d, win: win},
		split: &splitter{c: c, d: d, win: win, save: save, open: open},
		names: &classNamer{c: c, d: d, win: win},
	}
}
