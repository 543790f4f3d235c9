// Package sheets is the window's File → Import Sheets…: scanned or photographed sheets of
// handwritten digits (a grid of ruled boxes, one digit a box, read by package idxlabel/sheets as
// `idxlabel import-sheets` reads them) added to the dataset. The dialog lists the sheets, each
// with the boxes found, filled, empty and flagged or why its grid was not found, and shows the
// sheet chosen with the boxes found and their labels drawn over it, so a wrong layout is seen
// before anything is added; the sheets are read off the UI thread (survey). Import reads every
// sheet in a job with its progress and Cancel and adds the samples as one undoable step after the
// inputs typed meanwhile (package adding, as File → Import Images… adds), badged as added.
//
// Each sample's writer (the sheet's number in reading order, or the first number in its file
// name) is kept in its source, "sheet-03.jpg row 4, column 7, writer 2", which the detail panel
// shows and a save writes beside the labels (pairfile.SourcesFile): the window's dataset has one
// label column, and the writer is not a class. `idxlabel import-sheets` writes it as a second
// label column (N×2, as QMNIST) for `split --group-column 1`.
//
// The workflow works with the window through Host, never with the window or its controller; it
// imports neither ui nor another workflow's package (layers_test.go).
package sheets

import (
	"fmt"
	"path/filepath"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	sheetread "idxlabel/sheets"
	"idxlabel/store"
	"idxlabel/ui/adding"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/testhook"
	"idxlabel/ui/widgets"
)

// Host is what Import Sheets asks of the window's controller, on the UI thread: what adding
// samples asks (adding.Host), the dataset's name, and starting a new dataset.
type Host interface {
	adding.Host
	// Name is the name the window shows the dataset by ("" when nothing is open); Demo says the
	// dataset is the demo.
	Name() string
	Demo() bool
	// StartNew asks about the open dataset's unsaved edits, then replaces it by a new, empty
	// dataset of h×w samples with classes and names (as File → New Dataset… starts one) and runs
	// then with it; nothing when the person cancels.
	StartNew(h, w int, classes []int, names map[int]string, then func(*store.Dataset))
}

// Importer is File → Import Sheets…: its dialog (Dialog), and the import it starts.
type Importer struct {
	h    Host
	jobs *jobs.Jobs
	d    *dialogs.Dialogs
	win  fyne.Window
}

// New makes the importer for the window win: it acts through h, runs its work as jobs of j, and
// asks its questions through d.
func New(h Host, j *jobs.Jobs, d *dialogs.Dialogs, win fyne.Window) *Importer {
	return &Importer{h: h, jobs: j, d: d, win: win}
}

// newSize is the sample size of a dataset the import starts: MNIST's.
const newSize = 28

// Dialog asks for a folder of sheets, then shows the sheets dialog (Show).
func (m *Importer) Dialog() {
	if m.h.CannotEdit() {
		return // read-only, or a job holds edits: the status bar says so
	}
	images, _ := m.h.State().DS.Paths()
	m.d.Choose(dialogs.Spec{Title: "Import Sheets: the folder of sheets", Confirm: "Choose", Purpose: dialogs.PurposeImport, Folder: true,
		Filter: isSheet, Kind: "sheet image", Start: filepath.Dir(images)}, func(dir string) { m.Show([]string{dir}) })
}

// plan is an import the person confirmed.
type plan struct {
	args   []string // the folders and files given
	srcs   []sheetread.Source
	layout *sheetread.Layout
	fresh  bool // into a new dataset
}

// start runs p: into a new dataset of MNIST's size whose classes are the layout's labels
// (started first, after the question about the open one's unsaved edits), or into the open one.
func (m *Importer) start(p plan) {
	if !p.fresh {
		m.run(m.h.State().DS, p)
		return
	}
	m.h.StartNew(newSize, newSize, layoutClasses(p.layout), nil, func(ds *store.Dataset) { m.run(ds, p) })
}

