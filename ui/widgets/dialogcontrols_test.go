package widgets

import (
	"bytes"
	"image"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A focused dialog's choice hands a digit, a letter, Escape, Enter and Delete on to the canvas
// (where Escape and Enter answer the dialog), and keeps Left and Right, which step through its
// options (Save As's format list is stepped with Right), and Space, which opens its menu. A
// widget.Select dropped Escape and Enter.
func TestDialogSelectPassesKeys(t *testing.T) {
	var changes []string
	s := NewDialogSelect([]string{"PNG", "CSV", "npz"}, func(o string) { changes = append(changes, o) })
	s.SetSelectedIndex(0)
	changes = nil
	var got passed
	c := focusedIn(t, s, &got)
	test.Type(s, "7a")
	passes := []fyne.KeyName{fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter, fyne.KeyDelete}
	for _, k := range passes {
		s.TypedKey(&fyne.KeyEvent{Name: k})
	}
	if len(changes) != 0 || c.Overlays().Top() != nil {
		t.Fatalf("typing on the focused choice changed it (%v) or opened its menu", changes)
	}
	if string(got.runes) != "7a" || !slices.Equal(got.keys, passes) {
		t.Errorf("the focused choice passed runes %q and keys %v, want \"7a\" and %v", string(got.runes), got.keys, passes)
	}
	for _, k := range []fyne.KeyName{fyne.KeyRight, fyne.KeyRight, fyne.KeyLeft, fyne.KeyLeft, fyne.KeyLeft} {
		s.TypedKey(&fyne.KeyEvent{Name: k})
	}
	if want := []string{"CSV", "npz", "CSV", "PNG", "npz"}; !slices.Equal(changes, want) {
		t.Errorf("Right, Right, Left, Left, Left on the focused choice chose %v, want %v", changes, want)
	}
	s.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	s.TypedRune(' ')
	if c.Overlays().Top() == nil {
		t.Errorf("Space on the focused choice did not open its menu")
	}
	if len(got.keys) != len(passes) || len(got.runes) != 2 {
		t.Errorf("the arrows or Space were passed on too: runes %q, keys %v", string(got.runes), got.keys)
	}
}

// embeddedSelect is a widget that embeds a DialogSelect, as the Save As dialog's format list.
type embeddedSelect struct {
	DialogSelect
}

// A widget embedding a DialogSelect passes the keys to the canvas it is on (the embedded choice
// itself is on none).
func TestEmbeddedDialogSelectPassesKeys(t *testing.T) {
	s := &embeddedSelect{}
	s.Options = []string{"IDX", "CSV"}
	s.ExtendBaseWidget(s)
	var got passed
	focusedIn(t, s, &got)
	s.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	s.TypedRune('7')
	if string(got.runes) != "7" || !slices.Equal(got.keys, []fyne.KeyName{fyne.KeyEscape}) {
		t.Errorf("the embedding choice passed runes %q and keys %v, want \"7\" and [Escape]", string(got.runes), got.keys)
	}
}

// A focused button of a passing radio group hands a digit, a letter, Escape, Enter, Delete and
// the arrows on to the canvas, and Space chooses it; Tab reaches each button; a chosen button
// of a Required group tapped again stays chosen. A widget.RadioGroup's buttons dropped them.
func TestPassingRadioGroupPassesKeys(t *testing.T) {
	var changes []string
	r := NewPassingRadioGroup([]string{"Digits", "Classes", "From a file"}, func(o string) { changes = append(changes, o) })
	r.Required = true
	r.SetSelected("Digits")
	changes = nil
	var got passed
	a := test.NewTempApp(t)
	win := a.NewWindow("t")
	t.Cleanup(win.Close)
	win.SetContent(container.NewVBox(r))
	c := win.Canvas()
	c.SetOnTypedRune(func(x rune) { got.runes = append(got.runes, x) })
	c.SetOnTypedKey(func(k *fyne.KeyEvent) { got.keys = append(got.keys, k.Name) })
	c.FocusNext()
	c.FocusNext() // Tab, Tab: the second button
	f := c.Focused()
	if _, ok := f.(*passingRadio); !ok {
		t.Fatalf("Tab, Tab focused %T, not a radio button", f)
	}
	test.Type(f, "7a")
	passes := []fyne.KeyName{fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter, fyne.KeyDelete, fyne.KeyLeft, fyne.KeyRight, fyne.KeyUp, fyne.KeyDown}
	for _, k := range passes {
		f.TypedKey(&fyne.KeyEvent{Name: k})
	}
	if len(changes) != 0 || r.Selected != "Digits" {
		t.Fatalf("typing on the focused radio button chose %v (%q)", changes, r.Selected)
	}
	if string(got.runes) != "7a" || !slices.Equal(got.keys, passes) {
		t.Errorf("the focused radio button passed runes %q and keys %v, want \"7a\" and %v", string(got.runes), got.keys, passes)
	}
	test.Type(f, " ")
	f.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if r.Selected != "Classes" || !slices.Equal(changes, []string{"Classes"}) {
		t.Errorf("Space on the second radio button: chosen %q, changes %v", r.Selected, changes)
	}
	f.(*passingRadio).Tapped(nil)
	if r.Selected != "Classes" || len(changes) != 1 {
		t.Errorf("the chosen button of a Required group tapped again: chosen %q, changes %v", r.Selected, changes)
	}
	if len(got.keys) != len(passes) || len(got.runes) != 2 {
		t.Errorf("Space was passed on too: runes %q, keys %v", string(got.runes), got.keys)
	}
}

// A passing radio group looks as Fyne's: the same pixels in the light and the dark theme,
// with a button chosen, unfocused and with the second button focused by Tab.
func TestPassingRadioGroupLooksAsFynes(t *testing.T) {
	options := []string{"The open dataset: mine (200 samples, 10 classes)", "A new dataset of 28×28 samples"}
	for k, th := range []fyne.Theme{theme.LightTheme(), theme.DarkTheme()} { //nolint:staticcheck // the two variants, as a person chooses them
		shot := func(make func() fyne.CanvasObject, focus bool) image.Image {
			a := test.NewTempApp(t)
			a.Settings().SetTheme(th)
			win := a.NewWindow("t")
			defer win.Close()
			win.SetContent(container.NewVBox(make()))
			win.Resize(fyne.NewSize(480, 160))
			if focus {
				win.Canvas().FocusNext()
				win.Canvas().FocusNext()
			}
			return win.Canvas().Capture()
		}
		fy := func() fyne.CanvasObject {
			r := widget.NewRadioGroup(options, nil)
			r.SetSelected(options[0])
			return r
		}
		ours := func() fyne.CanvasObject {
			r := NewPassingRadioGroup(options, nil)
			r.SetSelected(options[0])
			return r
		}
		for _, focus := range []bool{false, true} {
			want, got := shot(fy, focus), shot(ours, focus)
			if !samePixels(want, got) {
				t.Errorf("theme %d, focused %v: the passing radio group is drawn otherwise than Fyne's", k, focus)
			}
		}
	}
}

// samePixels reports whether a and b are the same picture.
func samePixels(a, b image.Image) bool {
	ra, rb := a.(*image.NRGBA), b.(*image.NRGBA)
	return ra.Rect == rb.Rect && bytes.Equal(ra.Pix, rb.Pix)
}
