package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
)

// newFixedBorder puts top above center in a box of at least size (dialogs size themselves to
// their content's minimum, which for a list is one row).
func newFixedBorder(top, center fyne.CanvasObject, size fyne.Size) fyne.CanvasObject {
	space := canvas.NewRectangle(color.Transparent)
	space.SetMinSize(size)
	return container.NewStack(space, container.NewBorder(top, nil, nil, nil, center))
}