// layoutClasses are the labels l gives its boxes, ascending, once each.
func layoutClasses(l *sheetread.Layout) []int {
	var out []int
	for _, v := range l.Labels {
		if v != sheetread.Skip {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// run reads p's sheets into samples of ds's size off the UI thread (sheets.ReadAll, one page at
// a time) with a progress bar and Cancel, then adds them as one undoable step after the inputs
// typed meanwhile (adding.AfterInputs), each with its sheet, box and writer as its source, and
// reports every sheet. Memory: one page at a time and the samples, H×W bytes each.
func (m *Importer) run(ds *store.Dataset, p plan) {
	if m.h.CannotEdit() {
		return
	}
	h, w := ds.Size()
	o := sheetread.Options{Width: w, Height: h}
	n := len(p.srcs)
	pj := adding.Start(m.jobs, m.d, m.win, numfmt.Sprintf("Importing %d sheets", n), "Reading "+clip.Name(p.srcs[0].Path)+"…", false)
	m.jobs.Run(func() {
		b, err := sheetread.ReadAll(pj.Job.Ctx, p.srcs, p.layout, o, func(k int, _ sheetread.Report, _ *sheetread.Sheet) {
			next := numfmt.Sprintf("Read all %d sheets", n)
			if k+1 < n {
				next = "Reading " + clip.Name(p.srcs[k+1].Path) + "…"
			}
			m.jobs.Schedule(func() { pj.Set(next, float64(k+1)/float64(n)) })
		})
		testhook.WaitGate(pj.Job.Ctx, testhook.ImportGate) // a test's hook; nothing otherwise
		var samples []store.Sample
		if err == nil {
			samples = samplesOf(b, p.args)
		}
		m.jobs.Schedule(func() {
			if pj.End() {
				m.h.Say("Import cancelled: nothing was added")
				return
			}
			if err != nil {
				m.d.ShowError(err)
				return
			}
			if len(samples) == 0 {
				m.report(b)
				return
			}
			adding.AfterInputs(m.h, ds, store.HowAddedImported, adding.Addition{Samples: samples}, func(int) { m.report(b) })
		})
	})
}

// samplesOf makes b's samples store samples: their pixels, labels, and sources (sheet, box and
// writer, named within args). The pixels are b's, not copied.
func samplesOf(b *sheetread.Batch, args []string) []store.Sample {
	src := b.Sources(args, true)
	hw := b.Width * b.Height
	out := make([]store.Sample, b.N())
	for i := range out {
		out[i] = store.Sample{Pixels: b.Pixels[i*hw : (i+1)*hw : (i+1)*hw], Label: b.Labels[i], Source: src[i]}
	}
	return out
}

// report says how many samples came in from how many sheets, and lists every sheet with what was
// found on it (each flagged box below it) or why nothing was taken (a list lays out only the rows
// in sight). Enter or Escape
// closes it.
func (m *Importer) report(b *sheetread.Batch) {
	read := 0
	var lines []string
	for _, r := range b.Reports {
		if r.Err == nil {
			read++
		}
		line := sheetLine(r)
		if r.Err != nil {
			line += " (no sample taken)"
		}
		lines = append(lines, line)
		for _, f := range r.Flagged {
			lines = append(lines, "    "+clip.Name(r.Path)+": "+f+" (not imported)")
		}
	}
	text := fmt.Sprintf("Added %s from %d of %s (undo removes them all). Each sample's source names its sheet, box and writer.",
		numfmt.Plural(b.N(), "sample"), read, numfmt.Plural(len(b.Reports), "sheet"))
	if b.N() == 0 {
		text = fmt.Sprintf("No sample taken from %s: nothing was added.", numfmt.Plural(len(b.Reports), "sheet"))
	}
	m.h.Say(text)
	head := widget.NewLabel(text)
	head.Wrapping = fyne.TextWrapWord
	list := widgets.NewDialogList(func() int { return len(lines) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(lines[id]) })
	width := min(m.win.Canvas().Size().Width-80, 900)
	row := widget.NewLabel("X").MinSize().Height
	content := widgets.NewFixedBorder(head, list, fyne.NewSize(width, row*float32(min(len(lines), 12)+3)))
	d := dialogs.NewMessage("Import Sheets", "OK", content, m.win)
	m.d.Show("sheets report", d, d.Hide, nil, nil)
}
