package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"idxlabel/export"
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
}

// exportDialog asks for a format and a target (File → Export…) and exports the dataset as it is
// now: unsaved edits included, deleted samples left out.
func (w *mainWindow) exportDialog() {
	if w.ds.Len() == 0 {
		w.inform("Export", "There are no samples to export.")
		return
	}
	var labels []string
	for _, f := range exportFormats {
		labels = append(labels, f.label)
	}
	format := widget.NewSelect(labels, nil)
	format.SetSelectedIndex(0)
	names := widget.NewCheck("Name class folders by class name", nil)
	var d *dialog.ConfirmDialog
	target := newPromptEntry(func() { d.Dismiss() })
	base := "export"
	if images, lbl := w.ds.Paths(); images != "" {
		p := images
		if lbl != "" {
			p = lbl
		}
		base = filepath.Join(filepath.Dir(p), baseName(p)+"-export")
	}
	target.SetText(base)
	format.OnChanged = func(string) {
		f := exportFormats[format.SelectedIndex()]
		t := target.Text
		for _, g := range exportFormats {
			if g.suffix != "" && filepath.Ext(t) == g.suffix {
				t = t[:len(t)-len(g.suffix)]
			}
		}
		target.SetText(t + f.suffix)
	}
	form := widget.NewForm(
		widget.NewFormItem("Format", format),
		widget.NewFormItem("", names),
		widget.NewFormItem("Write to", target),
	)
	d = dialog.NewCustomConfirm("Export", "Export", "Cancel", form, func(ok bool) {
		if ok {
			w.runExport(target.Text, export.Options{Format: exportFormats[format.SelectedIndex()].format, ClassNames: names.Checked}, false)
		}
	}, w.win)
	target.OnSubmitted = func(string) { d.Confirm() } // Enter in the path exports, as the button
	d.Resize(fyne.NewSize(620, d.MinSize().Height))
	w.prompts.show(w.win.Canvas(), "export", d, d.Dismiss, d.Confirm, w.focusGrid)
}

// runExport writes the export off the UI thread with a progress bar and Cancel; an existing
// target is replaced only after asking, and asked about only where export.Write may replace it
// (anything else in the way is refused by Write and shown as an error).
func (w *mainWindow) runExport(out string, opts export.Options, force bool) {
	s := export.FromDataset(w.ds)
	opts.Force = force
	ctx, cancel := context.WithCancel(w.life)
	bar := widget.NewProgressBar()
	prog := dialog.NewCustom(fmt.Sprintf("Exporting %s", plural(s.N, "sample")), "Cancel", container.NewVBox(widget.NewLabel(out), bar), w.win)
	prog.SetOnClosed(cancel)
	prog.Show()
	start := time.Now()
	opts.Progress = func(done, total int) {
		fyne.Do(func() { bar.SetValue(float64(done) / float64(max(total, 1))) })
	}
	w.bg.Go(func() {
		err := export.Write(ctx, s, out, opts)
		fyne.Do(func() {
			prog.SetOnClosed(func() {})
			prog.Hide()
			cancel()
			switch {
			case errors.Is(err, context.Canceled):
			case errors.Is(err, export.ErrExists):
				w.ask("Replace?", out+" exists. Replace it?", false, func(yes bool) {
					if yes {
						w.runExport(out, opts, true)
					}
				})
			case err != nil:
				w.showError(err)
			default:
				w.inform("Exported", fmt.Sprintf("%s written to %s in %.1f s.", plural(s.N, "sample"), out, time.Since(start).Seconds()))
			}
		})
	})
}
