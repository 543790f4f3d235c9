package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"idxlabel/export"
	"idxlabel/internal/numfmt"
	"idxlabel/internal/version"
	"idxlabel/pairfile"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/testhook"
	"idxlabel/ui/widgets"
)

// exportFormats are the choices of File → Export…, and the format and file suffix of each.
var exportFormats = []struct {
	label  string
	format export.Format
	suffix string
}{
	{"PNG folder tree (ImageFolder: <class>/<index>.png)", export.PNG, ""},
	{"CSV (Kaggle: label,pixel0,…)", export.CSV, ".csv"},
	{"NumPy .npz (x: N×H×W uint8, y: N int64)", export.NPZ, ".npz"},
	{"Parquet (Hugging Face dataset folder: data/<split>-00000-of-00001.parquet, README.md)", export.Parquet, ""},
}

// exporter writes the dataset as it is now (File → Export…): unsaved edits included, deleted
// samples left out, as a PNG tree, CSV or .npz, in the background with progress and Cancel.
type exporter struct {
	c   *controller
	d   *dialogs.Dialogs
	win fyne.Window
}

// exportWidth is the Export dialog's width, in Fyne's pixels: room for a long path.
const exportWidth = 620

// exportDialog asks for a format and a target (File → Export…) and exports the dataset as it is
// now: unsaved edits included, deleted samples left out.
func (x *exporter) exportDialog() {
	if x.c.ds.Len() == 0 {
		x.d.Inform("Export", "There are no samples to export.")
		return
	}
	var labels []string
	for _, f := range exportFormats {
		labels = append(labels, f.label)
	}
	format := widgets.NewDialogSelect(labels, nil)
	format.SetSelectedIndex(0)
	names := widgets.NewPassingCheck("Name class folders by class name", nil)
	var d *dialogs.Question
	target := dialogs.NewPromptEntry(func() { d.Dismiss() })
	base := "export"
	if images, lbl := x.c.ds.Paths(); images != "" {
		p := images
		if lbl != "" {
			p = lbl
		}
		base = filepath.Join(filepath.Dir(p), dialogs.BaseName(p)+"-export")
	}
	if dir := dialogs.StartFolder(x.d.Prefs(), dialogs.PurposeExport, "", ""); x.d.Prefs().String(dialogs.LastFolderKey(dialogs.PurposeExport)) == dir {
		base = filepath.Join(dir, filepath.Base(base)) // where the last export went
	}
	target.SetText(base)
	choose := widgets.NewPassingButton("Choose…", func() {
		x.d.Choose(dialogs.Spec{Title: "Export: the folder to write in", Confirm: "Choose", Purpose: dialogs.PurposeExport, Folder: true, Typed: filepath.Dir(target.Text)},
			func(dir string) { target.SetText(filepath.Join(dir, filepath.Base(target.Text))) })
	})
	format.OnChanged = func(string) {
		f := exportFormats[format.SelectedIndex()]
		if f.format == export.PNG { // class folders: only a PNG tree has them
			names.Show()
		} else {
			names.SetChecked(false)
			names.Hide()
		}
		t := target.Text
		for _, g := range exportFormats {
			if g.suffix != "" && filepath.Ext(t) == g.suffix {
				t = t[:len(t)-len(g.suffix)]
			}
		}
		target.SetText(t + f.suffix)
		if d != nil { // the check box shown or hidden: the dialog fits its new height
			d.Resize(fyne.NewSize(exportWidth, d.MinSize().Height))
		}
	}
	form := widget.NewForm( // the check box under the format, so that hidden it leaves no empty row
		widget.NewFormItem("Format", container.NewVBox(format, names)),
		widget.NewFormItem("Write to", container.NewBorder(nil, nil, nil, choose, target)),
	)
	d = dialogs.NewQuestion("Export", "Export", "Cancel", form, func(ok bool) {
		if ok {
			dialogs.RememberFolder(x.d.Prefs(), dialogs.PurposeExport, filepath.Dir(target.Text))
			x.run(target.Text, export.Options{Format: exportFormats[format.SelectedIndex()].format, ClassNames: names.Checked}, false)
		}
	}, x.win)
	target.OnSubmitted = func(string) { d.Confirm() } // Enter in the path exports, as the button
	d.Resize(fyne.NewSize(exportWidth, d.MinSize().Height))
	x.d.Show("export", d, d.Dismiss, d.Confirm, nil)
}

