package annotators

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"idxlabel/annotate"
	"idxlabel/idx"
	"idxlabel/internal/atomicfile"
	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/pairfile"
	"idxlabel/store"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/mode"
	"idxlabel/ui/testhook"
	"idxlabel/ui/widgets"
)

// Errata is File → Export Errata… and File → Apply Errata…: the open labels' corrections as an
// errata file anyone can apply to their copy of the images, and such a file applied to the open
// labels. An errata file names each sample by the SHA-256 of its stored bytes in the image file
// (annotate), so both hash the dataset's image file on disk, off the UI thread.
type Errata struct {
	c    mode.Controller
	jobs *jobs.Jobs
	d    *dialogs.Dialogs
	win  fyne.Window
}

// ErrataRequest is what Export Errata writes: the corrections from the labels as the files were
// opened (Old "") or from the label file Old to the open labels, with Note on every row, to the
// file Out.
type ErrataRequest struct {
	Old, Note, Out string
}

// imagesFile returns the dataset's image file, or says why errata cannot be made without one.
func (e *Errata) imagesFile(title string) (string, bool) {
	images, _ := e.c.State().DS.Paths()
	if images == "" {
		e.d.Inform(title, "Errata name each sample by the SHA-256 of its pixels in the image file: save the dataset first (File → Save As…).")
		return "", false
	}
	return images, true
}

// Export asks where to write the errata, of which labels and with which note, then writes them
// (Write).
func (e *Errata) Export() {
	images, ok := e.imagesFile("Export Errata")
	if !ok {
		return
	}
	_, labels := e.c.State().DS.Paths()
	var dlg *dialogs.Question
	cancel := func() { dlg.Dismiss() }
	out, note, old := dialogs.NewPromptEntry(cancel), dialogs.NewPromptEntry(cancel), dialogs.NewPromptEntry(cancel)
	out.SetText(filepath.Join(filepath.Dir(images), dialogs.BaseName(images)+"-errata.csv"))
	old.SetPlaceHolder("a label file of these images")
	old.Disable()
	from := widgets.NewPassingRadioGroup([]string{"the labels as the files were opened", "another label file:"}, func(s string) {
		if strings.HasPrefix(s, "another") {
			old.Enable()
		} else {
			old.Disable()
		}
	})
	from.SetSelected(from.Options[0])
	from.Required = true
	browse := widgets.NewPassingButton("Browse…", func() {
		e.d.Choose(dialogs.Spec{Title: "Old Labels", Confirm: "Choose", Purpose: dialogs.PurposeOpen, Filter: dialogs.IsIDXName, Kind: "IDX files",
			Start: filepath.Dir(labels)}, func(p string) {
			from.SetSelected(from.Options[1])
			old.SetText(p)
		})
	})
	form := widget.NewForm(
		widget.NewFormItem("", widget.NewLabel("A row for every sample whose open label differs from its old label.")),
		widget.NewFormItem("Old labels", container.NewVBox(from, container.NewBorder(nil, nil, nil, browse, old))),
		widget.NewFormItem("Note", note),
		widget.NewFormItem("Errata file", out),
	)
	dlg = dialogs.NewQuestion("Export Errata", "Export", "Cancel", form, func(yes bool) {
		if !yes {
			return
		}
		r := ErrataRequest{Note: note.Text, Out: out.Text}
		if from.Selected != from.Options[0] {
			r.Old = old.Text
		}
		e.Write(r, false)
	}, e.win)
	for _, x := range []*dialogs.PromptEntry{out, note, old} {
		x.OnSubmitted = func(string) { dlg.Confirm() }
	}
	dlg.Resize(fyne.NewSize(620, dlg.MinSize().Height))
	e.d.Show("export errata", dlg, dlg.Dismiss, dlg.Confirm, nil)
}

// Write writes r's errata: the output claimed (pairfile.ClaimOutputs; an existing file is
// replaced only once the person confirms, force), the open labels taken now, then off the UI
// thread with a progress bar and Cancel the image file hashed, the old labels read, and the
// errata written atomically. The rows are the samples of the image file; samples added since it
// was written have no pixels there and no row.
func (e *Errata) Write(r ErrataRequest, force bool) {
	images, ok := e.imagesFile("Export Errata")
	if !ok {
		return
	}
	if err := annotate.CheckNote(r.Note); err != nil {
		e.d.ShowError(fmt.Errorf("the note: %w", err))
		return
	}
	if strings.TrimSpace(r.Out) == "" {
		e.d.ShowError(errors.New("name the errata file to write"))
		return
	}
	ds := e.c.State().DS
	_, labels := ds.Paths()
	inputs := []string{images}
	for _, f := range []string{labels, r.Old} {
		if f != "" {
			inputs = append(inputs, f)
		}
	}
	claim, err := pairfile.ClaimOutputs(inputs, []string{r.Out}, force, nil)
	if errors.Is(err, pairfile.ErrExists) && !force {
		e.d.Ask("Replace file?", dialogs.ExistingFiles(r.Out)+" already there. Replace?", false, func(yes bool) {
			if yes {
				e.Write(r, true)
			}
		})
		return
	}
	if err != nil {
		e.d.ShowError(err)
		return
	}
	n := ds.Len()
	now, was := make([]int32, n), make([]int32, n)
	for i := range n {
		now[i], was[i] = int32(ds.Label(i)), int32(ds.OriginalLabel(i))
	}
	p := e.progress("Exporting errata", "Hashing "+clip.Name(images)+"…")
	e.jobs.Run(func() {
		defer claim.Release()
		rows, err := writeErrata(p.job.Ctx, images, r, was, now, p.set(e.jobs))
		testhook.WaitGate(p.job.Ctx, testhook.ExportGate) // a test's hook; nothing otherwise
		e.jobs.Schedule(func() {
			// A Cancel that comes once the file is written (writeErrata returned) is too late: it is there.
			if p.end(e.jobs) && err != nil {
				e.c.Say("Export Errata cancelled: nothing was written")
				return
			}
			if err != nil {
				e.d.ShowError(err)
				return
			}
			e.c.Say(fmt.Sprintf("Wrote %s to %s", numfmt.Plural(rows, "correction"), clip.Name(r.Out)))
		})
	})
}

