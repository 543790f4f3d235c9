package widgets

import (
	"reflect"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// The passing controls: a button, a check box, a choice, a list and a slider that keep only the keys that
// operate them and pass every other key and character typed while they have the keyboard focus
// to the handlers of the canvas they are on (fyne.Canvas.OnTypedKey, OnTypedRune), where they go
// as if nothing had the focus. Fyne hands the keys typed to the focused widget alone, and a
// widget.Button, widget.Check, widget.Select, widget.List or widget.Slider drops the ones it does
// not use: after a Tab focused one of a view's controls (a job's Cancel, "Every confusion", the
// map's Fit), a digit typed to relabel the sample at the cursor was lost, and Escape and the
// arrows did nothing. Each control names the keys it keeps (keepKey, keepSpace): the rule that
// every other key goes on is written once, here.
// They stay focusable, so a keyboard user still reaches them with Tab and operates them with
// Space. The canvas is the one the driver draws the control on (CanvasForObject), so a view
// builds them without the window.

// passKey hands k to the key handler of the canvas obj is on, if there is one.
func passKey(obj fyne.CanvasObject, k *fyne.KeyEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(obj); c != nil {
		if on := c.OnTypedKey(); on != nil {
			on(k)
		}
	}
}

// passRune hands r to the character handler of the canvas obj is on, if there is one.
func passRune(obj fyne.CanvasObject, r rune) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(obj); c != nil {
		if on := c.OnTypedRune(); on != nil {
			on(r)
		}
	}
}

// keepKey hands k to own if its name is one of keep (the keys the control obj uses itself) and
// passes it to obj's canvas otherwise.
func keepKey(obj fyne.CanvasObject, k *fyne.KeyEvent, own func(*fyne.KeyEvent), keep ...fyne.KeyName) {
	if slices.Contains(keep, k.Name) {
		own(k)
		return
	}
	passKey(obj, k)
}

// keepSpace hands Space's character to own (nil: nothing, when Space's key did the work) and
// passes every other character to obj's canvas.
func keepSpace(obj fyne.CanvasObject, r rune, own func(rune)) {
	switch {
	case r != ' ':
		passRune(obj, r)
	case own != nil:
		own(r)
	}
}

// PassingButton is a widget.Button that keeps the keys that press a focused button (Space, and
// Enter as on other desktops) and passes every other key and character to its canvas's
// handlers: Escape cancels a job, a digit relabels the sample at the cursor, an arrow moves it.
type PassingButton struct {
	widget.Button
}

// NewPassingButton makes a passing button labelled label that runs tapped when pressed.
func NewPassingButton(label string, tapped func()) *PassingButton {
	b := &PassingButton{}
	b.Text, b.OnTapped = label, tapped
	b.ExtendBaseWidget(b)
	return b
}

// TypedKey presses the button on Space or Enter and passes every other key on.
func (b *PassingButton) TypedKey(k *fyne.KeyEvent) {
	keepKey(b, k, func(*fyne.KeyEvent) { b.Tapped(nil) }, fyne.KeySpace, fyne.KeyReturn, fyne.KeyEnter)
}

// TypedRune passes every character on but Space's (its key pressed the button).
func (b *PassingButton) TypedRune(r rune) { keepSpace(b, r, nil) }

// PassingCheck is a widget.Check that keeps Space (which toggles a focused check box) and
// passes every other key and character to its canvas's handlers.
type PassingCheck struct {
	widget.Check
}

