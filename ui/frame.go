package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// frame is the main window's layout around the views: the side panel on the left, the detail
// panel on the right, the status bar below, and in the middle a line above (the banner) over the
// grid or a mode's own view. The controller shows the state in it through screen (banner,
// center, wide); each change lays out only when something changed, never for a key that did
// not.
type frame struct {
	content *fyne.Container // the window's content
	centre  *fyne.Container // the banner over the middle
	middle  *fyne.Container // the grid, or a mode's view
	banner  *widget.Label
	right   *fyne.Container // the detail panel, padded
	grid    fyne.CanvasObject
}

// newFrame lays out the views.
func newFrame(grid, side, detail, footer fyne.CanvasObject) *frame {
	f := &frame{middle: container.NewStack(grid), banner: widget.NewLabel(""), grid: grid}
	f.banner.Wrapping = fyne.TextWrapWord
	f.banner.Importance = widget.HighImportance
	f.banner.Hide()
	f.centre = container.NewBorder(f.banner, nil, nil, nil, f.middle)
	f.right = container.NewPadded(detail)
	f.content = container.NewBorder(nil, container.NewPadded(footer), container.NewPadded(side), f.right, f.centre)
	return f
}

// setBanner shows text on the line above the middle ("": no line).
func (f *frame) setBanner(text string) {
	if text == f.banner.Text && f.banner.Visible() == (text != "") {
		return // nothing changed: no layout for a key
	}
	f.banner.SetText(text)
	if text == "" {
		f.banner.Hide()
	} else {
		f.banner.Show()
	}
	f.centre.Refresh()
}

// center shows o in the middle (nil: the grid).
func (f *frame) center(o fyne.CanvasObject) {
	if o == nil {
		o = f.grid
	}
	if len(f.middle.Objects) == 1 && f.middle.Objects[0] == o {
		return
	}
	f.middle.Objects = []fyne.CanvasObject{o}
	f.middle.Refresh()
}

// wide gives the middle the detail panel's room too (on), or gives it back.
func (f *frame) wide(on bool) {
	if on == !f.right.Visible() {
		return // nothing changed: no layout for a key
	}
	if on {
		f.right.Hide()
	} else {
		f.right.Show()
	}
	f.content.Refresh()
}
