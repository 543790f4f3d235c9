// Package dialogs is the window's dialogs: the prompts open on it (each answers Escape and Enter,
// with one of its buttons focused too: every question and message is built here, question.go, with
// buttons that pass those keys on, and their drop-downs, check boxes, radio buttons and lists are
// widgets.DialogSelect, PassingCheck, PassingRadioGroup and PassingList, which pass them on too
// (a list of the chooser or the class picker keeps Enter: it opens or picks the row); and one asking
// a thing is never stacked twice), errors with what a person can do about them, questions,
// messages, the class picker, a job's progress that passes keys on to the grid, a table, a pop-up
// menu, and the file and folder chooser (a typed path, the folder's entries filtered to what it is
// for, Fyne's dialog behind Browse…, the last folder of each purpose remembered). The window's
// parts show their dialogs through one Dialogs; none of them holds the window or the controller.
package dialogs

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/clip"
	"idxlabel/ui/classes"
	"idxlabel/ui/widgets"
)

// prompt is an open dialog that asks the person something: Escape runs cancel, Enter runs
// accept (the default answer, one that loses nothing).
type prompt struct {
	key            string            // what it asks, e.g. "unsaved": one prompt per key is open at a time
	overlay        fyne.CanvasObject // its overlay on the window's canvas: it answers keys only on top
	cancel, accept func()
	// passes: a job's progress, which asks nothing: Escape cancels the job and every other key
	// goes on to the grid (showPassing).
	passes bool
}

// Dialogs are the window's dialogs: the prompts open on it, newest last, and the helpers that
// Show an error, a question, a message, a table, a pop-up menu, the class picker and the
// chooser as prompts. done runs when a prompt closes (the grid takes the keys back).
type Dialogs struct {
	win   fyne.Window
	prefs fyne.Preferences // where the choosers remember their folders (chooser.go)
	open  []*prompt
	done  func()
	// changed runs when a prompt opens or closes (nil: nothing): the tests' state line follows.
	changed func()
	// openPair returns the files of the pair the window has open for editing (nil: none), which
	// ShowError's advice tells from the others (withAdvice).
	openPair func() (images, labels string)
}

// SetOpenPair tells the dialogs where to read the files of the pair the window has open for
// editing ("" for none): an error about a lock this window holds then says whether it is that
// pair's or a job's.
func (p *Dialogs) SetOpenPair(open func() (images, labels string)) { p.openPair = open }

// New makes the dialogs of win: the choosers remember their folders in prefs, done runs when a
// prompt closes (nil: nothing), changed when one opens or closes (nil: nothing).
func New(win fyne.Window, prefs fyne.Preferences, done, changed func()) *Dialogs {
	return &Dialogs{win: win, prefs: prefs, done: done, changed: changed}
}

// Prefs are the preferences the choosers remember their folders in.
func (p *Dialogs) Prefs() fyne.Preferences { return p.prefs }

// Done is what runs when a prompt closes (the grid takes the keys back): for a dialog shown with
// an onClosed of its own that must do it too.
func (p *Dialogs) Done() {
	if p.done != nil {
		p.done()
	}
}

// Open returns the keys of the prompts open, oldest first ("" for a prompt without one).
func (p *Dialogs) Open() []string {
	keys := make([]string, len(p.open))
	for k, q := range p.open {
		keys[k] = q.key
	}
	return keys
}

// Top is the key of the prompt on top ("" for a prompt without one, such as Ask's and Inform's);
// false when no prompt is open.
func (p *Dialogs) Top() (string, bool) {
	if len(p.open) == 0 {
		return "", false
	}
	return p.open[len(p.open)-1].key, true
}

// Choose opens a chooser for spec (chooser.go); picked gets the path chosen.
func (p *Dialogs) Choose(spec Spec, picked func(path string)) {
	(&chooser{win: p.win, d: p, prefs: p.prefs}).choose(spec, picked)
}

// IsOpen reports whether a prompt asking key is open (a second Ctrl+Q then must not stack a
// second question over the first).
func (p *Dialogs) IsOpen(key string) bool {
	for _, q := range p.open {
		if q.key == key {
			return true
		}
	}
	return false
}

// Show shows d as a prompt for key, answering Escape with cancel and Enter with accept (nil: the
// same as cancel). onClosed runs when it closes, however it closes (nil: done).
func (p *Dialogs) Show(key string, d dialog.Dialog, cancel, accept func(), onClosed func()) {
	if accept == nil {
		accept = cancel
	}
	if onClosed == nil {
		onClosed = p.done
	}
	q := &prompt{key: key, cancel: cancel, accept: accept}
	d.SetOnClosed(func() {
		p.remove(q)
		if onClosed != nil {
			onClosed()
		}
		if p.changed != nil {
			p.changed()
		}
	})
	d.Show()
	q.overlay = p.win.Canvas().Overlays().Top()
	p.open = append(p.open, q)
	if p.changed != nil {
		p.changed()
	}
}

