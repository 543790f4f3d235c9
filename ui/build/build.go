// Package build is the window's dataset-building workflows: File → Import Images… (Importer),
// File → Append Dataset… (Appender), File → Save Shown As… (ShownSaver), Tools → Split
// Dataset… (Splitter) and Edit → Class Names… (ClassNamer). Each is a dialog, then a job off the
// UI thread (ui/jobs) with its progress and Cancel, then one undoable step of the store or files
// written beside the dataset. A workflow works with the window through Host, never with the
// window or its controller; it lives here, which imports neither ui nor a mode's package
// (layers_test.go).
package build

import (
	"fyne.io/fyne/v2"

	"idxlabel/store"
	"idxlabel/ui/adding"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
)

// Host is what the workflows ask of the window's controller, on the UI thread: what adding
// samples asks (adding.Host: the state, the status bar, the inputs' order, the add), and more.
type Host interface {
	adding.Host
	// Name is the name the window shows the dataset by ("" when nothing is open: the empty
	// dataset the window starts with); Demo says the dataset is the demo.
	Name() string
	Demo() bool
	// Input runs f as an input of the person's (a dialog's answer): now, or after the inputs
	// that wait for a job.
	Input(f func())
	// StartNew asks about the open dataset's unsaved edits, then replaces it by a new, empty
	// dataset of h×w samples with classes and names (as File → New Dataset… starts one) and runs
	// then with it; nothing when the person cancels.
	StartNew(h, w int, classes []int, names map[int]string, then func(*store.Dataset))
	// Save saves the dataset over its files (as File → Save), then runs then; Open opens files
	// as File → Open does.
	Save(then func())
	Open(paths []string)
}

// Workflows are the window's building workflows, each one's dialog its entry point (Dialog).
type Workflows struct {
	Import *Importer
	Append *Appender
	Shown  *ShownSaver
	Split  *Splitter
	Names  *ClassNamer
}

// New builds the workflows for the window win: they act through h, run their work as jobs of j,
// and ask their questions through d.
func New(h Host, j *jobs.Jobs, d *dialogs.Dialogs, win fyne.Window) Workflows {
	b := base{h: h, jobs: j, d: d, win: win}
	return Workflows{Import: &Importer{b}, Append: &Appender{b}, Shown: &ShownSaver{b}, Split: &Splitter{b}, Names: &ClassNamer{b}}
}

// base is what every workflow works with.
type base struct {
	h    Host
	jobs *jobs.Jobs
	d    *dialogs.Dialogs
	win  fyne.Window
}

// ds is the window's dataset.
func (b base) ds() *store.Dataset { return b.h.State().DS }
