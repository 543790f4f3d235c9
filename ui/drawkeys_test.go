package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// In the draw window the keys mean the same whatever has the focus but the label box's text:
// a digit is the drawing's label, Enter adds it, Escape clears the pad. With the centring
// choice, the pen width or a button focused (a click on the choice or the slider focuses it,
// as Tab does; Tab focuses the label box's drop-down button too), or nothing focused (a click beside the controls), widget.RadioGroup,
// widget.Slider and widget.Button dropped them and the canvas had no handler; Enter in the
// label box did nothing either.
func TestDrawControlsPassKeys(t *testing.T) {
	_, d, ds := newDatasetWindow(t)
	c := d.Win.Canvas()
	controls := []struct {
		name string
		f    fyne.Focusable
	}{{"the centring choice", d.Centering}, {"the pen width", d.Pen}, {"Add", d.AddButton}, {"nothing", nil}}

	typeKey := func(f fyne.Focusable, k fyne.KeyName) {
		if f == nil {
			c.OnTypedKey()(&fyne.KeyEvent{Name: k})
			return
		}
		f.TypedKey(&fyne.KeyEvent{Name: k})
	}
	for n, ctl := range controls {
		drawSeven(d)
		if ctl.f == nil {
			c.Unfocus()
			if c.OnTypedRune() == nil || c.OnTypedKey() == nil {
				t.Fatal("the draw window's canvas has no key handlers: keys typed with nothing focused are dropped")
			}
			c.OnTypedRune()('3')
		} else {
			c.Focus(ctl.f)
			ctl.f.TypedRune('3')
		}
		if d.Label.Text != "3" {
			t.Fatalf("with %s focused, a typed 3 left the label box %q", ctl.name, d.Label.Text)
		}
		typeKey(ctl.f, fyne.KeyReturn)
		if ds.Len() != n+1 || ds.Label(n) != 3 || !d.Pad.Empty() {
			t.Fatalf("with %s focused, Enter: %d samples (want %d labelled 3), pad empty %v", ctl.name, ds.Len(), n+1, d.Pad.Empty())
		}
		drawSeven(d)
		if ctl.f != nil {
			c.Focus(ctl.f)
		}
		typeKey(ctl.f, fyne.KeyEscape)
		if !d.Pad.Empty() {
			t.Fatalf("with %s focused, Escape did not clear the pad", ctl.name)
		}
	}
	// The label box's drop-down button keeps Enter (which opens the list, as Space does) and
	// passes a digit and Escape on.
	drop, ok := d.Label.ActionItem.(fyne.Focusable)
	if !ok {
		t.Fatalf("the label box's drop-down button is a %T", d.Label.ActionItem)
	}
	drawSeven(d)
	c.Focus(drop)
	drop.TypedRune('6')
	if d.Label.Text != "6" {
		t.Fatalf("with the label box's drop-down button focused, a typed 6 left the label box %q", d.Label.Text)
	}
	drop.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if !d.Pad.Empty() {
		t.Fatal("with the label box's drop-down button focused, Escape did not clear the pad")
	}
	// Enter in the label box adds the drawing labelled as typed there.
	drawSeven(d)
	d.Label.SetText("") // the 6 typed above is still chosen: Escape clears the pad, not the label
	c.Focus(d.Label)
	test.Type(d.Label, "5")
	d.Label.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if n := len(controls); ds.Len() != n+1 || ds.Label(n) != 5 {
		t.Fatalf("5, Enter in the label box: %d samples, want %d with the last labelled 5", ds.Len(), n+1)
	}
}