// ShowPassing shows a job's progress titled title showing content, as a prompt for key that
// takes no key but Escape (cancel): the others go on to the grid, where edits wait for the job
// (held.go). Its own Cancel button cancels too: closing the dialog calls cancel, so a job that
// ends hides it only after it has read whether it was cancelled (cancelling a finished job does
// nothing). The button, once focused (Tab), keeps only Space and Enter, which press it, and
// passes every other key and character on as if nothing had the focus (widgets.PassingButton). It
// returns the dialog shown, for the job to hide when it ends.
func (p *Dialogs) ShowPassing(key, title string, content fyne.CanvasObject, cancel func()) *dialog.CustomDialog {
	d := dialog.NewCustomWithoutButtons(title, content, p.win)
	d.SetButtons([]fyne.CanvasObject{widgets.NewPassingButton("Cancel", d.Hide)})
	p.Show(key, d, cancel, nil, nil)
	p.open[len(p.open)-1].passes = true
	d.SetOnClosed(cancel) // chained after the prompt's own (Fyne calls both)
	return d
}

// Passing reports whether the top overlay is a prompt that passes keys on (showPassing).
func (p *Dialogs) Passing() bool {
	if len(p.open) == 0 {
		return false
	}
	q := p.open[len(p.open)-1]
	return q.passes && q.overlay == p.win.Canvas().Overlays().Top()
}

// remove forgets the prompt q, closed, and puts back the prompts shown above it: Fyne removes
// with an overlay every overlay above it, so a job's progress that closes when the job ends
// took with it the question shown over it (the window's close asking about unsaved edits),
// which vanished unanswered, its answer never given, and was still taken for open.
func (p *Dialogs) remove(q *prompt) {
	for k, o := range p.open {
		if o == q {
			p.open = append(p.open[:k], p.open[k+1:]...)
			for _, above := range p.open[k:] {
				if above.overlay != nil && !slices.Contains(p.win.Canvas().Overlays().List(), above.overlay) {
					p.win.Canvas().Overlays().Add(above.overlay)
				}
			}
			return
		}
	}
}

// Key answers the top prompt with Escape (cancel) or Enter (accept), when that prompt is the
// window's top overlay; it reports whether it did.
func (p *Dialogs) Key(k *fyne.KeyEvent) bool {
	if len(p.open) == 0 {
		return false
	}
	q := p.open[len(p.open)-1]
	if q.overlay != p.win.Canvas().Overlays().Top() {
		return false // another dialog (an error, a file chooser) is above it
	}
	switch k.Name {
	case fyne.KeyEscape:
		q.cancel()
	case fyne.KeyReturn, fyne.KeyEnter:
		q.accept()
	default:
		return false
	}
	return true
}

// Covered reports whether a dialog or pop-up covers the window.
func (p *Dialogs) Covered() bool { return p.win.Canvas().Overlays().Top() != nil }

// PromptEntry is a text field inside a prompt (or the side panel's go-to box): Escape, which a
// text field ignores, cancels the prompt (Enter already submits); onFocus learns when it gains
// (true) or loses (false) the keyboard focus.
type PromptEntry struct {
	widget.Entry
	onEscape func()
	onFocus  func(bool)
}

func NewPromptEntry(onEscape func()) *PromptEntry { return NewWatchedEntry(onEscape, nil) }

