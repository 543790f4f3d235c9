package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// prompt is an open dialog that asks the person something: Escape runs cancel, Enter runs
// accept (the default answer, one that loses nothing).
type prompt struct {
	key            string // what it asks, e.g. "unsaved": one prompt per key is open at a time
	depth          int    // the window's overlay count with it shown: it answers keys only on top
	cancel, accept func()
}

// prompts are the open prompts, the newest last.
type prompts struct{ open []*prompt }

// isOpen reports whether a prompt asking key is open (a second Ctrl+Q then must not stack a
// second question over the first).
func (p *prompts) isOpen(key string) bool {
	for _, q := range p.open {
		if q.key == key {
			return true
		}
	}
	return false
}

// show shows d as a prompt for key on c, answering Escape with cancel and Enter with accept (nil:
// the same as cancel). onClosed runs when it closes, however it closes.
func (p *prompts) show(c fyne.Canvas, key string, d dialog.Dialog, cancel, accept func(), onClosed func()) {
	if accept == nil {
		accept = cancel
	}
	q := &prompt{key: key, cancel: cancel, accept: accept}
	d.SetOnClosed(func() {
		p.remove(q)
		if onClosed != nil {
			onClosed()
		}
	})
	d.Show()
	q.depth = len(c.Overlays().List())
	p.open = append(p.open, q)
}

func (p *prompts) remove(q *prompt) {
	for k, o := range p.open {
		if o == q {
			p.open = append(p.open[:k], p.open[k+1:]...)
			return
		}
	}
}

// key answers the top prompt with Escape (cancel) or Enter (accept), when that prompt is the
// window's top overlay; it reports whether it did.
func (p *prompts) key(c fyne.Canvas, k *fyne.KeyEvent) bool {
	if len(p.open) == 0 {
		return false
	}
	q := p.open[len(p.open)-1]
	if q.depth != len(c.Overlays().List()) {
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

// promptEntry is a text field inside a prompt (or the side panel's go-to box): Escape, which a
// text field ignores, cancels the prompt (Enter already submits); onFocus learns when it gains
// (true) or loses (false) the keyboard focus.
type promptEntry struct {
	widget.Entry
	onEscape func()
	onFocus  func(bool)
}

func newPromptEntry(onEscape func()) *promptEntry {
	e := &promptEntry{onEscape: onEscape}
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

// showError shows err as a prompt: Enter or Escape closes it.
func (w *mainWindow) showError(err error) {
	d := dialog.NewError(withAdvice(err), w.win)
	w.prompts.show(w.win.Canvas(), "", d, d.Dismiss, nil, w.focusGrid)
}

// ask asks a yes/no question as a prompt: Escape answers no, Enter answers enterYes (the answer
// that loses nothing: no to "Replace?", yes to "Open read-only?").
func (w *mainWindow) ask(title, message string, enterYes bool, answer func(yes bool)) {
	d := dialog.NewConfirm(title, message, answer, w.win)
	accept := d.Dismiss
	if enterYes {
		accept = d.Confirm
	}
	w.prompts.show(w.win.Canvas(), "", d, d.Dismiss, accept, w.focusGrid)
}

// inform shows a message as a prompt: Enter or Escape closes it.
func (w *mainWindow) inform(title, message string) {
	d := dialog.NewInformation(title, message, w.win)
	w.prompts.show(w.win.Canvas(), "", d, d.Dismiss, nil, w.focusGrid)
}
