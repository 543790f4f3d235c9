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

// squareLayout places its one object as the largest square that fits, centred (the drawing pad:
// a stretched pad would distort what is drawn).
type squareLayout struct{}

func (squareLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	side := min(size.Width, size.Height)
	objs[0].Resize(fyne.NewSquareSize(side))
	objs[0].Move(fyne.NewPos((size.Width-side)/2, (size.Height-side)/2))
}

func (squareLayout) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }
