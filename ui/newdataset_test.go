package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"idxlabel/ui/dialogs"
	"idxlabel/ui/widgets"
)

// newDatasetParts opens File → New Dataset… in w and returns its fields (height, width, N, class
// file), its class choice, its row labels by text and its confirm button.
func newDatasetParts(t *testing.T, w *window) ([]*dialogs.PromptEntry, *widgets.PassingRadioGroup, map[string]*canvas.Text, *widgets.PassingButton) {
	t.Helper()
	w.files.newDatasetForm()
	var entries []*dialogs.PromptEntry
	var kind *widgets.PassingRadioGroup
	var create *widgets.PassingButton
	labels := map[string]*canvas.Text{}
	walkOverlay(w, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *dialogs.PromptEntry:
			entries = append(entries, x)
		case *widgets.PassingRadioGroup:
			kind = x
		case *widgets.PassingButton:
			if x.Text == "Create" {
				create = x
			}
		case *canvas.Text:
			labels[x.Text] = x
		}
	})
	if len(entries) != 4 || kind == nil || create == nil || labels["N"] == nil || labels["Class file"] == nil {
		t.Fatalf("found %d fields, radio %v, Create %v, labels N %v and Class file %v; want height, width, N, class file, the class choice and their labels",
			len(entries), kind != nil, create != nil, labels["N"] != nil, labels["Class file"] != nil)
	}
	return entries, kind, labels, create
}

// TestNewDatasetDisablesUnusedFields: N applies to "Classes 0 to N−1" only, the class file (and
// its Choose…) to "From a class-name file" only; each one's label is grey exactly while it is
// disabled, by the one rule of the form's rows (dialogs.EnableRow). Before, N's label stayed grey
// once N was enabled; the class file's label, its row a container the form could not grey, was
// never grey.
func TestNewDatasetDisablesUnusedFields(t *testing.T) {
	w, _ := demoWindow(t, true)
	entries, kind, labels, _ := newDatasetParts(t, w)
	n, file := entries[2], entries[3]
	for _, c := range []struct {
		choice      string
		nOn, fileOn bool
	}{{classesDigits, false, false}, {classesCount, true, false}, {classesFile, false, true}, {classesDigits, false, false}} {
		kind.SetSelected(c.choice)
		if n.Disabled() == c.nOn || file.Disabled() == c.fileOn {
			t.Errorf("%s: N enabled %v, class file enabled %v; want %v, %v", c.choice, !n.Disabled(), !file.Disabled(), c.nOn, c.fileOn)
		}
		for _, l := range []struct {
			label string
			on    bool
		}{{"N", c.nOn}, {"Class file", c.fileOn}} {
			want := theme.ColorNameDisabled
			if l.on {
				want = theme.ColorNameForeground
			}
			if v := fyne.CurrentApp().Settings().ThemeVariant(); labels[l.label].Color != n.Theme().Color(want, v) {
				t.Errorf("%s: %s's label is drawn %v, want %s (%v)", c.choice, l.label, labels[l.label].Color, want, n.Theme().Color(want, v))
			}
		}
	}
}

// TestNewDatasetLaidOutClear lays New Dataset out as the window draws it (the light and the
// dark theme's sizes): every field shows its whole placeholder without scrolling (before, the
// class file's placeholder, wider than its field, scrolled there over a horizontal scroll bar),
// and the last row (the class file) stands clear of the buttons by more than Fyne's
// theme.Padding() (before, 4 units: its scroll bar was drawn against them).
func TestNewDatasetLaidOutClear(t *testing.T) {
	for _, th := range []fyne.Theme{theme.LightTheme(), theme.DarkTheme()} { //nolint:staticcheck // the two variants, as a person chooses them
		w, _ := demoWindow(t, true)
		fyne.CurrentApp().Settings().SetTheme(th)
		entries, kind, _, create := newDatasetParts(t, w)
		kind.SetSelected(classesFile)
		d := fyne.CurrentApp().Driver()
		for k, e := range entries {
			var scroll *container.Scroll
			for _, o := range test.WidgetRenderer(e).Objects() {
				if s, ok := o.(*container.Scroll); ok {
					scroll = s
				}
			}
			if scroll == nil {
				t.Fatalf("field %d (%q) has no scroller", k, e.PlaceHolder)
			}
			if need, has := scroll.Content.MinSize().Width, scroll.Size().Width; need > has {
				t.Errorf("field %d (placeholder %q) is %.0f wide, its text or placeholder %.0f: it scrolls, a scroll bar under it", k, e.PlaceHolder, has, need)
			}
		}
		file := entries[3]
		bottom := d.AbsolutePositionForObject(file).Y + file.Size().Height
		top := d.AbsolutePositionForObject(create).Y
		if gap := top - bottom; gap <= theme.Padding() {
			t.Errorf("the class file's field ends %.0f above the buttons: drawn against them", gap)
		}
	}
}
