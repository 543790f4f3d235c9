package platform

import (
	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// FitScreen shrinks the window, once it is shown, to fit the primary monitor's work area (the
// screen less panels) when its size at the window's scale does not: at FYNE_SCALE=2 the default
// 1280×820 units would ask for 2560×1640 pixels on a 1400×900 screen. Fyne has no screen-size
// API, so the monitor comes from GLFW, the driver under it; it runs on the UI thread (fyne.Do),
// as GLFW requires, after the window has its real scale.
func FitScreen(win fyne.Window) {
	go fyne.Do(func() {
		mon := glfw.GetPrimaryMonitor()
		if mon == nil {
			return
		}
		_, _, sw, sh := mon.GetWorkarea()
		scale := win.Canvas().Scale()
		if sw <= 0 || sh <= 0 || scale <= 0 {
			return
		}
		size := win.Canvas().Size()
		// Leave room for the window's frame and title bar (about 5% of the screen).
		maxW, maxH := 0.95*float32(sw)/scale, 0.92*float32(sh)/scale
		if size.Width <= maxW && size.Height <= maxH {
			return
		}
		win.Resize(fyne.NewSize(min(size.Width, maxW), min(size.Height, maxH)))
	})
}
