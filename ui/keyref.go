package ui

import (
	"fmt"
	"idxlabel/internal/version"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/mode"
	"runtime"
	"strings"

	"fyne.io/fyne/v2"
)

// The keyboard reference (Help → Keyboard, F1, ?): the keys no menu item carries, then every
// shortcut of the main menu, read from the menu itself so that the list cannot leave one out.

// gridKeyReference lists, in order, the keys and gestures that no menu item carries: those of
// the grid, the reviews, the health check, the map and the dialogs.
var gridKeyReference = []mode.Key{
	{Keys: "0–9", Does: "relabel the selection and move to the next sample"},
	{Keys: "A letter, or -", Does: "relabel with the class picker (classes above 9, named classes)"},
	{Keys: "Delete, Backspace", Does: "delete the selection (again: restore it)"},
	{Keys: "Arrows, Home, End, Page Up/Down", Does: "move the cursor; with Shift, extend the selection"},
	{Keys: "Click", Does: "select; Shift-click a range; Ctrl-click toggles one"},
	{Keys: "Escape", Does: "clear the selection; cancel a dialog; on the map: end the lasso"},
	{Keys: "Enter", Does: "in a dialog: its default answer"},
	{Keys: "Ctrl+Shift+Z", Does: "redo"},
	{Keys: "Ctrl+wheel", Does: "zoom the tiles"},
	{Keys: "In a review: Enter, Space", Does: "accept the suggested label"},
	{Keys: "In a review: 0–9 (or type a class)", Does: "set another label"},
	{Keys: "In a review: →", Does: "keep the label (Suspects), skip the sample (Suggested)"},
	{Keys: "In More like this: 0–9, →", Does: "label the sample, keep its label"},
	{Keys: "In More like this: Ctrl+A, then 0–9", Does: "relabel every sample listed"},
	{Keys: "In the health check: Delete", Does: "delete the sample (a duplicate's tile, a leak's copy here)"},
	{Keys: "In the health check: →", Does: "keep it as it is (a duplicate: keep both)"},
	{Keys: "On the map: drag, wheel", Does: "pan, zoom"},
	{Keys: "On the map: Shift+drag", Does: "lasso: the grid shows the samples inside, all selected"},
	{Keys: "On the map: Ctrl+Shift+drag", Does: "add to the lasso"},
	{Keys: "In the draw window: Enter, Escape", Does: "add the drawing; clear the pad"},
	{Keys: "In the draw window: Ctrl+Z, Ctrl+W", Does: "undo a stroke; close the window"},
	{Keys: "In the draw window: Ctrl+F", Does: "the samples most like the drawing"},
	{Keys: "F1, ?", Does: "this list"},
}

// keyReference returns the whole reference: gridKeyReference, then each item of menu that has a
// shortcut, as its keys and "Menu → Item".
func keyReference(menu *fyne.MainMenu) []mode.Key {
	out := append([]mode.Key(nil), gridKeyReference...)
	if menu == nil {
		return out
	}
	for _, m := range menu.Items {
		for _, it := range m.Items {
			if keys := shortcutText(it.Shortcut); keys != "" {
				out = append(out, mode.Key{Keys: keys, Does: m.Label + " → " + strings.TrimRight(it.Label, " ")})
			}
		}
	}
	return out
}

// shortcutText writes a keyboard shortcut as a person types it ("Ctrl+Shift+M"); "" for none.
func shortcutText(sc fyne.Shortcut) string {
	k, ok := sc.(fyne.KeyboardShortcut)
	if !ok || k == nil {
		return ""
	}
	var parts []string
	mod := k.Mod()
	for _, m := range []struct {
		mod  fyne.KeyModifier
		name string
	}{{fyne.KeyModifierControl, "Ctrl"}, {fyne.KeyModifierSuper, "Cmd"}, {fyne.KeyModifierAlt, "Alt"}, {fyne.KeyModifierShift, "Shift"}} {
		if mod&m.mod != 0 {
			parts = append(parts, m.name)
		}
	}
	return strings.Join(append(parts, string(k.Key())), "+")
}

// showKeys shows the keyboard reference (keyReference: the grid's keys, then every shortcut of
// the menu) in a dialog of d.
func (m *menuBar) showKeys(d *dialogs.Dialogs) {
	var rows [][2]string
	for _, k := range keyReference(m.menu) {
		rows = append(rows, [2]string{k.Keys, k.Does})
	}
	d.ShowTable("keys", "Keyboard", rows)
}

// showAbout is Help → About: the program's name and version (internal/version), what it is for,
// and the Go release it was built with.
func showAbout(d *dialogs.Dialogs) {
	d.Inform("About "+Title, fmt.Sprintf("%s %s\n\nCorrect, extend and build image datasets in the IDX format\n(MNIST, Fashion-MNIST, KMNIST, EMNIST, QMNIST).\n\nBuilt with %s. The command line: idxlabel --help.", Title, version.Version, runtime.Version()))
}
