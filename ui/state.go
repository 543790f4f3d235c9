package ui

import (
	"slices"

	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
	"idxlabel/ui/widgets"
)

// state is the application's state: the dataset being edited and what the window shows of it.
// The controller holds it and is the only one to change it; the methods here read it and make
// what each view shows. None of them grows with the number of samples: the counts come from the
// store's tally, a mode's progress from the view model, the class names are made once a change.
type state struct {
	ds      *store.Dataset
	name    string      // shown in the title: the label (or image) file's name, or "demo"
	demo    bool        // a generated dataset: closing it loses nothing the user made
	mode    mode.Mode   // the mode shown
	modes   []mode.Mode // the modes the Show list offers, in its order (newWindow's table)
	v       *view       // the view model: order, cursor, selection, filter
	classes classes.Names
	resets  int        // Resets that renumbered the samples (a save that left some out, a replay): a scan started before is stale
	jobs    *jobs.Jobs // the job state: what runs in the background, and whether edits wait
	// in are the inputs that wait for a job holding edits, oldest first (held.go).
	in inputs
	// said is the message the status bar says in place of statusText while it holds (said.go);
	// entered counts the modes entered or chosen (controller.enter, choose), which end it.
	said    said
	entered int
}

// nothingOpen names the empty dataset the window starts with.
const nothingOpen = "nothing open"

// modeState is what a mode reads of the state now (mode.State).
func (s *state) modeState() mode.State {
	return mode.State{DS: s.ds, View: s.v, Classes: s.classes}
}

// title is the window's title: "IDX Labeler — t10k-labels-idx1-ubyte.gz *" (the star: unsaved).
func (s *state) title() string {
	t := Title + " — " + s.name
	if s.ds.Dirty() {
		t += " *"
	}
	return t
}

// banner is the line above the grid: on the demo, what it is and how to open one's own files;
// "" otherwise (no line).
func (s *state) banner() string {
	if !s.demo {
		return ""
	}
	return "This is the demo: digits drawn from the Go fonts, a few labelled wrong on purpose (Ctrl+K finds them). " +
		"Your own IDX files: File → Open… (Ctrl+O), or drop them on the window; File → New Dataset… (Ctrl+N) starts an empty one."
}

// sideState is what the side panel shows.
func (s *state) sideState() sideState {
	return sideState{mode: s.mode, filter: s.v.filter, counts: histogram(s.ds.Counts(), s.classes.Digits), total: s.ds.Len()}
}

// histogram is the side panel's class list: every class of the dataset with its count (zero
// counts included, store.Dataset.Counts), and, when the classes are digits (none yet, or all
// 0–9: the digit keys label them), every digit 0–9, so that a class nobody labelled yet can be
// clicked too. O(classes).
func histogram(counts []store.ClassCount, digits bool) []store.ClassCount {
	if !digits {
		return counts
	}
	have := map[int]bool{}
	for _, cc := range counts {
		have[cc.Class] = true
	}
	out := counts
	for d := range 10 {
		if !have[d] {
			out = append(out, store.ClassCount{Class: d})
		}
	}
	slices.SortStableFunc(out, func(a, b store.ClassCount) int { return a.Class - b.Class })
	return out
}

// gridFrame is what the grid draws (gridsource.go); nil before a dataset is set.
func (s *state) gridFrame() widgets.TileSource {
	if s.ds == nil {
		return nil
	}
	return gridFrame{ds: s.ds, v: s.v, marks: tileMarks{classes: s.classes, verdicts: mode.Marks(s.mode)}}
}

// legend is the keys that act now: on a dataset without samples, those that bring some; while
// the grid shows no sample, that the keys that edit change nothing, and why (as a key typed then
// says: controller.nothingShown).
func (s *state) legend() []mode.Key {
	switch {
	case s.ds.ReadOnly():
		return readOnlyKeys
	case s.ds.Len() == 0:
		return emptyKeys
	case s.v.Len() == 0:
		return mode.NothingShownKeys(s.nothingShownWhy())
	}
	return s.mode.Legend(s.classes.Digits)
}

// position says where the cursor is (see positionText) and, for a sample imported from a file,
// which file (sourceNote).
func (s *state) position() string {
	i := s.v.Current()
	src, _ := s.ds.SourceAt(s.v.gen, i)
	return positionText(i, s.v.cursor, s.v.Len(), s.ds.Len()) + sourceNote(src)
}

// detailOf gathers what the detail panel shows of sample i.
func (s *state) detailOf(i int) detailState {
	st, px, ok := s.ds.SampleAt(s.v.gen, i)
	if !ok {
		return detailState{i: -1}
	}
	h, w := s.ds.Size()
	images, _ := s.ds.Paths()
	src, _ := s.ds.SourceAt(s.v.gen, i)
	return detailState{i: i, st: st, px: sample.Upright(px, h, w, s.ds.Transposed(), nil), h: h, w: w,
		fromFile: images != "", source: src, classes: s.classes, about: mode.Describe(s.mode, s.modeState(), i)}
}

// statusText is the status bar: the files and whether they are saved or read-only (first: when
// the window is narrow the line's end is cut), the counts, the selection and the mode's progress
// (the jobs' progress beside it: progressText).
func (s *state) statusText() string {
	n := s.ds.Counters()
	images, labels := s.ds.Paths()
	files := "not saved yet"
	if s.name == nothingOpen {
		files = nothingOpen
	}
	if images != "" {
		files = clip.Name(images)
		if labels != "" {
			files += " + " + clip.Name(labels)
		}
	}
	if s.ds.Dirty() {
		files += "  ● unsaved"
	}
	if s.ds.ReadOnly() {
		files += "  (read-only)"
	}
	text := files + "   |   " + numfmt.Plural(n.Samples, "sample") + numfmt.Sprintf(", %d shown   |   %d edited, %d added, %d deleted", s.v.Len(), n.Edited, n.Added, n.Deleted)
	if k := s.v.SelectionSize(); k > 1 {
		text += numfmt.Sprintf("   |   %d selected", k)
	}
	return text + mode.Status(s.mode, s.modeState())
}

// progressText is the progress of the jobs running, shown at the status bar's right in full
// ("CNN scan: model 2/6, epoch 9/14, 12s left"), and the inputs that wait for one: "" when none
// runs.
func (s *state) progressText() string {
	text := s.jobs.Status()
	if h := s.in.text(); h != "" {
		if text != "" {
			text += " — "
		}
		text += h
	}
	return text
}
