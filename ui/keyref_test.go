package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/version"
)

// Help → Keyboard lists every shortcut of the main menu (read from the menu, so none can be left
// out again: Ctrl+M, Ctrl+Shift+M and Ctrl+Shift+E were) and the map's lasso.
func TestKeyboardReferenceListsEveryMenuShortcut(t *testing.T) {
	w, _ := demoWindow(t, true)
	w.menu.showKeys(w.d)
	var shown []string
	walkOverlay(w, func(o fyne.CanvasObject) {
		if tx, ok := o.(*canvas.Text); ok {
			shown = append(shown, tx.Text)
		}
	})
	text := "\n" + strings.Join(shown, "\n") + "\n"
	n := 0
	for _, m := range w.menu.menu.Items {
		for _, it := range m.Items {
			if keys := shortcutText(it.Shortcut); keys != "" {
				n++
				if !strings.Contains(text, "\n"+keys+"\n") {
					t.Errorf("%s → %s (%s) is not in the keyboard reference", m.Label, it.Label, keys)
				}
			}
		}
	}
	for _, want := range []string{"Ctrl+M", "Ctrl+Shift+M", "Ctrl+Shift+E", "On the map: Shift+drag", "Tools → Map of the Dataset"} {
		if !strings.Contains(text, "\n"+want+"\n") {
			t.Errorf("%q is not in the keyboard reference", want)
		}
	}
	if n < 15 {
		t.Fatalf("only %d menu shortcuts found", n)
	}
}

// Help → About names the program's version.
func TestAboutNamesTheVersion(t *testing.T) {
	w, _ := demoWindow(t, true)
	menuItem(t, w, "Help", "About IDX Labeler").Action()
	found := false
	walkOverlay(w, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "IDX Labeler "+version.Version) {
			found = true
		}
	})
	if !found {
		t.Fatal("Help → About does not name the version")
	}
}
