package widgets

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// passed is what reached a window canvas's own key and character handlers.
type passed struct {
	runes []rune
	keys  []fyne.KeyName
}

// focusedIn shows control in a window whose canvas records what reaches its handlers in got,
// focuses control with Tab (as a person would) and returns the canvas.
func focusedIn(t *testing.T, control fyne.Focusable, got *passed) fyne.Canvas {
	t.Helper()
	a := test.NewTempApp(t)
	win := a.NewWindow("t")
	t.Cleanup(win.Close)
	win.SetContent(container.NewVBox(control.(fyne.CanvasObject)))
	c := win.Canvas()
	c.SetOnTypedRune(func(r rune) { got.runes = append(got.runes, r) })
	c.SetOnTypedKey(func(k *fyne.KeyEvent) { got.keys = append(got.keys, k.Name) })
	c.FocusNext() // Tab
	if c.Focused() != control {
		t.Fatalf("Tab focused %T, not the control", c.Focused())
	}
	return c
}

// typeEditing types a digit, a letter, Escape and the arrows to the focused control f.
func typeEditing(f fyne.Focusable) {
	test.Type(f, "7a")
	for _, k := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyLeft, fyne.KeyRight, fyne.KeyDelete} {
		f.TypedKey(&fyne.KeyEvent{Name: k})
	}
}

// wantPassed fails unless got holds exactly what typeEditing typed (plus more keys).
func wantPassed(t *testing.T, what string, got passed, more ...fyne.KeyName) {
	t.Helper()
	keys := append([]fyne.KeyName{fyne.KeyEscape, fyne.KeyLeft, fyne.KeyRight, fyne.KeyDelete}, more...)
	if string(got.runes) != "7a" || !slices.Equal(got.keys, keys) {
		t.Errorf("the focused %s passed runes %q and keys %v to the canvas, want \"7a\" and %v", what, string(got.runes), got.keys, keys)
	}
}

// A focused passing button hands a digit, a letter, Escape and the arrows to the canvas's
// handlers, as if nothing had the focus, and is still pressed by Space and Enter (which it
// keeps). A widget.Button dropped them all.
func TestPassingButtonPassesKeys(t *testing.T) {
	pressed := 0
	b := NewPassingButton("Every confusion", func() { pressed++ })
	var got passed
	focusedIn(t, b, &got)
	typeEditing(b)
	if pressed != 0 {
		t.Fatalf("typing on the focused button pressed it %d times", pressed)
	}
	wantPassed(t, "button", got)
	for n, k := range []fyne.KeyName{fyne.KeySpace, fyne.KeyReturn, fyne.KeyEnter} {
		b.TypedKey(&fyne.KeyEvent{Name: k})
		if k == fyne.KeySpace {
			b.TypedRune(' ')
		}
		if pressed != n+1 {
			t.Errorf("%s on the focused button: pressed %d times, want %d", k, pressed, n+1)
		}
	}
	wantPassed(t, "button (after Space and Enter)", got)
}

// A focused passing check box hands the editing keys on, and Space still toggles it.
func TestPassingCheckPassesKeys(t *testing.T) {
	var changes []bool
	c := NewPassingCheck("Hide the diagonal", func(on bool) { changes = append(changes, on) })
	var got passed
	focusedIn(t, c, &got)
	typeEditing(c)
	if len(changes) != 0 || c.Checked {
		t.Fatalf("typing on the focused check box changed it: %v", changes)
	}
	wantPassed(t, "check box", got)
	test.Type(c, " ") // Space's key and character, as a keyboard types them
	c.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if !c.Checked || !slices.Equal(changes, []bool{true}) {
		t.Errorf("Space on the focused check box: checked %v, changes %v", c.Checked, changes)
	}
	wantPassed(t, "check box (after Space)", got)
}

// A focused passing choice hands the editing keys on (Left and Right too, which a
// widget.Select uses to step through its options), and Space still opens its menu.
func TestPassingSelectPassesKeys(t *testing.T) {
	var changes []string
	s := NewPassingSelect([]string{"Given label", "Suggested label"}, func(o string) { changes = append(changes, o) })
	s.SetSelected("Given label")
	changes = nil
	var got passed
	c := focusedIn(t, s, &got)
	typeEditing(s)
	if len(changes) != 0 || s.Selected != "Given label" || c.Overlays().Top() != nil {
		t.Fatalf("typing on the focused choice changed it (%v, %q) or opened its menu", changes, s.Selected)
	}
	wantPassed(t, "choice", got)
	s.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	s.TypedRune(' ')
	if c.Overlays().Top() == nil {
		t.Errorf("Space on the focused choice did not open its menu")
	}
	wantPassed(t, "choice (after Space)", got)
}

