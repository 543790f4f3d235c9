// Package annotators is the window's work with several annotators' labels of the open images
// (package annotate does the counting):
//
//   - File → Compare Annotations… (Compare): another label file of the open images is read
//     (pairfile.ReadLabelColumn: its header and every class checked, its count the dataset's)
//     and added as an annotator, read-only; each file chosen adds one more. The open labels are
//     annotator 0.
//   - Show → Disagreements (Mode): a review (ui/review) of every sample where the annotators
//     differ, each tile badged with every annotator's label ("3|5|5"); a digit adjudicates (the
//     open label becomes it: one undoable, journaled decision), Enter takes the majority where
//     there is one, → keeps the label. The status bar gives the raw agreement and Cohen's κ (two
//     annotators) or Fleiss' κ (three or more) with the samples they are over, made again off
//     the UI thread as the labels change; the detail panel each annotator's label of the sample
//     and its agreement and κ with the open labels as adjudicated. Beside the grid, the
//     confusion matrix of two annotators (the open labels and the first file, until another
//     pair is chosen above it), made with the figures; a click on a cell lists in the grid the
//     samples where the first gave its row's label and the second its column's, to adjudicate
//     as the rest; Every disagreement lists them all again.
//   - File → Export Errata… (Errata.Export): the open labels' corrections, of the labels as the
//     files were opened or of another label file, written as the errata file `idxlabel errata`
//     writes (annotate.Errata.WriteCSV), by the rule of every writer (pairfile.ClaimOutputs: an
//     existing file is replaced only once the person confirms).
//   - File → Apply Errata… (Errata.Apply): an errata file applied to the open labels as one
//     undoable step, each row only where its sample's pixels and old label match
//     (annotate.Apply); the rows left out are listed with their reasons.
//
// The package works with the window through mode.Controller, never the window or its
// controller, and imports neither ui nor another workflow's package (layers_test.go).
//
// Cost: a comparison holds 4 bytes a sample for each other annotator; its list of disagreements
// and their majorities are made once (O(N·k·log k), off the UI thread). Per key nothing grows
// with N: a decision is the review's; the figures and the pair's confusion matrix are made
// again off the UI thread, one computation at a time (O(N·k·log k + C²) each), the chart drawn
// once per new matrix (O(C²)); a click on a cell reads the N samples' labels once (O(N)). Errata hash the image file off the UI thread (32
// bytes a sample), with a progress bar and Cancel.
package annotators

import (
	"fmt"
	"path/filepath"

	"fyne.io/fyne/v2"

	"idxlabel/annotate"
	"idxlabel/idx"
	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
)

// Annotators is the window's comparison of annotators: File → Compare Annotations… (Compare),
// the Disagreements mode (Mode) and the errata (Errata).
type Annotators struct {
	c    mode.Controller
	jobs *jobs.Jobs
	d    *dialogs.Dialogs
	win  fyne.Window
	// Mode is the Disagreements mode; Errata exports and applies errata files.
	Mode   *Mode
	Errata *Errata
}

// New makes the annotators' work of the window whose controller is c, its jobs j, its dialogs d
// on win; the Disagreements mode shows its chart beside grid.
func New(c mode.Controller, j *jobs.Jobs, d *dialogs.Dialogs, win fyne.Window, grid fyne.CanvasObject) *Annotators {
	a := &Annotators{c: c, jobs: j, d: d, win: win}
	a.Mode = newMode(c, j, a.Compare, grid)
	a.Errata = &Errata{c: c, jobs: j, d: d, win: win}
	return a
}

// Compare is File → Compare Annotations…: a chooser for another annotator's label file of the
// open images, which Add reads and adds.
func (a *Annotators) Compare() {
	ds := a.c.State().DS
	if ds.Len() == 0 {
		a.d.Inform("Compare Annotations", "Open a dataset first: its labels are compared with another annotator's labels of the same images.")
		return
	}
	_, labels := ds.Paths()
	title := "Compare Annotations: Another Annotator's Labels"
	if a.Mode.Cmp != nil && a.Mode.Cmp.N == ds.Len() {
		title = fmt.Sprintf("Compare Annotations: a Label File to Add to the %d Annotators", len(a.Mode.Cmp.Names))
	}
	a.d.Choose(dialogs.Spec{Title: title, Confirm: "Compare", Purpose: dialogs.PurposeOpen, Filter: dialogs.IsIDXName, Kind: "IDX files",
		Start: filepath.Dir(labels)}, a.Add)
}

// Add reads the label file path off the UI thread and adds it as an annotator: to the
// comparison shown when there is one of these samples, else beside the open labels alone; then
// the Disagreements mode shows where they differ. A file that is not a label file, or labels
// another number of samples, is refused with an error naming it.
func (a *Annotators) Add(path string) {
	st := a.c.State()
	ds, n, resets := st.DS, st.DS.Len(), a.c.Resets()
	cmp := a.Mode.Cmp
	if cmp != nil && cmp.N != n {
		cmp = nil // samples added since: a comparison of these samples begins
	}
	openName := "the open labels"
	if _, labels := ds.Paths(); labels != "" {
		openName = clip.Name(labels)
	}
	job := a.jobs.Start(jobs.Checking, "Comparing "+clip.Name(path)+"…")
	a.c.Progress()
	gen := ds.Gen()
	a.jobs.Run(func() {
		res, figs, err := compareFile(ds, n, cmp, openName, path)
		a.jobs.Schedule(func() {
			cancelled := job.Ctx.Err() != nil
			a.jobs.Finish(job)
			a.c.Progress()
			switch {
			case cancelled:
				return
			case err != nil:
				a.d.ShowError(err)
				return
			case a.c.State().DS != ds || a.c.Resets() != resets:
				a.c.Say("The samples changed while " + clip.Name(path) + " was read: compare it again")
				return
			}
			a.Mode.set(res, figs, gen)
			if len(res.Order) == 0 {
				a.d.Inform("Compare Annotations", fmt.Sprintf("The %d annotators agree on every sample (%s).", len(res.Names), figs.Line()))
				return
			}
			a.c.Enter(a.Mode) // the status bar gives the figures, the legend the keys
		})
	})
}

// compareFile reads the label file path (one annotator's labels of the n samples of ds) and
// returns the comparison of the open labels with it, and with cmp's annotators when cmp is not
// nil. Errors: the file's (named), a count that is not n.
func compareFile(ds *store.Dataset, n int, cmp *Comparison, openName, path string) (*Comparison, Figures, error) {
	// The count first, from the header: a file of other samples is refused before its data is read.
	if h, err := idx.ReadHeaderFile(path); err == nil && h.Rank() > 0 && h.Dims[0] != n {
		return nil, Figures{}, countError(path, h.Dims[0], n)
	}
	_, col, err := pairfile.ReadLabelColumn(path)
	if err != nil {
		return nil, Figures{}, err
	}
	if len(col) != n {
		return nil, Figures{}, countError(path, len(col), n)
	}
	open := openLabels(ds, n)
	if cmp != nil {
		return cmp.With(open, annotate.Column{Name: nameFor(cmp.Names, path), Labels: col})
	}
	return Compare(open, openName, []annotate.Column{{Name: nameFor([]string{openName}, path), Labels: col}})
}

// countError says that the label file path labels m samples, not the open dataset's n.
func countError(path string, m, n int) error {
	return fmt.Errorf("%s has %s, but the open dataset has %s: an annotator's labels must label the same images",
		path, numfmt.Plural(m, "label"), numfmt.Plural(n, "sample"))
}
