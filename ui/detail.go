package ui

import (
	"fmt"
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/numfmt"
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/mode"
	"idxlabel/ui/widgets"
)

// detailSide is the detail view's minimum side, units: 8 per pixel of a 28×28 sample, and room
// for the review's four neighbours of 52 units in a row (aboutStrip), so the panel keeps its
// width in and out of the review and leaves the grid room at FYNE_SCALE=2.
const detailSide = 224

// detailState is what the detail panel shows: sample i (-1: none) in state st, its pixels h×w
// in display order, whether the dataset has files (so "as in the file" means something), the
// file it was imported from (store.Dataset.Source; "" for none), the class names, and what the
// mode says of it.
type detailState struct {
	i        int
	st       store.State
	px       []byte
	h, w     int
	fromFile bool
	source   string
	classes  classes.Names
	about    mode.About
}

// detailPanel is the right column: the sample at the cursor, large, with its index, label,
// original label and state, the file it was imported from, the value of the pixel under the
// mouse, and what the mode says of it (a suspect's suggestion and nearest samples). It reports a click on a thumbnail (onGoto:
// the sample it shows).
type detailPanel struct {
	root   fyne.CanvasObject
	title  *widget.Label
	pixels *widgets.PixelView
	info   *widget.Label
	hover  *widget.Label
	about  *aboutStrip
	onGoto func(i int)
}

func newDetailPanel(onGoto func(i int)) *detailPanel {
	hover := widget.NewLabel(" ")
	d := &detailPanel{
		onGoto: onGoto,
		title:  widget.NewLabelWithStyle("No sample", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		pixels: widgets.NewPixelView(detailSide, func(r, c, v int, in bool) {
			if in {
				hover.SetText(fmt.Sprintf("pixel (row %d, col %d) = %d", r, c, v))
			} else {
				hover.SetText(" ")
			}
		}),
		info:  widget.NewLabel(""),
		hover: hover,
		about: newAboutStrip(func(i int) {
			if onGoto != nil {
				onGoto(i)
			}
		}),
	}
	d.info.Wrapping = fyne.TextWrapWord
	d.root = container.NewVScroll(container.NewVBox(d.title, d.pixels, d.info, d.hover, d.about.root))
	return d
}

// show displays s.
func (d *detailPanel) show(s detailState) {
	d.about.show(s.about)
	if s.i < 0 {
		widgets.SetText(d.title, "No sample")
		widgets.SetText(d.info, "")
		d.pixels.Set(nil, 0, 0)
		return
	}
	st, name := s.st, s.classes.Long
	widgets.SetText(d.title, numfmt.Sprintf("Sample %d", s.i))
	d.pixels.Set(s.px, s.h, s.w)
	text := "label " + name(st.Label)
	// A dataset with no files yet (the demo, a new one) has no "file" to compare with.
	// Edited and Added compare with the files as they were opened, saves or not.
	switch {
	case st.Added && s.fromFile:
		text += "\nadded since the files were opened"
	case st.Added:
		text += "\nadded since the dataset was opened"
	case st.Edited && s.fromFile:
		text += "\nwhen opened: " + name(st.Original)
	case st.Edited:
		text += "\nat first: " + name(st.Original)
	case s.fromFile && !st.Unsaved:
		text += " (as in the file)"
	case s.fromFile:
		text += " (as when opened; not saved)" // an edit saved, then undone
	default:
		text += " (as generated)"
	}
	if s.source != "" {
		text += "\nfrom " + s.source
	}
	if st.Deleted {
		text += "\ndeleted: removed when saved"
	}
	widgets.SetText(d.info, text)
}

// aboutStrip shows what the mode says of the sample at the cursor, under the detail view: a
// line of text and thumbnails with captions, four to a row (a suspect's nearest samples), or
// two to a row when large (a duplicate's copies, to compare with the sample above); a click on a
// thumbnail reports its sample (onTap).
type aboutStrip struct {
	root  *fyne.Container
	title *widget.Label
	onTap func(i int)
}

// newAboutStrip builds the strip, which reports a tap on a thumbnail of sample i to onTap.
func newAboutStrip(onTap func(i int)) *aboutStrip {
	a := &aboutStrip{onTap: onTap, title: widget.NewLabel("")}
	a.title.Wrapping = fyne.TextWrapWord // wraps within the detail panel instead of widening it
	a.root = container.NewVBox()
	return a
}

// show shows ab (the zero about: nothing).
func (a *aboutStrip) show(ab mode.About) {
	a.root.Objects = nil
	if ab.Text != "" {
		a.title.SetText(ab.Text)
		a.root.Objects = []fyne.CanvasObject{a.title}
	}
	if len(ab.Thumbs) > 0 {
		cols, side := 4, float32(52) // four fit detailSide
		if ab.Large {
			cols, side = 2, 108
		}
		grid := container.NewGridWithColumns(cols)
		for _, t := range ab.Thumbs {
			img := canvas.NewImageFromImage(&image.Gray{Pix: t.Px, Stride: t.W, Rect: image.Rect(0, 0, t.W, t.H)})
			img.ScaleMode = canvas.ImageScalePixels
			img.SetMinSize(fyne.NewSquareSize(side))
			// Small text without a label's padding: four thumbnails fit the detail panel's
			// width, so a review does not narrow the grid (and change its column count).
			label := canvas.NewText(t.Caption, theme.Color(theme.ColorNameForeground))
			label.TextSize = theme.CaptionTextSize()
			label.Alignment = fyne.TextAlignCenter
			cell := fyne.CanvasObject(container.NewVBox(img, label))
			if t.Link {
				cell = widgets.NewTapTarget(cell, func() { a.onTap(t.I) })
			}
			grid.Add(cell)
		}
		a.root.Add(grid)
	}
	a.root.Refresh()
}
