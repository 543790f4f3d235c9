package ui

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/version"
	"idxlabel/ui/classes"
	"idxlabel/ui/widgets"
)

// prompt is an open dialog that asks the person something: Escape runs cancel, Enter runs
// accept (the default answer, one that loses nothing).
type prompt struct {
	key            string // what it asks, e.g. "unsaved": one prompt per key is open at a time
	depth          int    // the window's overlay count with it shown: it answers keys only on top
	cancel, accept func()
	// passes: a job's progress, which asks nothing: Escape cancels the job and every other key
	// goes on to the grid (showPassing).
	passes bool
}

// dialogs are the window's dialogs: the prompts open on it, newest last, and the helpers that
// show an error, a question, a message, the keyboard reference, a pop-up menu and the class
// picker as prompts. done runs when a prompt closes (the grid takes the keys back).
type dialogs struct {
	win   fyne.Window
	prefs fyne.Preferences // where the choosers remember their folders (chooser.go)
	open  []*prompt
	done  func()
	// changed runs when a prompt opens or closes (nil: nothing): the tests' state line follows.
	changed func()
}

// choose opens a chooser for spec (chooser.go); picked gets the path chosen.
func (p *dialogs) choose(spec chooseSpec, picked func(path string)) {
	(&chooser{win: p.win, d: p, prefs: p.prefs}).choose(spec, picked)
}

// isOpen reports whether a prompt asking key is open (a second Ctrl+Q then must not stack a
// second question over the first).
func (p *dialogs) isOpen(key string) bool {
	for _, q := range p.open {
		if q.key == key {
			return true
		}
	}
	return false
}

// show shows d as a prompt for key, answering Escape with cancel and Enter with accept (nil: the
// same as cancel). onClosed runs when it closes, however it closes (nil: done).
func (p *dialogs) show(key string, d dialog.Dialog, cancel, accept func(), onClosed func()) {
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
	q.depth = len(p.win.Canvas().Overlays().List())
	p.open = append(p.open, q)
	if p.changed != nil {
		p.changed()
	}
}

// showPassing shows d, a job's progress, as a prompt for key that takes no key but Escape
// (cancel): the others go on to the grid, where edits wait for the job (held.go).
func (p *dialogs) showPassing(key string, d dialog.Dialog, cancel func()) {
	p.show(key, d, cancel, nil, nil)
	p.open[len(p.open)-1].passes = true
}

// passing reports whether the top overlay is a prompt that passes keys on (showPassing).
func (p *dialogs) passing() bool {
	if len(p.open) == 0 {
		return false
	}
	q := p.open[len(p.open)-1]
	return q.passes && q.depth == len(p.win.Canvas().Overlays().List())
}

func (p *dialogs) remove(q *prompt) {
	for k, o := range p.open {
		if o == q {
			p.open = append(p.open[:k], p.open[k+1:]...)
			return
		}
	}
}

