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

// importDialog asks for a folder of images and how to process them, then imports.
func (w *mainWindow) importDialog() {
	if w.ds == nil {
		return
	}
	fd := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil {
			w.showError(err)
			return
		}
		if u != nil {
			w.importOptions(u.Path())
		}
	}, w.win)
	fd.Resize(w.win.Canvas().Size().SubtractWidthHeight(40, 40))
	fd.Show()
}

// importOptions asks for the normalization options (and a label for a flat folder).
func (w *mainWindow) importOptions(dir string) {
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
				w.showError(fmt.Errorf("label %q is not a class number", t))
				return
			}
			l = n
		}
		h, wd := w.ds.Size()
		opts := normalize.Options{Width: wd, Height: h}
		if centering.Selected == centerBoxText {
			opts.Centering = normalize.CenterBox
		}
		w.runImport(dir, l, opts, !only.Checked)
	}, w.win)
}

// runImport loads and normalizes the images off the UI thread with a progress bar, appends them
// in one undoable step and reports the files it skipped.
func (w *mainWindow) runImport(dir string, label int, opts normalize.Options, normalizeDigit bool) {
	files, skipped, err := importFiles(dir, label)
	if err != nil {
		w.showError(err)
		return
	}
	if files[0].Label == store.NoLabel && w.ds.HasLabels() {
		w.showError(fmt.Errorf("%s holds images outside label folders: give them a label", dir))
		return
	}
	bar := widget.NewProgressBar()
	prog := dialog.NewCustomWithoutButtons(fmt.Sprintf("Importing %d images", len(files)), bar, w.win)
	prog.Show()
	w.busy.Store(true)
	ds := w.ds
	w.bg.Go(func() {
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
				fyne.Do(func() { bar.SetValue(frac) })
			}
		}
		fyne.Do(func() {
			defer w.busy.Store(false) // last: tests wait on it
			prog.Hide()
			if len(samples) > 0 {
				_, err := ds.AppendAs(store.HowAddedImported, samples)
				w.edited()
				if err != nil {
					w.showError(err)
					return
				}
			}
			w.showImportReport(len(samples), skipped)
		})
	})
}

// showImportReport says how many samples came in and lists the files skipped.
func (w *mainWindow) showImportReport(added int, skipped []string) {
	msg := fmt.Sprintf("Added %d sample(s).", added)
	if len(skipped) > 0 {
		shown := skipped[:min(len(skipped), 15)]
		msg += fmt.Sprintf("\n\nSkipped %d:\n%s", len(skipped), strings.Join(shown, "\n"))
		if len(skipped) > len(shown) {
			msg += fmt.Sprintf("\n… and %d more", len(skipped)-len(shown))
		}
	}
	dialog.ShowCustom("Import", "OK", container.NewVScroll(widget.NewLabel(msg)), w.win)
}
