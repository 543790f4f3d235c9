package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/clip"
	"idxlabel/ui/widgets"
)

// Question is a dialog that asks the person something and closes with an answer, yes (its
// confirm button, Confirm) or no (its dismiss button, Dismiss, Hide): what Fyne's
// dialog.NewConfirm and dialog.NewCustomConfirm make, with the same look (the dismiss button
// with the cancel icon, the confirm button with the confirm icon in the primary colour), but
// whose two buttons are widgets.PassingButton. Fyne's are widget.Buttons, which take Escape and
// Enter once Tab has focused one, and drop them. Here a focused button keeps Space and Enter,
// which press it, and passes every other key on to the window, where Escape and Enter answer the
// prompt on top as with nothing focused (Dialogs.Key: Escape dismisses, Enter gives the prompt's
// default answer). Every question of the window is made here, so every one answers its keys the
// same; Show it with Dialogs.Show, which gives Escape and Enter their answers.
type Question struct {
	*dialog.CustomDialog
	confirm *widgets.PassingButton
	yes     bool // Confirm closes it: the answer is yes
}

// NewQuestion makes a question titled title over win showing content above its two buttons,
// dismiss (no) and confirm (yes); answer (nil: nothing) gets the answer when it closes, however
// it closes (as the callback of dialog.NewCustomConfirm: before what SetOnClosed adds).
//
// The content stands clear of the buttons (aboveButtons): a form's last field is not drawn
// against them.
func NewQuestion(title, confirm, dismiss string, content fyne.CanvasObject, answer func(yes bool), win fyne.Window) *Question {
	q := &Question{CustomDialog: dialog.NewCustomWithoutButtons(title, aboveButtons(content), win)}
	no := widgets.NewPassingButton(dismiss, q.Hide)
	no.Icon = theme.CancelIcon()
	q.confirm = widgets.NewPassingButton(confirm, q.Confirm)
	q.confirm.Icon = theme.ConfirmIcon()
	q.confirm.Importance = widget.HighImportance
	q.SetButtons([]fyne.CanvasObject{no, q.confirm})
	q.SetOnClosed(func() {
		yes := q.yes
		q.yes = false
		if answer != nil {
			answer(yes)
		}
	})
	return q
}

// Confirm closes the question answering yes, as its confirm button does.
func (q *Question) Confirm() {
	q.yes = true
	q.Hide()
}

// SetConfirmText sets the confirm button's label.
func (q *Question) SetConfirmText(label string) { q.confirm.SetText(label) }

// maxAskWidth is the widest a dialog of text alone is laid out (pixels), as Fyne's text
// dialogs: a longer message wraps.
const maxAskWidth = 600

// askWidth is the width of a dialog of text alone showing message, as Fyne's text dialogs
// reckon it: each of the message's lines unwrapped where it fits (the label's width, with the
// dialog's 32 pixels of margin and two paddings), at most maxAskWidth and nine tenths of the
// window's width.
func askWidth(message string, win fyne.Window) float32 {
	need := widget.NewLabel(message).MinSize().Width + 32 + 2*theme.Padding()
	return min(need, maxAskWidth, 0.9*win.Canvas().Size().Width)
}

// NewMessage makes a dialog titled title over win showing content above one button labelled
// dismiss that closes it: dialog.NewCustom's, but the button a widgets.PassingButton, so that
// focused it still passes Escape and Enter on to the window, which close the prompt (Show).
func NewMessage(title, dismiss string, content fyne.CanvasObject, win fyne.Window) *dialog.CustomDialog {
	d := dialog.NewCustomWithoutButtons(title, content, win)
	d.SetButtons([]fyne.CanvasObject{widgets.NewPassingButton(dismiss, d.Hide)})
	return d
}

// NewText makes a message of text alone over win, titled title, with icon (theme.InfoIcon for
// information, theme.ErrorIcon for an error), its text centred and as wide as it needs up to
// maxAskWidth, and an OK button: dialog.NewInformation's and dialog.NewError's, with NewMessage's
// passing button. The message is shown as clip.Message shows it (centred).
func NewText(title, message string, icon fyne.Resource, win fyne.Window) *dialog.CustomDialog {
	message = clip.Message(message)
	d := NewMessage(title, "OK", centred(message), win)
	d.SetIcon(icon)
	fitText(d, message, win)
	return d
}

// fitText sizes d, a dialog of text alone showing message, as Fyne's text dialogs: askWidth wide,
// and as tall as the message wrapped to that width needs. (Laid out once at that width first:
// a wrapped label's height follows the width it was last given, and SetIcon and SetButtons
// laid it out narrow.)
func fitText(d dialog.Dialog, message string, win fyne.Window) {
	w := askWidth(message, win)
	d.Resize(fyne.NewSize(w, d.MinSize().Height))
	d.Resize(fyne.NewSize(w, d.MinSize().Height))
}

// centred is message as a dialog of text alone shows it: centred, wrapped between words, each of
// its lines with its control characters and bytes that are not UTF-8 escaped (clip.Message, the
// rule of every message the window shows: a file's name quoted raw in it cannot break the
// dialog's layout with a carriage return or a tab, or show an escape code as nothing).
func centred(message string) *widget.Label {
	return &widget.Label{Text: clip.Message(message), Alignment: fyne.TextAlignCenter, Wrapping: fyne.TextWrapWord}
}

// aboveButtons is content with room under it: Fyne's dialog leaves only theme.Padding() (4
// units) between its content and its buttons, so a field in a form's last row (New Dataset's
// class file, Export's target) was drawn against the buttons, and a row of fields read as one
// with the row of buttons. theme.InnerPadding() more sets them apart as the form's rows are set
// apart from the dialog's title.
func aboveButtons(content fyne.CanvasObject) fyne.CanvasObject {
	return container.New(layout.NewCustomPaddedLayout(0, theme.InnerPadding(), 0, 0), content)
}