// key answers the top prompt with Escape (cancel) or Enter (accept), when that prompt is the
// window's top overlay; it reports whether it did.
func (p *dialogs) key(k *fyne.KeyEvent) bool {
	if len(p.open) == 0 {
		return false
	}
	q := p.open[len(p.open)-1]
	if q.depth != len(p.win.Canvas().Overlays().List()) {
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

// covered reports whether a dialog or pop-up covers the window.
func (p *dialogs) covered() bool { return p.win.Canvas().Overlays().Top() != nil }

// promptEntry is a text field inside a prompt (or the side panel's go-to box): Escape, which a
// text field ignores, cancels the prompt (Enter already submits); onFocus learns when it gains
// (true) or loses (false) the keyboard focus.
type promptEntry struct {
	widget.Entry
	onEscape func()
	onFocus  func(bool)
}

func newPromptEntry(onEscape func()) *promptEntry { return newWatchedEntry(onEscape, nil) }

// newWatchedEntry is newPromptEntry for a field whose focus onFocus follows (nil: none).
func newWatchedEntry(onEscape func(), onFocus func(bool)) *promptEntry {
	e := &promptEntry{onEscape: onEscape, onFocus: onFocus}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey cancels on Escape and types anything else.
func (e *promptEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.onEscape != nil {
		e.onEscape()
		return
	}
	e.Entry.TypedKey(k)
}

// FocusGained tells onFocus.
func (e *promptEntry) FocusGained() {
	e.Entry.FocusGained()
	if e.onFocus != nil {
		e.onFocus(true)
	}
}

// FocusLost tells onFocus.
func (e *promptEntry) FocusLost() {
	e.Entry.FocusLost()
	if e.onFocus != nil {
		e.onFocus(false)
	}
}

// showError shows err, with the window's advice, as a prompt: Enter or Escape closes it. The
// same error already open is not shown again (Ctrl+S pressed three times on a folder it cannot
// write stacked three dialogs, each to be closed in turn).
func (p *dialogs) showError(err error) {
	err = withAdvice(err)
	key := "error: " + err.Error()
	if p.isOpen(key) {
		return
	}
	d := dialog.NewError(err, p.win)
	p.show(key, d, d.Dismiss, nil, nil)
}

// ask asks a yes/no question as a prompt: Escape answers no, Enter answers enterYes (the answer
// that loses nothing: no to "Replace?", yes to "Open read-only?").
func (p *dialogs) ask(title, message string, enterYes bool, answer func(yes bool)) {
	d := dialog.NewConfirm(title, message, answer, p.win)
	accept := d.Dismiss
	if enterYes {
		accept = d.Confirm
	}
	p.show("", d, d.Dismiss, accept, nil)
}

// inform shows a message as a prompt: Enter or Escape closes it.
func (p *dialogs) inform(title, message string) {
	d := dialog.NewInformation(title, message, p.win)
	p.show("", d, d.Dismiss, nil, nil)
}

// popUpMenu shows items as a menu at the absolute position at.
func (p *dialogs) popUpMenu(at fyne.Position, items ...*fyne.MenuItem) {
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", items...), p.win.Canvas(), at)
}

// showKeys shows the keyboard reference as a two-column table.
func (p *dialogs) showKeys() {
	// Plain text rows (a label's padding would double the table's height): keys right-aligned
	// in bold, then what they do.
	left, right := container.NewVBox(), container.NewVBox()
	fg := theme.Color(theme.ColorNameForeground)
	for _, k := range keyReference(p.win.MainMenu()) {
		keys := canvas.NewText(k.keys, fg)
		keys.TextStyle.Bold = true
		keys.Alignment = fyne.TextAlignTrailing
		left.Add(keys)
		right.Add(canvas.NewText(k.does, fg))
	}
	grid := container.NewHBox(left, layout.NewSpacer(), right)
	d := dialog.NewCustom("Keyboard", "Close", container.NewVScroll(grid), p.win)
	size := p.win.Canvas().Size()
	d.Resize(fyne.NewSize(min(grid.MinSize().Width+80, size.Width-40), min(grid.MinSize().Height+130, size.Height-40)))
	p.show("keys", d, d.Dismiss, nil, nil)
}

// showAbout is Help → About: the program's name and version (internal/version), what it is for,
// and the Go release it was built with.
func (p *dialogs) showAbout() {
	p.inform("About "+Title, fmt.Sprintf("%s %s\n\nCorrect, extend and build image datasets in the IDX format\n(MNIST, Fashion-MNIST, KMNIST, EMNIST, QMNIST).\n\nBuilt with %s. The command line: idxlabel --help.", Title, version.Version, runtime.Version()))
}

// pickClass opens the class picker titled title: type a class's number or name (type-ahead
// narrows the list of classes), Enter applies the first match; a number not in the list is a
// new class. apply gets the class chosen.
func (p *dialogs) pickClass(title, initial string, names classes.Names, apply func(class int)) {
	var d *dialog.CustomDialog
	entry := newPromptEntry(func() { d.Hide() }) // Escape cancels
	entry.SetPlaceHolder("class number or name")
	var matches []int
	list := widget.NewList(func() int { return len(matches) }, func() fyne.CanvasObject {
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
	d = dialog.NewCustom(title, "Cancel", content, p.win)
	update(initial)
	entry.SetText(initial)
	entry.CursorColumn = len([]rune(initial)) // what is typed next follows the first digit
	entry.Refresh()
	p.show("pick class", d, d.Hide, func() { entry.OnSubmitted(entry.Text) }, nil)
	p.win.Canvas().Focus(entry)
}