// writeErrata hashes images, takes the old labels (was, or the label file r.Old), and writes the
// errata of their change to now, one a sample of the image file, to r.Out (atomically, after
// the claim). It returns the rows written. Errors: the files', counts that differ, ctx's.
func writeErrata(ctx context.Context, images string, r ErrataRequest, was, now []int32, progress func(float64)) (int, error) {
	hs, err := hashImages(ctx, images, progress)
	if err != nil {
		return 0, err
	}
	n := len(hs.Samples)
	if len(now) < n {
		return 0, fmt.Errorf("%s has %s, the open dataset %d: save the dataset, then export its errata", images, numfmt.Plural(n, "sample"), len(now))
	}
	old := was[:n]
	if r.Old != "" {
		_, col, err := pairfile.ReadLabelColumn(r.Old)
		if err != nil {
			return 0, err
		}
		if len(col) != n {
			return 0, fmt.Errorf("%s has %s, but %s has %s: the counts must match", r.Old, numfmt.Plural(len(col), "label"), images, numfmt.Plural(n, "sample"))
		}
		old = col
	}
	er, err := annotate.MakeErrata(hs, old, now[:n], nil, r.Note)
	if err != nil {
		return 0, err
	}
	atomicfile.RemoveStale(r.Out, atomicfile.StaleAge)
	err = atomicfile.WriteFile(r.Out, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := er.WriteCSV(bw, filepath.Base(images)); err != nil {
			return err
		}
		return bw.Flush()
	})
	return len(er.Rows), err
}

// hashImages hashes the image file name (pairfile.OpenImages, annotate.HashImages), telling
// progress the share of its data read. Errors name the file.
func hashImages(ctx context.Context, name string, progress func(float64)) (*annotate.ImageHashes, error) {
	f, err := pairfile.OpenImages(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cr := &countingReader{r: f, total: f.Header.DataSize(), progress: progress}
	hs, err := annotate.HashImages(ctx, f.Header, cr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return hs, nil
}

// countingReader tells progress the share of total bytes read, every 4 MiB.
type countingReader struct {
	r           io.Reader
	total, read int64
	told        int64
	progress    func(float64)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += int64(n)
	if c.read-c.told >= 4<<20 && c.total > 0 {
		c.told = c.read
		c.progress(float64(c.read) / float64(c.total))
	}
	return n, err
}

// Apply asks for an errata file and applies it (ApplyFile).
func (e *Errata) Apply() {
	if _, ok := e.imagesFile("Apply Errata"); !ok {
		return
	}
	_, labels := e.c.State().DS.Paths()
	e.d.Choose(dialogs.Spec{Title: "Apply Errata", Confirm: "Apply", Purpose: dialogs.PurposeOpen, Filter: isCSV, Kind: "CSV files",
		Start: filepath.Dir(labels)}, e.ApplyFile)
}

// isCSV reports whether name is a CSV file, what the errata chooser lists.
func isCSV(name string) bool { return strings.EqualFold(filepath.Ext(name), ".csv") }

// ApplyFile reads the errata file path and hashes the image file off the UI thread (a progress
// bar and Cancel; edits go on), then, as the person's input, applies the rows that match to the
// open labels as they are then, as one undoable step (annotate.Apply: a row only where its
// sample's pixels hash to its sha256 and its label is its old label), and lists the rows left
// out with their reasons.
func (e *Errata) ApplyFile(path string) {
	images, ok := e.imagesFile("Apply Errata")
	if !ok {
		return
	}
	ds := e.c.State().DS
	_, labels := ds.Paths()
	resets := e.c.Resets()
	p := e.progress("Applying errata", "Hashing "+clip.Name(images)+"…")
	e.jobs.Run(func() {
		er, hs, fits, err := readErrata(p.job.Ctx, path, images, labels, p.set(e.jobs))
		e.jobs.Schedule(func() {
			switch {
			case p.end(e.jobs):
				e.c.Say("Apply Errata cancelled: nothing was changed")
			case err != nil:
				e.d.ShowError(err)
			default:
				e.c.Input(func() {
					if e.c.State().DS != ds || e.c.Resets() != resets {
						e.c.Say("The samples changed while " + clip.Name(path) + " was read: apply it again")
						return
					}
					e.apply(ds, er, hs, fits, path)
				})
			}
		})
	})
}

// readErrata reads the errata file path, hashes images and says which labels the label file
// holds (its dtype's range; any class ≥ 0 without one). Errors: the files'.
func readErrata(ctx context.Context, path, images, labels string, progress func(float64)) (*annotate.Errata, *annotate.ImageHashes, func(int32) bool, error) {
	f, _, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, nil, nil, err
	}
	er, err := annotate.ReadErrata(bufio.NewReader(f), path)
	f.Close()
	if err != nil {
		return nil, nil, nil, err
	}
	hs, err := hashImages(ctx, images, progress)
	if err != nil {
		return nil, nil, nil, err
	}
	lo, hi := int64(0), int64(1<<31-1)
	if labels != "" {
		h, err := idx.ReadHeaderFile(labels)
		if err != nil {
			return nil, nil, nil, err
		}
		if l, g, ok := h.Type.IntRange(); ok {
			lo, hi = l, g
		}
	}
	fits := func(l int32) bool { return l != annotate.NoLabel && int64(l) >= lo && int64(l) <= hi }
	return er, hs, fits, nil
}

// apply applies er to ds's labels now as one undoable step and says what it did; the rows left
// out are listed with their reasons (at most maxListed of them).
func (e *Errata) apply(ds *store.Dataset, er *annotate.Errata, hs *annotate.ImageHashes, fits func(int32) bool, path string) {
	n := len(hs.Samples)
	if ds.Len() < n {
		e.d.ShowError(fmt.Errorf("the image file has %s, the open dataset %d: save the dataset, then apply %s", numfmt.Plural(n, "sample"), ds.Len(), clip.Name(path)))
		return
	}
	now := make([]int32, n)
	for i := range n {
		now[i] = int32(ds.Label(i))
	}
	outcomes := annotate.Apply(er, hs.Samples, now, fits)
	var at, to []int
	var left []annotate.Outcome
	moved := 0
	for _, o := range outcomes {
		if !o.Applied() {
			left = append(left, o)
			continue
		}
		at, to = append(at, o.At), append(to, int(o.Row.New))
		if o.Moved {
			moved++
		}
	}
	if len(at) > 0 && !e.c.Edit(func(ds *store.Dataset) error { return ds.SetLabelsAs(store.HowBatch, at, to) }) {
		return // refused (said on the status bar), or waiting for a job: applied when it ends
	}
	text := fmt.Sprintf("Applied %d of %s from %s", len(at), numfmt.Plural(len(outcomes), "errata row"), clip.Name(path))
	if moved > 0 {
		text += fmt.Sprintf(" (%d found by their pixels at another index)", moved)
	}
	if len(at) > 0 {
		text += "; undo takes them all back"
	}
	e.c.Say(text)
	if len(left) == 0 {
		return
	}
	rows := [][2]string{{"", text + "."}, {"", numfmt.Plural(len(left), "row") + " left out:"}}
	for k, o := range left {
		if k == maxListed {
			rows = append(rows, [2]string{"", numfmt.Sprintf("… and %d more", len(left)-maxListed)})
			break
		}
		rows = append(rows, [2]string{numfmt.Sprintf("line %d", o.Row.Line), o.String() + " (" + o.Reason.String() + ")"})
	}
	e.d.ShowTable("errata left out", "Apply Errata: Rows Left Out", rows)
}

// maxListed is how many rows left out the list shows.
const maxListed = 500

// progress is a job's progress dialog with Cancel.
type progress struct {
	job *jobs.Job
	bar *widget.ProgressBar
	dlg dialog.Dialog
}

// progress starts a job (it holds no edits: an export takes the labels before it starts, an
// apply takes them at its end) with a progress dialog titled title, saying what, shown through
// the window's dialogs: Escape and its Cancel button cancel; every other key goes on to the grid
// and edits the dataset shown at once.
func (e *Errata) progress(title, what string) *progress {
	p := &progress{job: e.jobs.Start(jobs.Exporting, what), bar: widget.NewProgressBar()}
	p.dlg = e.d.ShowPassing("progress", title, container.NewVBox(widget.NewLabel(what), p.bar), p.job.Cancel)
	return p
}

// set returns the function that shows a fraction done, from any goroutine.
func (p *progress) set(j *jobs.Jobs) func(float64) {
	return func(f float64) { j.Schedule(func() { p.bar.SetValue(f) }) }
}

// end ends the job on the UI thread and reports whether it was cancelled.
func (p *progress) end(j *jobs.Jobs) bool {
	cancelled := p.job.Ctx.Err() != nil
	j.Finish(p.job)
	p.dlg.Hide()
	return cancelled
}
