package build

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
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

// ShownSaver is File → Save Shown As…: the samples the grid shows now (a class, a review list, a
// lasso on the map, a filter: the view model's order), as edited, written as a new pair with the
// class names (store.Dataset.WriteSamples) and, as Save writes it, the sources file that says
// which file each imported sample came from (pairfile.SourcesFile), beside the dataset or
// anywhere. The open dataset is not changed. The outputs follow the rule of every writer
// (pairfile.ClaimOutputs): an existing file is replaced only once the person confirms, and never
// a pair open elsewhere or whose journal holds unsaved edits.
type ShownSaver struct{ base }

// Shown returns the samples the grid shows that a save would keep (in the grid's order), their
// sources (store.Dataset.Source; nil when none has one), and how many deleted samples it shows
// besides (they are left out, as a save removes them).
func (s *ShownSaver) Shown() (keep []int, sources []string, deleted int) {
	st := s.h.State()
	ds, v := st.DS, st.View
	keep = make([]int, 0, v.Len())
	any := false
	for p := range v.Len() {
		i := v.At(p)
		sst, _, ok := ds.SampleAt(v.Gen(), i)
		if !ok || sst.Deleted {
			deleted++
			continue
		}
		src, _ := ds.SourceAt(v.Gen(), i)
		any = any || src != ""
		keep, sources = append(keep, i), append(sources, src)
	}
	if !any {
		sources = nil
	}
	return keep, sources, deleted
}

// Dialog asks for a folder and a base name ("<base>-images-idx3-ubyte", the label file
// named from it, ".gz" when compressed) and writes what the grid shows there.
func (s *ShownSaver) Dialog() {
	ds := s.ds()
	keep, sources, deleted := s.Shown()
	if len(keep) == 0 {
		s.d.Inform("Save Shown As", "The grid shows no samples to save.")
		return
	}
	images, _ := ds.Paths()
	var d *dialogs.Question
	cancel := func() { d.Dismiss() }
	folder, base := dialogs.NewPromptEntry(cancel), dialogs.NewPromptEntry(cancel)
	gz := widgets.NewPassingCheck("Compress (.gz)", nil)
	if images != "" {
		folder.SetText(filepath.Dir(images))
		base.SetText(dialogs.BaseName(images) + "-shown")
		gz.SetChecked(strings.HasSuffix(images, ".gz"))
	} else {
		home, _ := os.UserHomeDir()
		folder.SetText(home)
		base.SetText("shown")
		gz.SetChecked(true)
	}
	withLabels := ds.HasLabels() || ds.AnyLabelled()
	paths := func() (string, string) {
		suffix := ""
		if gz.Checked {
			suffix = ".gz"
		}
		i := filepath.Join(folder.Text, base.Text+"-images-idx3-ubyte"+suffix)
		if !withLabels {
			return i, ""
		}
		return i, pairfile.LabelsFileFor(i)
	}
	preview := widget.NewLabel("")
	update := func() {
		i, l := paths()
		text := clip.Name(i)
		if l != "" {
			text += "\n" + clip.Name(l)
			if len(s.names()) > 0 {
				text += "\n" + clip.Name(builder.NamesFileFor(l))
			}
		}
		if sources != nil {
			text += "\n" + clip.Name(pairfile.SourcesFile(i, l))
		}
		preview.SetText(text)
	}
	folder.OnChanged, base.OnChanged, gz.OnChanged = func(string) { update() }, func(string) { update() }, func(bool) { update() }
	update()
	choose := dialogs.FolderButton(folder, s.d, dialogs.PurposeSave)
	what := fmt.Sprintf("The %s the grid shows, in its order, as edited.", numfmt.Plural(len(keep), "sample"))
	if deleted > 0 {
		what += fmt.Sprintf("\n%s marked deleted %s left out.", numfmt.Plural(deleted, "sample"), map[bool]string{true: "is", false: "are"}[deleted == 1])
	}
	form := widget.NewForm(
		widget.NewFormItem("", widget.NewLabel(what)),
		widget.NewFormItem("Folder", container.NewBorder(nil, nil, nil, choose, folder)),
		widget.NewFormItem("Base name", base),
		widget.NewFormItem("", gz),
		widget.NewFormItem("Files", preview),
	)
	d = dialogs.NewQuestion("Save Shown As", "Save", "Cancel", form, func(ok bool) {
		if ok {
			i, l := paths()
			s.Write(ShownPair{Keep: keep, Sources: sources, Images: i, Labels: l}, false)
		}
	}, s.win)
	for _, e := range []*dialogs.PromptEntry{folder, base} {
		e.OnSubmitted = func(string) { d.Confirm() }
	}
	d.Resize(fyne.NewSize(560, d.MinSize().Height))
	s.d.Show("save shown", d, d.Dismiss, d.Confirm, nil)
}

