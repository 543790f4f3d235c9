package build

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"idxlabel/builder"
	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/pairfile"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/testhook"
	"idxlabel/ui/widgets"
)

// Splitter is Tools → Split Dataset…: the open pair's saved files split into a train and a test
// pair beside them, as `idxlabel split` splits them (builder.Build with builder.Split: every
// sample once, stratified within one sample of the fraction, the same seed the same files). It
// splits the files on disk, not the samples in memory: with unsaved edits it asks to save them
// first, so that what is split is what the window shows. Once written it offers to open one of
// the two pairs.
type Splitter struct{ base }

// Dialog asks to save unsaved edits first, then for the split's options.
func (s *Splitter) Dialog() {
	ds := s.ds()
	images, labels := ds.Paths()
	if images == "" || labels == "" {
		s.d.Inform("Split Dataset", "Split Dataset splits the saved image and label files.\nSave the dataset with its labels first (File → Save As…).")
		return
	}
	if ds.Dirty() {
		s.d.Ask("Save first?", "Split Dataset splits the saved files, and this dataset has unsaved edits.\nSave them first, then split?", true, func(yes bool) {
			if yes {
				s.h.Save(s.options)
			}
		})
		return
	}
	s.options()
}

// splitNames proposes the output pairs' base names from the open pair's: "x-train", "x-test"
// for x-images-idx3-ubyte (train-images-idx3-ubyte gives train-train and train-test).
func splitNames(images string) (train, test string) {
	b := dialogs.BaseName(images)
	return b + "-train", b + "-test"
}

// splitPair returns the pair a base name stands for, in folder dir: "<base>-images-idx3-ubyte"
// (".gz" when gz) and its label file (pairfile.LabelsFileFor).
func splitPair(dir, base string, gz bool) builder.Pair {
	name := base + "-images-idx3-ubyte"
	if gz {
		name += ".gz"
	}
	i := filepath.Join(dir, name)
	return builder.Pair{Images: i, Labels: pairfile.LabelsFileFor(i)}
}

// options asks for the test part (a fraction or a number of samples), stratify, shuffle, a group
// column, the seed and the two pairs' base names (beside the open pair, compressed as it is),
// then splits.
func (s *Splitter) options() {
	images, labels := s.ds().Paths()
	dir, gz := filepath.Dir(images), strings.HasSuffix(images, ".gz")
	var d *dialogs.Question
	cancel := func() { d.Dismiss() }
	part, seed, train, test, group := dialogs.NewPromptEntry(cancel), dialogs.NewPromptEntry(cancel), dialogs.NewPromptEntry(cancel), dialogs.NewPromptEntry(cancel), dialogs.NewPromptEntry(cancel)
	part.SetText("0.2")
	seed.SetText("1")
	group.SetPlaceHolder("none")
	tb, sb := splitNames(images)
	train.SetText(tb)
	test.SetText(sb)
	stratify := widgets.NewPassingCheck("Stratify (each class's share of the test part within one sample of the fraction)", nil)
	stratify.SetChecked(true)
	shuffle := widgets.NewPassingCheck("Shuffle (write each part in a random order drawn by the seed; else the file's order)", nil)
	preview := widget.NewLabel("")
	update := func() {
		a, b := splitPair(dir, train.Text, gz), splitPair(dir, test.Text, gz)
		preview.SetText(strings.Join([]string{clip.Name(a.Images), clip.Name(a.Labels), clip.Name(b.Images), clip.Name(b.Labels)}, "\n"))
	}
	train.OnChanged, test.OnChanged = func(string) { update() }, func(string) { update() }
	update()
	form := widget.NewForm(
		widget.NewFormItem("Splits", widget.NewLabel(clip.Name(images)+" + "+clip.Name(labels)+" (as saved)")),
		widget.NewFormItem("Test part", part),
		widget.NewFormItem("", stratify),
		widget.NewFormItem("", shuffle),
		widget.NewFormItem("Group column", group),
		widget.NewFormItem("Seed", seed),
		widget.NewFormItem("Train", train),
		widget.NewFormItem("Test", test),
		widget.NewFormItem("Files", preview),
	)
	form.Items[1].HintText = "a fraction (0.2) or a number of samples (2000)"
	form.Items[4].HintText = "keep whole the groups this label column names (QMNIST's writer: 2)"
	d = dialogs.NewQuestion("Split Dataset", "Split", "Cancel", form, func(ok bool) {
		if !ok {
			return
		}
		opts, err := splitOptions(part.Text, seed.Text, group.Text, stratify.Checked, shuffle.Checked)
		if err != nil {
			s.d.ShowError(err)
			return
		}
		s.run(builder.Pair{Images: images, Labels: labels}, splitPair(dir, train.Text, gz), splitPair(dir, test.Text, gz), opts, false)
	}, s.win)
	for _, e := range []*dialogs.PromptEntry{part, seed, train, test, group} {
		e.OnSubmitted = func(string) { d.Confirm() }
	}
	d.Resize(fyne.NewSize(600, d.MinSize().Height))
	s.d.Show("split", d, d.Dismiss, d.Confirm, nil)
}

