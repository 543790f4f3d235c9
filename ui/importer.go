package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"idxlabel/normalize"
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

// importOptions asks for the normalization options (and a label for a flat folder).
func (m *importer) importOptions(dir string) {
	centering := widget.NewRadioGroup([]string{centerMassText, centerBoxText}, nil)
	centering.Required = true
	centering.SetSelected(centerMassText)
	only := widget.NewCheck("Only resize (images already MNIST-like)", nil)
	label := widget.NewEntry()
	label.SetPlaceHolder("for images not in label folders")
	form := widget.NewForm(
		widget.NewFormItem("Folder", widget.NewLabel(dir)),
		widget.NewFormItem("Centring", centering),
		widget.NewFormItem("", only),
		widget.NewFormItem("Label", label),
	)
	dialog.ShowCustomConfirm("Import images", "Import", "Cancel", form, func(ok bool) {
		if !ok {
			return
		}
		l := store.NoLabel
		if t := strings.TrimSpace(label.Text); t != "" {
			n, err := strconv.Atoi(t)
			if err != nil {
				m.d.showError(fmt.Errorf("label %q is not a class number", t))
				return
			}
			l = n
		}
		h, wd := m.c.ds.Size()
		opts := normalize.Options{Width: wd, Height: h}
		if centering.Selected == centerBoxText {
			opts.Centering = normalize.CenterBox
		}
		m.run(dir, l, opts, !only.Checked)
	}, m.win)
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
	if files[0].Label == store.NoLabel && c.ds.HasLabels() {
		m.d.showError(fmt.Errorf("%s holds images outside label folders: give them a label", dir))
		return
	}
	bar := widget.NewProgressBar()
	prog := dialog.NewCustomWithoutButtons(fmt.Sprintf("Importing %d images", len(files)), bar, m.win)
	prog.Show()
	job := c.jobs.start(jobImporting, "")
	ds := c.ds
	c.jobs.run(func() {
		var samples []store.Sample
		for k, f := range files {
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
		c.jobs.schedule(func() {
			defer c.jobs.finish(job) // last: tests wait on it
			prog.Hide()
			if ds != c.ds {
				return // another dataset was opened meanwhile
			}
			if len(samples) > 0 {
				if _, err := c.add(store.HowAddedImported, samples); err != nil {
					m.d.showError(err)
					return
				}
			}
			m.report(len(samples), skipped)
		})
	})
}

// report says how many samples came in and lists the files skipped.
func (m *importer) report(added int, skipped []string) {
	msg := fmt.Sprintf("Added %d sample(s).", added)
	if len(skipped) > 0 {
		shown := skipped[:min(len(skipped), 15)]
		msg += fmt.Sprintf("\n\nSkipped %d:\n%s", len(skipped), strings.Join(shown, "\n"))
		if len(skipped) > len(shown) {
			msg += fmt.Sprintf("\n… and %d more", len(skipped)-len(shown))
		}
	}
	dialog.ShowCustom("Import", "OK", container.NewVScroll(widget.NewLabel(msg)), m.win)
}