// NewPassingCheck makes a passing check box labelled label that reports a change to changed.
func NewPassingCheck(label string, changed func(bool)) *PassingCheck {
	c := &PassingCheck{}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey keeps Space (its character toggles the box) and passes every other key on.
func (c *PassingCheck) TypedKey(k *fyne.KeyEvent) {
	keepKey(c, k, func(*fyne.KeyEvent) {}, fyne.KeySpace)
}

// TypedRune toggles the box on Space's character and passes every other character on.
func (c *PassingCheck) TypedRune(r rune) { keepSpace(c, r, c.Check.TypedRune) }

// PassingSelect is a widget.Select that keeps the keys opening its menu (Space, Up, Down) and
// passes every other key (Left and Right too, which a widget.Select would use to step through
// its options: in the window they move the cursor) and every character to its canvas's
// handlers.
type PassingSelect struct {
	widget.Select
}

// NewPassingSelect makes a passing choice of options that reports a choice to changed.
func NewPassingSelect(options []string, changed func(string)) *PassingSelect {
	s := &PassingSelect{}
	s.Options, s.OnChanged = options, changed
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey opens the menu on Space, Up or Down and passes every other key on.
func (s *PassingSelect) TypedKey(k *fyne.KeyEvent) {
	keepKey(s, k, s.Select.TypedKey, fyne.KeySpace, fyne.KeyUp, fyne.KeyDown)
}

// TypedRune passes every character on but Space's (its key opened the menu).
func (s *PassingSelect) TypedRune(r rune) { keepSpace(s, r, nil) }

// PassingList is a widget.List that keeps the keys of list navigation (Up, Down, Space, Enter)
// and passes every other key and character to its canvas's handlers: a digit typed after a
// click on a row relabels the sample at the cursor instead of being dropped, and in a dialog
// Escape cancels it (dialogs.Dialogs.Key) as with nothing focused; a widget.List drops them.
type PassingList struct {
	widget.List
	// PassEnter passes Enter on too (NewDialogList): in a dialog it answers the dialog, as with
	// nothing focused. Otherwise Enter selects the focused row, as Space does.
	PassEnter bool
	// OnEntered runs after Enter selected the focused row (nil: nothing more), after
	// OnSelected (which does not run for a row selected already; OnEntered does): the file
	// chooser opens the file the row named.
	OnEntered func()
	byKey     bool // a key is selecting the focused row (ByKey)
}

// NewPassingList makes a passing list of length() rows, made by create and filled by update
// (as widget.NewList), on which Enter selects the focused row.
func NewPassingList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *PassingList {
	l := &PassingList{}
	l.Length, l.CreateItem, l.UpdateItem = length, create, update
	l.ExtendBaseWidget(l)
	return l
}

// NewDialogList makes the passing list of a dialog (as NewPassingList), which passes Enter on
// to the dialog (PassEnter): a list whose rows a person only reads or looks through, where
// selecting a row does not answer the dialog.
func NewDialogList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *PassingList {
	l := NewPassingList(length, create, update)
	l.PassEnter = true
	return l
}

// TypedKey keeps list navigation (Enter, unless PassEnter, selects the focused row as Space
// does, then runs OnEntered: a widget.List drops it) and passes every other key on. A keyboard
// row beyond the last row (the rows changed under it: keepRowIn) is first moved to the first.
func (l *PassingList) TypedKey(k *fyne.KeyEvent) {
	keep := []fyne.KeyName{fyne.KeyUp, fyne.KeyDown, fyne.KeySpace}
	if !l.PassEnter {
		keep = append(keep, fyne.KeyReturn, fyne.KeyEnter)
	}
	keepKey(l, k, func(k *fyne.KeyEvent) {
		l.keepRowIn()
		if k.Name != fyne.KeyReturn && k.Name != fyne.KeyEnter {
			l.byKey = k.Name == fyne.KeySpace
			l.List.TypedKey(k)
			l.byKey = false
			return
		}
		l.byKey = true
		l.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
		l.byKey = false
		if l.OnEntered != nil {
			l.OnEntered()
		}
	}, keep...)
}

// FocusGained moves a keyboard row beyond the last row to the first (keepRowIn), so that the
// row the keys act on is drawn focused, then draws it as a widget.List does.
func (l *PassingList) FocusGained() {
	l.keepRowIn()
	l.List.FocusGained()
}

// ByKey reports, while OnSelected runs, whether a key (Space or Enter on the focused row) made
// the selection it is told of, not a click.
func (l *PassingList) ByKey() bool { return l.byKey }

// FocusRow returns the keyboard's row: the row Up, Down, Space and Enter act on, drawn focused
// while the list has the focus. Fyne's List keeps it in its unexported field currentFocus, with
// no call to read or set it: it is read here through package reflect (read only), and is -1 if
// that field is not there (TestPassingListFocusRow fails then). A click moves it to the row
// clicked; a change of the rows leaves it where it was, even beyond the last row (keepRowIn).
func (l *PassingList) FocusRow() int {
	v := reflect.ValueOf(&l.List).Elem().FieldByName("currentFocus")
	if !v.IsValid() || !v.CanInt() {
		return -1
	}
	return int(v.Int())
}

// FocusFirst moves the keyboard's row (FocusRow) to the first row and scrolls to the top: the
// file chooser does when its rows are another folder's. Fyne's List has no call to set that
// row: the Up key moves it one row, so this costs a step a row, each a refresh of the list with
// no row in sight (about 60 µs in the test driver: 1.2 s from row 19,999, the last the chooser
// lists, under 10 ms up to row 100); from the first row it costs nothing.
func (l *PassingList) FocusFirst() {
	l.stepUp(l.FocusRow())
	l.ScrollToTop()
	l.Refresh()
}

// keepRowIn moves the keyboard's row to the first row when it is beyond the last, as it is
// after the rows changed under it (a filter narrowed them, the chooser listed another folder):
// Fyne's List leaves it there, where no row is drawn focused, Down does nothing and Space and
// Enter select nothing, so every key on the list was dropped until Up had been pressed past
// the rows that went. Costs a step a row beyond (FocusFirst).
func (l *PassingList) keepRowIn() {
	n := 0
	if l.Length != nil {
		n = l.Length()
	}
	if row := l.FocusRow(); row >= n && row > 0 {
		l.stepUp(row)
		l.Refresh()
	}
}

// stepUp moves the keyboard's row up n rows (Up keys), refreshing no row meanwhile.
func (l *PassingList) stepUp(n int) {
	length := l.Length
	l.Length = func() int { return 0 } // no row in sight to refresh at each step
	for range n {
		l.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	}
	l.Length = length
}

// TypedRune passes every character on but Space's (its key selects the focused row).
func (l *PassingList) TypedRune(r rune) { keepSpace(l, r, nil) }

// PassingSlider is a horizontal widget.Slider that keeps the arrow keys (Right and Up step it
// up, Left and Down down, as a web page's range input: a widget.Slider drops Up and Down) and
// passes every other key and character to its canvas's handlers.
type PassingSlider struct {
	widget.Slider
}

// NewPassingSlider makes a passing horizontal slider from lo to hi in steps of 1 (as
// widget.NewSlider).
func NewPassingSlider(lo, hi float64) *PassingSlider {
	s := &PassingSlider{}
	s.Min, s.Max, s.Step = lo, hi, 1
	s.Orientation = widget.Horizontal
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey keeps the arrows and passes every other key on.
func (s *PassingSlider) TypedKey(k *fyne.KeyEvent) {
	keepKey(s, k, func(k *fyne.KeyEvent) {
		switch k.Name {
		case fyne.KeyUp:
			k = &fyne.KeyEvent{Name: fyne.KeyRight}
		case fyne.KeyDown:
			k = &fyne.KeyEvent{Name: fyne.KeyLeft}
		}
		s.Slider.TypedKey(k)
	}, fyne.KeyLeft, fyne.KeyRight, fyne.KeyUp, fyne.KeyDown)
}

// TypedRune passes every character on (a slider takes none).
func (s *PassingSlider) TypedRune(r rune) { passRune(s, r) }