// run splits in into train and test off the UI thread with a progress bar and Cancel
// (builder.Build: outputs claimed by pairfile.ClaimOutputs, so existing ones are replaced only with
// force, which the person gives by answering Replace?), then offers to open one of them.
func (s *Splitter) run(in, train, test builder.Pair, opts builder.SplitOptions, force bool) {
	bar := widget.NewProgressBar()
	note := widget.NewLabel("Reading " + clip.Name(in.Images) + "…")
	job := s.jobs.Start(jobs.Exporting, "Splitting…")
	// Escape and the Cancel button cancel; every other key goes on to the grid and edits the
	// dataset shown at once (an export holds no edits): the split reads the pair's files, not
	// those edits.
	prog := s.d.ShowPassing("progress", "Splitting the dataset", container.NewVBox(note, bar), job.Cancel)
	s.jobs.Run(func() {
		var notices []string
		var counts [2]int
		written, err := builder.Build(job.Ctx, []builder.Pair{in}, []builder.Pair{train, test}, force, func(inputs []*builder.Input) (*builder.Plan, error) {
			p, err := builder.Split(inputs[0], train, test, opts)
			if err == nil {
				counts = [2]int{len(p.Parts[0].Samples), len(p.Parts[1].Samples)}
			}
			return p, err
		}, func(n string) { notices = append(notices, n) }, func(file string, done, total int) {
			s.jobs.Schedule(func() {
				note.SetText("Writing " + clip.Name(file) + "…")
				bar.SetValue(float64(done) / float64(max(total, 1)))
			})
		})
		testhook.WaitGate(job.Ctx, testhook.ExportGate) // a test's hook; nothing otherwise
		cancelled := job.Ctx.Err() != nil && err != nil
		s.jobs.Schedule(func() {
			defer s.jobs.Finish(job)
			prog.Hide()
			switch {
			case cancelled:
				s.h.Say("Split cancelled: nothing was written")
			case errors.Is(err, pairfile.ErrExists) && !force:
				s.d.Ask("Replace files?", dialogs.ExistingFiles(train.Images, train.Labels, test.Images, test.Labels)+" already there. Replace?", false, func(yes bool) {
					if yes {
						s.run(in, train, test, opts, true)
					}
				})
			case err != nil:
				s.d.ShowError(err)
			default:
				s.done(written, counts, notices)
			}
		})
	})
}

// done says what was written, in the status bar too (it replaces a message left there, such as
// an earlier split's "nothing was written"), and offers to open the train or the test pair.
func (s *Splitter) done(written []builder.Written, counts [2]int, notices []string) {
	if len(written) != 2 {
		return
	}
	s.h.Say(fmt.Sprintf("Split: %s in %s, %s in %s", numfmt.Plural(counts[0], "sample"), clip.Name(written[0].Out.Labels),
		numfmt.Plural(counts[1], "sample"), clip.Name(written[1].Out.Labels)))
	text := fmt.Sprintf("Train: %s, %s (%s)\nTest: %s, %s (%s)",
		clip.Name(written[0].Out.Images), clip.Name(written[0].Out.Labels), numfmt.Plural(counts[0], "sample"),
		clip.Name(written[1].Out.Images), clip.Name(written[1].Out.Labels), numfmt.Plural(counts[1], "sample"))
	for _, n := range notices {
		text += "\n" + clip.Printable(n) // one line, which may quote a path
	}
	var d *dialog.CustomDialog
	openPair := func(p builder.Pair) func() {
		return func() {
			d.Hide()
			s.h.Open([]string{p.Images, p.Labels})
		}
	}
	d = dialog.NewCustomWithoutButtons("Split written: open one?", widget.NewLabel(text), s.win)
	closeB := widgets.NewPassingButton("Close", func() { d.Hide() })
	trainB := widgets.NewPassingButton("Open Train", openPair(written[0].Out))
	trainB.Importance = widget.HighImportance
	d.SetButtons([]fyne.CanvasObject{closeB, widgets.NewPassingButton("Open Test", openPair(written[1].Out)), trainB})
	s.d.Show("split done", d, d.Hide, d.Hide, nil)
}

// splitOptions reads the dialog's fields as `idxlabel split` reads its flags: the test part is a
// fraction strictly between 0 and 1 or a whole number of samples (TestCount); the seed a whole
// number; the group column blank (none) or a 0-based label column. Errors name the field.
func splitOptions(part, seed, group string, stratify, shuffle bool) (builder.SplitOptions, error) {
	o := builder.SplitOptions{TestCount: -1, Stratify: stratify, Shuffle: shuffle, GroupColumn: -1}
	part = strings.TrimSpace(part)
	if n, err := strconv.Atoi(part); err == nil && n >= 1 {
		o.TestCount = n
	} else if f, err := strconv.ParseFloat(part, 64); err == nil && f > 0 && f < 1 {
		o.Test = f
	} else {
		return o, fmt.Errorf("test part %q: expected a fraction between 0 and 1, such as 0.2, or a number of samples, such as 2000", part)
	}
	sd, err := strconv.ParseUint(strings.TrimSpace(seed), 10, 64)
	if err != nil {
		return o, fmt.Errorf("seed %q: expected a whole number, 0 or more", seed)
	}
	o.Seed = sd
	if g := strings.TrimSpace(group); g != "" {
		k, err := strconv.Atoi(g)
		if err != nil || k < 0 {
			return o, fmt.Errorf("group column %q: expected a label column number (0-based), or nothing for no groups", group)
		}
		o.GroupColumn = k
	}
	return o, nil
}
