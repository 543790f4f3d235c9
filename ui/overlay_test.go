package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// walkOverlay calls visit on every object of the dialog on top of w (nothing when none is open),
// depth first through containers and widgets' renderers.
func walkOverlay(w *window, visit func(fyne.CanvasObject)) {
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		visit(o)
		switch x := o.(type) {
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				walk(c)
			}
		}
	}
	if top := w.win.Canvas().Overlays().Top(); top != nil {
		walk(top)
	}
}