// run writes the export off the UI thread with a progress bar and Cancel; an existing target
// is replaced only after asking, and asked about only where export.Write may replace it
// (anything else in the way is refused by Write and shown as an error). A target that is one of
// the dataset's own files, or a folder holding them, is refused up front (pairfile.CheckOutputs);
// while it writes, the export holds the locks that guard out as a file of a pair open for
// editing, and never replaces a file of a pair whose journal holds unsaved edits
// (pairfile.ClaimOutputs, as export's command line claims them; whether an existing target may be
// replaced is asked above, so the claim does not refuse it for existing). A Parquet export's one
// split is named from the image file's name as the command line names it (export.SplitOf:
// t10k-images-idx3-ubyte is the test split), else train.
func (x *exporter) run(out string, opts export.Options, force bool) {
	c := x.c
	var inputs []string
	images, labels := c.ds.Paths()
	for _, p := range []string{images, labels} {
		if p != "" {
			inputs = append(inputs, p)
		}
	}
	if err := pairfile.CheckOutputs(inputs, []string{out}); err != nil {
		x.d.ShowError(fmt.Errorf("cannot export there: %w", err))
		return
	}
	if opts.Format == export.Parquet && opts.Split == "" {
		opts.Split = export.SplitOf(images) // t10k's test split is test, as the command line names it ("": train)
	}
	s, dirty := c.ds.Snapshot(), c.ds.Dirty() // as the job begins: keys typed meanwhile are not in the file
	opts.Force = force
	opts.Made = "idxlabel " + version.Version // a Parquet export's card and files name it
	job := c.jobs.Start(jobs.Exporting, "")
	bar := widget.NewProgressBar()
	// Escape and the Cancel button cancel; every other key goes on to the grid and edits the
	// dataset shown at once (an export holds no edits): the file holds the samples of the
	// snapshot s, taken above as the job began.
	prog := x.d.ShowPassing("progress", fmt.Sprintf("Exporting %s", numfmt.Plural(s.N, "sample")), container.NewVBox(widget.NewLabel(out), bar), job.Cancel)
	start := time.Now()
	var midway sync.Once
	opts.Progress = func(done, total int) {
		c.jobs.Schedule(func() { bar.SetValue(float64(done) / float64(max(total, 1))) })
		if done > 0 && done < total {
			midway.Do(func() { testhook.WaitGate(job.Ctx, testhook.ExportWriteGate) }) // a test's hook; nothing otherwise
		}
	}
	c.jobs.Run(func() {
		claim, err := pairfile.ClaimOutputs(inputs, []string{out}, true, func(o string) error { return export.CheckOut(o, opts.Format) })
		if err == nil {
			err = export.Write(job.Ctx, s, out, opts)
			claim.Release()
		}
		testhook.WaitGate(job.Ctx, testhook.ExportGate) // a test's hook; nothing otherwise
		c.jobs.Schedule(func() {
			c.jobs.Finish(job)
			prog.Hide() // closing it cancels the job, finished: nothing
			switch {
			case errors.Is(err, context.Canceled):
				// export.Write leaves nothing behind when cancelled: no part of out, no
				// temporary file or folder; an out that was there before is as it was.
				c.say("Export cancelled: nothing was written")
			case errors.Is(err, export.ErrExists):
				x.d.Ask("Replace?", out+" exists. Replace it?", false, func(yes bool) {
					if yes {
						x.run(out, opts, true)
					}
				})
			case err != nil:
				x.d.ShowError(err)
			default:
				msg := fmt.Sprintf("%s written to %s in %.1f s.", numfmt.Plural(s.N, "sample"), out, time.Since(start).Seconds())
				if dirty {
					msg += "\n\nIt holds the edits not saved yet; the IDX pair gets them at File → Save."
				}
				x.d.InformAs("exported", "Exported", msg)
			}
		})
	})
}