// names returns the class names of the dataset's classes (nil when none has a name).
func (s *ShownSaver) names() map[int]string {
	var names map[int]string
	ds := s.ds()
	for _, c := range ds.Classes() {
		if n := ds.ClassName(c); n != "" {
			if names == nil {
				names = map[int]string{}
			}
			names[c] = n
		}
	}
	return names
}

// ShownPair is what Save Shown As writes: the samples Keep (in the grid's order) with their
// Sources (nil: none has one), to the pair Images, Labels (Labels "" for images alone).
type ShownPair struct {
	Keep           []int
	Sources        []string
	Images, Labels string
}

// Write claims the outputs (the pair, the class-name file beside its labels and the sources file,
// pairfile.SourcesFile) and writes p there off the UI thread, with a progress bar and Cancel: the
// samples (store.Dataset.WriteSamples), the class names, and the sources when a sample has one
// (pairfile.WriteSources; a sources file left there from before is removed otherwise, as Save
// removes it: it would name other samples). An output that exists is replaced only when the
// person confirms (force); a refusal of another kind (a pair open elsewhere, a journal holding
// edits, an output that is one of the dataset's files) is shown.
func (s *ShownSaver) Write(p ShownPair, force bool) {
	ds := s.ds()
	images, labels, keep := p.Images, p.Labels, p.Keep
	sourcesFile := pairfile.SourcesFile(images, labels)
	outputs := []string{images}
	namesFile := ""
	if labels != "" {
		namesFile = builder.NamesFileFor(labels)
		outputs = append(outputs, labels, namesFile)
	}
	outputs = append(outputs, sourcesFile)
	var inputs []string // the dataset's own files: never an output
	i, l := ds.Paths()
	for _, f := range []string{i, l, ds.ClassNamesFile(), pairfile.SourcesFile(i, l)} {
		if f != "" {
			inputs = append(inputs, f)
		}
	}
	claim, err := pairfile.ClaimOutputs(inputs, outputs, force, nil)
	if errors.Is(err, pairfile.ErrExists) && !force {
		s.d.Ask("Replace files?", dialogs.ExistingFiles(outputs...)+" already there. Replace?", false, func(yes bool) {
			if yes {
				s.Write(p, true)
			}
		})
		return
	}
	if err != nil {
		s.d.ShowError(err)
		return
	}
	names := s.names()
	bar := widget.NewProgressBar()
	job := s.jobs.Start(jobs.Exporting, "Saving what is shown…")
	// Escape and the Cancel button cancel; every other key goes on to the grid and edits the
	// dataset shown at once (an export holds no edits): the files hold the samples as the job
	// read them when it began.
	prog := s.d.ShowPassing("progress", "Saving "+numfmt.Plural(len(keep), "sample"), bar, job.Cancel)
	s.jobs.Run(func() {
		defer claim.Release()
		err := ds.WriteSamples(job.Ctx, claim, keep, images, labels, func(f float64) { s.jobs.Schedule(func() { bar.SetValue(f) }) })
		if err == nil && namesFile != "" {
			err = writeNames(namesFile, names)
		}
		if err == nil {
			err = writeSources(sourcesFile, p.Sources)
		}
		testhook.WaitGate(job.Ctx, testhook.ExportGate) // a test's hook; nothing otherwise
		cancelled := job.Ctx.Err() != nil && err != nil
		s.jobs.Schedule(func() {
			defer s.jobs.Finish(job)
			prog.Hide()
			switch {
			case cancelled:
				s.h.Say("Save Shown As cancelled: nothing was written")
			case err != nil:
				s.d.ShowError(err)
			default:
				text := fmt.Sprintf("Saved %s to %s", numfmt.Plural(len(keep), "sample"), clip.Name(images))
				if labels != "" {
					text += " and " + clip.Name(labels)
				}
				if len(names) > 0 {
					text += ", class names in " + clip.Name(namesFile)
				}
				if p.Sources != nil {
					text += ", their source files in " + clip.Name(sourcesFile)
				}
				s.h.Say(text)
			}
		})
	})
}

// writeNames writes the class-name file names beside a pair written (pairfile.WriteClassNames), or
// removes one left there from before when there are no names: it would name the new classes.
func writeNames(file string, names map[int]string) error {
	if len(names) > 0 {
		return pairfile.WriteClassNames(file, names)
	}
	if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// writeSources writes the sources file beside a pair written (pairfile.WriteSources, one line a
// sample), or removes one left there from before when no sample has a source (sources nil).
func writeSources(file string, sources []string) error {
	if sources != nil {
		return pairfile.WriteSources(file, sources)
	}
	return pairfile.RemoveSources(file)
}