// NewWatchedEntry is NewPromptEntry for a field whose focus onFocus follows (nil: none).
func NewWatchedEntry(onEscape func(), onFocus func(bool)) *PromptEntry {
	e := &PromptEntry{onEscape: onEscape, onFocus: onFocus}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey cancels on Escape and types anything else.
func (e *PromptEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.onEscape != nil {
		e.onEscape()
		return
	}
	e.Entry.TypedKey(k)
}

// MinSize is the field's, made wide enough to show its whole placeholder (a single-line field's):
// Fyne lays the placeholder out in full inside the field's scroller, so one wider than the field
// scrolls there, cut mid-word, over a scroll bar drawn under it (New Dataset's class file). The
// width is the placeholder's text and the inner padding either side, as Fyne's placeholder
// (a widget.RichText inside the field) asks for.
func (e *PromptEntry) MinSize() fyne.Size {
	m := e.Entry.MinSize()
	if e.PlaceHolder == "" || e.MultiLine {
		return m
	}
	th := e.Theme()
	w := fyne.MeasureText(e.PlaceHolder, th.Size(theme.SizeNameText), e.TextStyle).Width + 2*th.Size(theme.SizeNameInnerPadding)
	m.Width = max(m.Width, w)
	return m
}

// FocusGained tells onFocus.
func (e *PromptEntry) FocusGained() {
	e.Entry.FocusGained()
	if e.onFocus != nil {
		e.onFocus(true)
	}
}

// FocusLost tells onFocus.
func (e *PromptEntry) FocusLost() {
	e.Entry.FocusLost()
	if e.onFocus != nil {
		e.onFocus(false)
	}
}

// ShowError shows err, with the window's advice, as a prompt: Enter or Escape closes it. The
// same error already open is not shown again (Ctrl+S pressed three times on a folder it cannot
// write stacked three dialogs, each to be closed in turn). The error's message is shown as one
// line, and an *Advice's advice as a paragraph of its own (ShownError): a file's name in it
// shows its control characters and bytes that are not UTF-8 escaped.
func (p *Dialogs) ShowError(err error) {
	err = withAdvice(err, p.openPair)
	key := "error: " + err.Error()
	if p.IsOpen(key) {
		return
	}
	text := ShownError(err)
	if r, size := utf8.DecodeRuneInString(text); r != utf8.RuneError {
		text = string(unicode.ToUpper(r)) + text[size:] // as dialog.NewError
	}
	d := NewText("Error", text, theme.ErrorIcon(), p.win)
	p.Show(key, d, d.Dismiss, nil, nil)
}

// Ask asks a yes/no question as a prompt: Escape answers no, Enter answers enterYes (the answer
// that loses nothing: no to "Replace?", yes to "Open read-only?").
// It is a Question with Yes and No, the question icon, and the message centred (centred).
func (p *Dialogs) Ask(title, message string, enterYes bool, answer func(yes bool)) {
	message = clip.Message(message) // as centred shows it, for fitText's width
	d := NewQuestion(title, "Yes", "No", centred(message), answer, p.win)
	d.SetIcon(theme.QuestionIcon())
	fitText(d, message, p.win)
	accept := d.Dismiss
	if enterYes {
		accept = d.Confirm
	}
	p.Show("", d, d.Dismiss, accept, nil)
}

// Inform shows a message as a prompt: Enter or Escape closes it.
func (p *Dialogs) Inform(title, message string) { p.InformAs("", title, message) }

// InformAs shows a message as a prompt for key (NewText, with the information icon): Enter or
// Escape closes it.
func (p *Dialogs) InformAs(key, title, message string) {
	d := NewText(title, message, theme.InfoIcon(), p.win)
	p.Show(key, d, d.Dismiss, nil, nil)
}

// PopUpMenu shows items as a menu at the absolute position at.
func (p *Dialogs) PopUpMenu(at fyne.Position, items ...*fyne.MenuItem) {
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", items...), p.win.Canvas(), at)
}

// ShowTable shows rows as a two-column table titled title, as a prompt for key: the left column
// right-aligned in bold (the keyboard reference: keys, then what they do), plain text rows so the
// table stays compact; it scrolls when taller than the window.
func (p *Dialogs) ShowTable(key, title string, rows [][2]string) {
	left, right := container.NewVBox(), container.NewVBox()
	fg := theme.Color(theme.ColorNameForeground)
	for _, r := range rows {
		k := canvas.NewText(r[0], fg)
		k.TextStyle.Bold = true
		k.Alignment = fyne.TextAlignTrailing
		left.Add(k)
		right.Add(canvas.NewText(r[1], fg))
	}
	grid := container.NewHBox(left, layout.NewSpacer(), right)
	d := NewMessage(title, "Close", container.NewVScroll(grid), p.win)
	size := p.win.Canvas().Size()
	d.Resize(fyne.NewSize(min(grid.MinSize().Width+80, size.Width-40), min(grid.MinSize().Height+130, size.Height-40)))
	p.Show(key, d, d.Dismiss, nil, nil)
}

// PickClass opens the class picker titled title: type a class's number or name (type-ahead
// narrows the list of classes), Enter applies the first match; a number not in the list is a
// new class. apply gets the class chosen.
func (p *Dialogs) PickClass(title, initial string, names classes.Names, apply func(class int)) {
	var d *dialog.CustomDialog
	entry := NewPromptEntry(func() { d.Hide() }) // Escape cancels
	entry.SetPlaceHolder("class number or name")
	var matches []int
	// Escape on the focused list cancels; Space or Enter picks the focused class (PassingList).
	list := widgets.NewPassingList(func() int { return len(matches) }, func() fyne.CanvasObject {
		l := widget.NewLabel("000 (XXXXXXXX)")
		l.Truncation = fyne.TextTruncateEllipsis // a class-name file's names can be any length
		return l
	}, func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(names.Long(matches[id])) })
	update := func(text string) {
		matches = names.Matches(text)
		list.Refresh()
	}
	choose := func(c int) {
		d.Hide()
		apply(c)
	}
	list.OnSelected = func(id widget.ListItemID) { choose(matches[id]) }
	entry.OnChanged = update
	entry.OnSubmitted = func(text string) {
		if len(matches) > 0 {
			choose(matches[0])
		} else if n, err := strconv.Atoi(strings.TrimSpace(text)); err == nil {
			choose(n)
		}
	}
	content := widgets.NewFixedBorder(entry, list, fyne.NewSize(300, 320))
	d = NewMessage(title, "Cancel", content, p.win)
	update(initial)
	entry.SetText(initial)
	entry.CursorColumn = len([]rune(initial)) // what is typed next follows the first digit
	entry.Refresh()
	p.Show("pick class", d, d.Hide, func() { entry.OnSubmitted(entry.Text) }, nil)
	p.win.Canvas().Focus(entry)
}