// A focused passing list hands the editing keys on (Left and Right too: a list does not use
// them), and Down, Space and Enter still move its focus and select the row.
func TestPassingListPassesKeys(t *testing.T) {
	rows := []string{"All", "0", "1"}
	var chose []int
	l := NewPassingList(func() int { return len(rows) }, func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(rows[id]) })
	l.OnSelected = func(id widget.ListItemID) { chose = append(chose, id) }
	var got passed
	focusedIn(t, l, &got)
	typeEditing(l)
	if len(chose) != 0 {
		t.Fatalf("typing on the focused list selected %v", chose)
	}
	wantPassed(t, "list", got)
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	test.Type(l, " ")
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // which a widget.List dropped
	if !slices.Equal(chose, []int{1, 2}) {
		t.Errorf("Down, Space, Down, Enter on the focused list selected %v, want [1 2]", chose)
	}
	wantPassed(t, "list (after Down, Space and Enter)", got)
}

// FocusRow follows the keyboard's row (Fyne's own, read through reflect: this fails if Fyne
// renames it); a row left beyond the last by a change of the rows is moved to the first when
// the list gains the focus or is typed on, and FocusFirst moves it there.
func TestPassingListFocusRow(t *testing.T) {
	rows := []string{"a", "b", "c", "d", "e"}
	var chose []int
	l := NewPassingList(func() int { return len(rows) }, func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(rows[id]) })
	l.OnSelected = func(id widget.ListItemID) { chose = append(chose, id) }
	var got passed
	focusedIn(t, l, &got)
	for range 3 {
		l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	}
	if r := l.FocusRow(); r != 3 {
		t.Fatalf("after Down Down Down the keyboard's row is %d, want 3", r)
	}
	rows = rows[:2]
	l.Refresh()
	l.FocusGained()
	if r := l.FocusRow(); r != 0 {
		t.Fatalf("gaining the focus with its row beyond the last: row %d, want 0", r)
	}
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	rows = rows[:1]
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if !slices.Equal(chose, []int{0}) {
		t.Fatalf("Space with the row beyond the last selected %v, want [0]", chose)
	}
	rows = []string{"a", "b", "c"}
	l.UnselectAll()
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	l.FocusFirst()
	if r := l.FocusRow(); r != 0 {
		t.Fatalf("FocusFirst left the row at %d", r)
	}
}

// A focused dialog list hands Enter on too (to the dialog, as Escape), and Space still selects
// the focused row; a passing list's OnEntered runs after Enter selected the row.
func TestDialogListPassesEnter(t *testing.T) {
	rows := []string{"0/", "1/"}
	var chose []int
	entered := 0
	l := NewDialogList(func() int { return len(rows) }, func() fyne.CanvasObject { return widget.NewLabel("") },
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(rows[id]) })
	l.OnSelected = func(id widget.ListItemID) { chose = append(chose, id) }
	var got passed
	focusedIn(t, l, &got)
	typeEditing(l)
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnter})
	if len(chose) != 0 {
		t.Fatalf("typing on the focused dialog list selected %v", chose)
	}
	wantPassed(t, "dialog list", got, fyne.KeyReturn, fyne.KeyEnter)
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if !slices.Equal(chose, []int{1}) {
		t.Errorf("Down, Space on the focused dialog list selected %v, want [1]", chose)
	}

	p := NewPassingList(l.Length, l.CreateItem, l.UpdateItem)
	chose = nil
	p.OnSelected = func(id widget.ListItemID) { chose = append(chose, id) }
	p.OnEntered = func() {
		if entered++; !slices.Equal(chose, []int{0}) {
			t.Errorf("OnEntered ran before the row was selected (%v)", chose)
		}
	}
	var got2 passed
	focusedIn(t, p, &got2)
	p.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if entered != 1 || len(got2.keys) != 0 {
		t.Errorf("Enter on the focused passing list: OnEntered ran %d times, keys passed %v", entered, got2.keys)
	}
}

// A focused passing slider hands a digit, a letter, Escape and Delete on, and keeps the arrows:
// Up and Down step it as Right and Left do.
func TestPassingSliderPassesKeys(t *testing.T) {
	s := NewPassingSlider(10, 20)
	s.SetValue(15)
	var got passed
	focusedIn(t, s, &got)
	test.Type(s, "7a")
	for _, k := range []fyne.KeyName{fyne.KeyEscape, fyne.KeyDelete} {
		s.TypedKey(&fyne.KeyEvent{Name: k})
	}
	if s.Value != 15 {
		t.Fatalf("typing on the focused slider moved it to %v", s.Value)
	}
	for _, k := range []fyne.KeyName{fyne.KeyRight, fyne.KeyRight, fyne.KeyLeft, fyne.KeyUp, fyne.KeyUp, fyne.KeyDown} {
		s.TypedKey(&fyne.KeyEvent{Name: k}) // a widget.Slider dropped Up and Down
	}
	if s.Value != 17 {
		t.Errorf("Right, Right, Left, Up, Up, Down on the focused slider: %v, want 17", s.Value)
	}
	if want := []fyne.KeyName{fyne.KeyEscape, fyne.KeyDelete}; string(got.runes) != "7a" || !slices.Equal(got.keys, want) {
		t.Errorf("the focused slider passed runes %q and keys %v, want \"7a\" and %v", string(got.runes), got.keys, want)
	}
}
