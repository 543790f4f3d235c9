package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// narrowestWindow is the narrowest the main window is laid out (units): the default 1280×820
// window fitted to a screen 1,280 pixels wide at scale 2 (platform.FitScreen: 95% of the screen's
// width, 608 units).
const narrowestWindow = 0.95 * 1280 / 2

// menuPlaces returns where Fyne's menu bar (the desktop driver's, internal/driver/glfw/menu_bar.go)
// puts the left edge of each of menus' pop-ups, the one under its title: the bar's titles in a
// box at theme.InnerPadding() from the window's edge, theme.Padding() apart, each title's text
// with theme.InnerPadding() either side; a pop-up at its title's left edge. Fyne never moves a pop-up left to fit the window: what passes the
// window's right edge is cut there.
func menuPlaces(menus []*fyne.Menu) []float32 {
	inner, pad := theme.InnerPadding(), theme.Padding()
	x := inner
	places := make([]float32, len(menus))
	for k, m := range menus {
		places[k] = x
		x += fyne.MeasureText(m.Label, theme.TextSize(), fyne.TextStyle{}).Width + 2*inner + pad
	}
	return places
}

// Every menu, laid out as Fyne lays it out (the light and the dark theme's sizes), fits the
// narrowest window from where it opens: its items' shortcuts are not cut at the window's right
// edge. Before, Tools' longest item ("Accept Suggestions (Class Above the Cursor's Confidence, or
// the Selection)") made the menu 591 units wide from 146: at scale 1.75 its shortcuts touched the
// window's edge, at scale 2 they were cut off.
func TestMenusFitTheWindow(t *testing.T) {
	for _, th := range []fyne.Theme{theme.LightTheme(), theme.DarkTheme()} { //nolint:staticcheck // the two variants, as a person chooses them
		w := newTestWindow(t)
		fyne.CurrentApp().Settings().SetTheme(th)
		menus := w.menu.menu.Items
		for k, x := range menuPlaces(menus) {
			m := widget.NewMenu(menus[k])
			if right := x + m.MinSize().Width; right > narrowestWindow {
				t.Errorf("the %s menu spans %.0f to %.0f: past the right edge of a window %.0f wide", menus[k].Label, x, right, float32(narrowestWindow))
			}
			t.Logf("%s: %.0f..%.0f", menus[k].Label, x, x+m.MinSize().Width)
		}
	}
}
