package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"idxlabel/normalize"
	"idxlabel/sample"
	"idxlabel/store"
)

// importFiles lists what a folder holds for import: an ImageFolder tree (DIR/<label>/*.png) with
// labels from the folder names, or a flat folder of images that all get label. Skipped folders
// are reported. Errors: the folder holds no images.
func importFiles(dir string, label int) ([]normalize.File, []string, error) {
	files, skipped, err := normalize.ImageFolder(dir)
	if err == nil {
		return files, skipped, nil
	}
	entries, rerr := os.ReadDir(dir)
	if rerr != nil {
		return nil, nil, rerr
	}
	files = files[:0]
	for _, e := range entries {
		if !e.IsDir() && normalize.IsImageFile(e.Name()) {
			files = append(files, normalize.File{Path: filepath.Join(dir, e.Name()), Label: label})
		}
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("%s: no PNG or JPEG images, in label folders (DIR/<label>/*.png) or in the folder itself", dir)
	}
	return files, nil, nil
}

// importer adds a folder of images to the dataset (File → Import Images…): an ImageFolder tree
// or a flat folder, each image through MNIST's preprocessing, in the background with a progress
// bar, as one undoable step.
type importer struct {
	c   *controller
	d   *dialogs
	win fyne.Window
}

// importDialog asks for a folder of images and how to process them, then imports.
func (m *importer) importDialog() {
	if m.c.cannotEdit() {
		return // read-only, or a job holds edits: the status bar says so
	}
	fd := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil {
			m.d.showError(err)
			return
		}
		if u != nil {
			m.importOptions(u.Path())
		}
	}, m.win)
	fd.Resize(m.win.Canvas().Size().SubtractWidthHeight(40, 40))
	fd.Show()
}

// inkChoices are the import dialog's ink options, in normalize.Polarity's order (InkAuto,
// InkLight, InkDark), as the command line's --ink auto|light|dark.
var inkChoices = []string{"Automatic (from the image's border)", "Light on dark (like MNIST)", "Dark on light (paper, scans)"}

// importOptions asks for the normalization options — centring, ink, threshold, as the command
// line's --center, --ink and --threshold — and a label for a flat folder.
func (m *importer) importOptions(dir string) {
	centering := widget.NewRadioGroup([]string{centerMassText, centerBoxText}, nil)
	centering.Required = true
	centering.SetSelected(centerMassText)
	ink := widget.NewSelect(inkChoices, nil)
	ink.SetSelectedIndex(int(normalize.InkAuto))
	threshold := widget.NewEntry()
	threshold.SetPlaceHolder("auto (Otsu), or a grey level 1–255")
	only := widget.NewCheck("Only resize (images already MNIST-like)", nil)
	label := widget.NewEntry()
	label.SetPlaceHolder("for images not in label folders")
	form := widget.NewForm(
		widget.NewFormItem("Folder", widget.NewLabel(dir)),
		widget.NewFormItem("Centring", centering),
		widget.NewFormItem("Ink", ink),
		widget.NewFormItem("Threshold", threshold),
		widget.NewFormItem("", only),
		widget.NewFormItem("Label", label),
	)
	d := dialog.NewCustomConfirm("Import images", "Import", "Cancel", form, func(ok bool) {
		if !ok {
			return
		}
		l := sample.NoLabel
		if t := strings.TrimSpace(label.Text); t != "" {
			n, err := strconv.Atoi(t)
			if err != nil {
				m.d.showError(fmt.Errorf("label %q is not a class number", t))
				return
			}
			l = n
		}
		th, err := normalize.ParseThreshold(threshold.Text)
		if err != nil {
			m.d.showError(err)
			return
		}
		h, wd := m.c.ds.Size()
		opts := normalize.Options{Width: wd, Height: h, Polarity: normalize.Polarity(max(0, ink.SelectedIndex())), Threshold: th}
		if centering.Selected == centerBoxText {
			opts.Centering = normalize.CenterBox
		}
		m.run(dir, l, opts, !only.Checked)
	}, m.win)
	label.OnSubmitted = func(string) { d.Confirm() } // Enter imports, as elsewhere in the dialog
	threshold.OnSubmitted = label.OnSubmitted
	m.d.show("import options", d, d.Dismiss, d.Confirm, nil)
}

// run loads and normalizes the images off the UI thread with a progress bar, appends them in
// one undoable step and reports the files it skipped.
func (m *importer) run(dir string, label int, opts normalize.Options, normalizeDigit bool) {
	c := m.c
	files, skipped, err := importFiles(dir, label)
	if err != nil {
		m.d.showError(err)
		return
	}
	if files[0].Label == sample.NoLabel && c.ds.HasLabels() {
		m.d.showError(fmt.Errorf("%s holds images outside label folders: give them a label", dir))
		return
	}
	bar := widget.NewProgressBar()
	job := c.jobs.start(jobImporting, "")
	prog := dialog.NewCustom(fmt.Sprintf("Importing %d images", len(files)), "Cancel", bar, m.win)
	prog.SetOnClosed(job.cancel)
	prog.Show()
	ds := c.ds
	c.jobs.run(func() {
		var samples []store.Sample
		for k, f := range files {
			if job.ctx.Err() != nil {
				break // cancelled: nothing is added
			}
			px, err := normalize.LoadFile(f.Path, opts, normalizeDigit)
			if err != nil {
				skipped = append(skipped, err.Error())
			} else {
				samples = append(samples, store.Sample{Pixels: px, Label: f.Label})
			}
			if k%32 == 0 || k == len(files)-1 {
				frac := float64(k+1) / float64(len(files))
				c.jobs.schedule(func() { bar.SetValue(frac) })
			}
		}
		cancelled := job.ctx.Err() != nil
		c.jobs.schedule(func() {
			defer c.jobs.finish(job) // last: tests wait on it
			prog.SetOnClosed(func() {})
			prog.Hide()
			if cancelled {
				c.say("Import cancelled: nothing was added")
				return
			}
			if ds != c.ds {
				return // another dataset was opened meanwhile
			}
			if len(samples) > 0 {
				if _, err := c.add(store.HowAddedImported, samples); err != nil {
					m.d.showError(err)
					return
				}
			}
			m.report(dir, len(samples), skipped)
		})
	})
}

// report says how many samples came in and lists every file skipped, with the count and the
// reason, named within dir: a list of at most maxReportRows rows in sight, which scrolls (a list
// lays out only the rows in sight, so thousands of skipped files cost nothing). Enter or Escape
// closes it.
func (m *importer) report(dir string, added int, skipped []string) {
	text := fmt.Sprintf("Added %s.", plural(added, "sample"))
	if len(skipped) == 0 {
		m.d.inform("Import", text)
		return
	}
	text += fmt.Sprintf(" Skipped %s:", plural(len(skipped), "file"))
	names := make([]string, len(skipped))
	for k, s := range skipped {
		names[k] = strings.TrimPrefix(s, dir+string(filepath.Separator))
	}
	list := widget.NewList(func() int { return len(names) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis // a reason can be long: the row shows its start
			return l
		},
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(names[id]) })
	row := widget.NewLabel("X").MinSize().Height + theme.SeparatorThicknessSize()
	content := newFixedBorder(widget.NewLabel(text), list, fyne.NewSize(560, row*float32(min(len(names), maxReportRows)+1)))
	d := dialog.NewCustom("Import", "OK", content, m.win)
	m.d.show("import report", d, d.Hide, nil, nil)
}

// maxReportRows is how many skipped files the import report shows at once before it scrolls.
const maxReportRows = 12
