// Package draw is the window's draw window (Edit → Draw New Digits…, Ctrl+D): a pad to draw a
// digit on, the digit as MNIST's preprocessing makes it (normalize.Digit), its label (the model's
// guess for it first, when a model suggests labels), and Enter to add it to the dataset as one
// undoable, journaled step; Ctrl+F (or its button) lists, in the main window, the samples most
// like the digit drawn. It works with the window through Host and with the model through
// Model, never with the window itself.
package draw

import (
	"fmt"
	"image"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/normalize"
	"idxlabel/ui/classes"
	"idxlabel/ui/review"
	"idxlabel/ui/widgets"
)

// Host is what the draw window asks of the main window: the dataset's sample size and class
// names, adding a drawn sample (one undoable, journaled edit, through the controller), whether
// edits wait, saving and quitting as the main window does, what to do once the draw window
// closed, and the main menu's shortcuts it passes on.
type Host interface {
	Size() (h, w int)
	Classes() classes.Names
	// Add appends the drawn sample px (h×w, as Size says) labelled label and returns its number.
	Add(px []byte, label int) (int, error)
	// Busy reports whether a job holds edits (a save): Enter adds nothing then.
	Busy() bool
	Save() // Ctrl+S, as in the main window
	Quit() // Ctrl+Q, as in the main window: quits the application
	// Closed: the draw window closed; the main window's grid takes the keys again.
	Closed()
	// MoreLike lists, in the main window, the samples most like the drawing px (h×w display
	// pixels, as Size says).
	MoreLike(px []byte, h, w int)
	// Shortcuts are the main menu's shortcuts the draw window passes on to the main window: each
	// raises the main window and does what its item does.
	Shortcuts() []Shortcut
}

// Model is the model that suggests labels (ui/suggest), as the draw window uses it.
type Model interface {
	// Guess is the model's label for a drawing (h×w display pixels) and how sure it is.
	Guess(px []byte, h, w int) (label int, confidence float64, err error)
	Trained() bool       // a model suggests labels
	LowConfidence() bool // it learnt from too few labels for its confidence to be trusted
	Train()              // the window opened: the model trains if there is none
}

// Drawer opens the draw window and keeps it while it is open.
type Drawer struct {
	app   fyne.App
	title string // the application's name, in the window's title
	host  Host
	model Model
	open  *Window // nil when closed
}

// New makes the draw window's opener for app (named title), working with the main window through
// host and with model.
func New(app fyne.App, title string, host Host, model Model) *Drawer {
	return &Drawer{app: app, title: title, host: host, model: model}
}

// Open is the draw window open, nil when it is closed.
func (dr *Drawer) Open() *Window { return dr.open }

// Window is the window for drawing new samples: the pad, beside it the normalized sample
// as it will be saved (enlarged, crisp), the label, the centring and the pen width. Enter adds
// the sample (one undoable, journaled step) and clears the pad and the label box, so each
// drawing gets its own label ("7, Enter, 1, Enter…"): the model's guess for the next drawing,
// or nothing, never the last drawing's label; Ctrl+Z on the pad undoes the last stroke; Escape
// clears the pad.
type Window struct {
	host      Host
	model     Model
	Win       fyne.Window
	Pad       *widgets.DrawPad
	preview   *canvas.Image
	Heading   *widget.Label // above the preview: the sample size a drawing becomes
	Label     *labelEntry
	Options   []string // what the label box's drop-down offers
	Centering *widgets.PassingSelect
	Pen       *widgets.PassingSlider
	AddButton *widgets.PassingButton
	Status    *widget.Label
	Digit     *image.Gray // the normalized pad, nil when empty

	// Chosen: the person chose the label of this drawing: the model does not override it.
	Chosen     bool
	suggesting bool // the label box is being filled by the model (suggest)
}

// Show opens (or raises) the draw window for the main window's dataset.
func (dr *Drawer) Show() {
	if d := dr.open; d != nil {
		d.updateClasses()
		d.Win.Show()
		d.Win.RequestFocus()
		d.model.Train()
		return
	}
	d := &Window{host: dr.host, model: dr.model, Win: dr.app.NewWindow("Draw digits — " + dr.title), Status: widget.NewLabel(drawHint)}
	d.Pad = widgets.NewDrawPad(widgets.DrawPadInput{OnChange: d.renormalize, OnKey: d.typedKey, OnRune: d.typedRune, OnShortcut: d.TypedShortcut})
	d.Heading = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	d.preview = &canvas.Image{ScaleMode: canvas.ImageScalePixels, FillMode: canvas.ImageFillContain}
	d.preview.SetMinSize(fyne.NewSize(168, 168))
	d.Label = newLabelEntry(d.TypedShortcut)
	d.Label.SetPlaceHolder("label")
	d.Label.OnChanged = func(string) {
		if !d.suggesting {
			d.Chosen = true
		}
		d.updateClasses()
		d.updateAdd()
	}
	d.Label.OnSubmitted = func(string) { d.Add() } // Enter in the label box adds, as on the pad
	// The other controls keep only the keys that operate them and pass the rest to the canvas's
	// handlers, which act as the pad does: a digit typed after a click on the centring or the pen
	// width is the label, Enter adds, Escape clears.
	d.Centering = widgets.NewCenteringChoice(d.renormalize)
	d.Pen = widgets.NewPassingSlider(0.02, 0.16)
	d.Pen.Step = 0.005
	d.Pen.SetValue(widgets.DefaultPen)
	d.Pen.OnChanged = func(v float64) { d.Pad.SetPen(v) }
	d.AddButton = widgets.NewPassingButton("Add sample (Enter)", d.Add)
	d.AddButton.Importance = widget.HighImportance
	clearBtn := widgets.NewPassingButton("Clear (Esc)", d.Pad.Clear)
	undoBtn := widgets.NewPassingButton("Undo stroke (Ctrl+Z)", d.Pad.UndoStroke)
	likeBtn := widgets.NewPassingButton("More like this (Ctrl+F)", d.MoreLike)
	// Keys typed while nothing has the focus (after a click beside the controls) act as on the pad.
	d.Win.Canvas().SetOnTypedKey(d.typedKey)
	d.Win.Canvas().SetOnTypedRune(d.typedRune)
	for _, sc := range d.shortcuts() {
		d.Win.Canvas().AddShortcut(sc.Key, func(fyne.Shortcut) { sc.Do() })
	}
	d.updateClasses()
	side := container.NewVBox(
		d.Heading,
		d.preview,
		widget.NewLabel("Label"), d.Label,
		widget.NewLabel("Centring"), d.Centering,
		widget.NewLabel("Pen width"), d.Pen,
		d.AddButton, container.NewGridWithColumns(2, clearBtn, undoBtn), likeBtn,
	)
	d.Win.SetContent(container.NewBorder(nil, d.Status, nil, side, container.NewPadded(container.New(widgets.Square{}, d.Pad))))
	d.Win.Resize(fyne.NewSize(760, 480))
	// Centred on the screen: without a window manager a new window opens at the screen's top
	// left, over the main window's menu bar.
	d.Win.CenterOnScreen()
	d.Win.SetOnClosed(func() {
		dr.open = nil
		// Without a window manager nothing else gives the keyboard back: keys went nowhere.
		dr.host.Closed()
	})
	dr.open = d
	d.renormalize()
	d.Win.Show()
	d.Win.Canvas().Focus(d.Pad)
	d.model.Train()
}

// Follow makes the open draw window draw for the dataset the main window now shows (another was
// opened, or a new one started): the pad, the label box and the status line start afresh, the
// preview takes the new sample size, and a model for suggestions trains if the new dataset
// has labels to learn from. The controller calls it once the new dataset is shown.
func (dr *Drawer) Follow() {
	d := dr.open
	if d == nil {
		return
	}
	d.Chosen = false
	d.setLabel("")
	d.Pad.Clear() // renormalizes: the preview at the new size
	d.updateClasses()
	d.Status.SetText(drawHint)
	d.model.Train()
}

// drawHint is the draw window's status line before anything is drawn.
const drawHint = "Draw a digit, type its label, press Enter to add it."

// Close closes the draw window if it is open (the application quits).
func (dr *Drawer) Close() {
	if d := dr.open; d != nil {
		d.Win.Close()
	}
}

// Say puts text on the open draw window's status line.
func (dr *Drawer) Say(text string) {
	if dr.open != nil {
		dr.open.Status.SetText(text)
	}
}

// Suggest has the open draw window suggest a label for its drawing (a model is ready).
func (dr *Drawer) Suggest() {
	if dr.open != nil {
		dr.open.suggest()
	}
}

// updateClasses offers the dataset's classes that match what the label box holds (all when it
// is empty, or holds a listed class), at most classes.MaxOptions of them.
func (d *Window) updateClasses() {
	text := strings.TrimSpace(d.Label.Text)
	if _, ok := d.ChosenLabel(); ok {
		text = ""
	}
	names := d.host.Classes()
	matches := names.Matches(text)
	var opts []string
	for _, c := range matches[:min(len(matches), classes.MaxOptions)] {
		opts = append(opts, names.Long(c))
	}
	if len(matches) > classes.MaxOptions {
		opts = append(opts, numfmt.Sprintf("… %d more: type to narrow", len(matches)-classes.MaxOptions))
	}
	d.Options = opts
	d.Label.SetOptions(opts)
}

// renormalize runs MNIST's preprocessing on the pad (a few hundred microseconds) and shows it.
func (d *Window) renormalize() {
	d.Digit = nil
	h, w := d.host.Size()
	widgets.SetText(d.Heading, fmt.Sprintf("As it will be saved (%d×%d)", h, w))
	if !d.Pad.Empty() {
		opts := normalize.Options{Polarity: normalize.InkLight, Width: w, Height: h, Centering: widgets.CenteringOf(d.Centering.Selected)}
		if g, err := normalize.Digit(d.Pad.Image(), opts); err == nil {
			d.Digit = g
		}
	}
	if d.Digit != nil {
		d.preview.Image = d.Digit
		d.suggest()
	} else {
		if !d.Chosen {
			d.setLabel("") // the model's guess was for the drawing that is gone
		}
		d.preview.Image = image.NewGray(image.Rect(0, 0, w, h))
	}
	d.preview.Refresh()
	d.updateAdd()
}

// ChosenLabel reads the label box: a class number, a class as listed ("11 (B)"), or a name
// (classes.Names.Parse).
func (d *Window) ChosenLabel() (int, bool) { return d.host.Classes().Parse(d.Label.Text) }

// updateAdd enables Add only with something drawn and a label chosen.
func (d *Window) updateAdd() {
	_, ok := d.ChosenLabel()
	if d.Digit == nil || !ok {
		d.AddButton.Disable()
	} else {
		d.AddButton.Enable()
	}
}

// suggest fills the label box with the model's guess for the drawing, unless the person chose a
// label for it, and says how sure the model is.
func (d *Window) suggest() {
	if !d.model.Trained() || d.Digit == nil || d.Chosen {
		return
	}
	h, w := d.host.Size()
	label, conf, err := d.model.Guess(d.Digit.Pix, h, w)
	if err != nil {
		d.setLabel("")
		d.Status.SetText("No suggestion: " + clip.Printable(err.Error()))
		return
	}
	d.setLabel(strconv.Itoa(label))
	trust := ""
	if d.model.LowConfidence() {
		trust = " (" + review.FewLabelsNote + ")"
	}
	d.Status.SetText(fmt.Sprintf("Suggested %s, %.0f%% sure%s: Enter accepts, a digit overrides.", d.host.Classes().Long(label), 100*conf, trust))
}

// setLabel puts text in the label box as the window's own choice (a guess, or nothing), not
// the person's.
func (d *Window) setLabel(text string) {
	d.suggesting = true
	d.Label.SetText(text)
	d.suggesting = false
}

// Add appends the normalized drawing with the chosen label, then clears the pad and the
// label box (the next drawing gets the model's guess or a label typed for it). A drawing
// normalized for another sample size than the dataset's (h×w) is not added: the status line
// says so.
func (d *Window) Add() {
	label, ok := d.ChosenLabel()
	switch {
	case d.host.Busy():
		return
	case d.Digit == nil:
		d.Status.SetText("Nothing to add: draw a digit first.")
		return
	case !ok:
		d.Status.SetText("No label for this drawing: type its label, then press Enter.")
		return
	}
	if h, w := d.host.Size(); d.Digit.Rect.Dy() != h || d.Digit.Rect.Dx() != w {
		d.Status.SetText(fmt.Sprintf("The drawing is %d×%d pixels and this dataset's samples are %d×%d: not added. Draw it again.", d.Digit.Rect.Dy(), d.Digit.Rect.Dx(), h, w))
		d.Pad.Clear()
		return
	}
	i, err := d.host.Add(append([]byte(nil), d.Digit.Pix...), label)
	if err != nil {
		d.Status.SetText(clip.Printable(err.Error()))
		return
	}
	d.Status.SetText(fmt.Sprintf("Added sample %d labelled %s", i, d.host.Classes().Long(label)))
	d.Chosen = false
	d.Pad.Clear() // and the label box (renormalize)
	d.Win.Canvas().Focus(d.Pad)
}

// MoreLike lists, in the main window, the samples most like the digit drawn (as it will be
// saved); with nothing drawn the status line says so.
func (d *Window) MoreLike() {
	if d.Digit == nil {
		d.Status.SetText("Nothing to compare: draw a digit first.")
		return
	}
	d.host.MoreLike(append([]byte(nil), d.Digit.Pix...), d.Digit.Rect.Dy(), d.Digit.Rect.Dx())
}

// typedKey: Enter adds, Escape clears.
func (d *Window) typedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		d.Add()
	case fyne.KeyEscape:
		d.Pad.Clear()
	}
}

// typedRune sets the label from a digit typed on the pad (for datasets of one-digit classes).
func (d *Window) typedRune(r rune) {
	if r >= '0' && r <= '9' && d.host.Classes().Digits {
		d.Label.SetText(string(r))
	}
}

// Shortcut is a shortcut the draw window shares with the main window's menu: its key and what
// it does.
type Shortcut struct {
	Key fyne.Shortcut
	Do  func()
}

// shortcuts are the main window's shortcuts that act in the draw window too: Ctrl+S saves the
// dataset, Ctrl+Q quits the application; Ctrl+W closes the draw window (the one way to
// without a window manager); and the main menu's others (Ctrl+I imports, Ctrl+O opens, …),
// which the main window takes (Host.Shortcuts), so that a key of the menu works whichever window
// has the keys. The draw window's own come first: Ctrl+F, More Like This in the main window,
// asks here for the samples like the drawing, not like the main window's cursor.
func (d *Window) shortcuts() []Shortcut {
	own := []Shortcut{{widgets.Ctrl(fyne.KeyS, false), d.host.Save}, {widgets.Ctrl(fyne.KeyQ, false), d.host.Quit}, {widgets.Ctrl(fyne.KeyW, false), d.Win.Close},
		{widgets.Ctrl(fyne.KeyF, false), d.MoreLike}}
	taken := map[string]bool{}
	for _, sc := range own {
		taken[sc.Key.ShortcutName()] = true
	}
	for _, sc := range d.host.Shortcuts() {
		if !taken[sc.Key.ShortcutName()] {
			taken[sc.Key.ShortcutName()] = true
			own = append(own, sc)
		}
	}
	return own
}

// TypedShortcut runs one of the window's shortcuts typed on the pad or in the label box (a
// focused widget receives every shortcut, so the canvas's would not run); it reports whether s
// was one.
func (d *Window) TypedShortcut(s fyne.Shortcut) bool {
	for _, sc := range d.shortcuts() {
		if s.ShortcutName() == sc.Key.ShortcutName() {
			sc.Do()
			return true
		}
	}
	return false
}

// labelEntry is the draw window's label box: a SelectEntry that hands the window's shortcuts
// (Ctrl+S, Ctrl+Q, Ctrl+W) to onShortcut (a focused text field takes every shortcut, and Entry ignores
// those).
type labelEntry struct {
	widget.SelectEntry
	onShortcut func(fyne.Shortcut) bool
}

func newLabelEntry(onShortcut func(fyne.Shortcut) bool) *labelEntry {
	e := &labelEntry{onShortcut: onShortcut}
	e.ExtendBaseWidget(e)
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip) // as NewSelectEntry sets it
	// The drop-down's button (SetOptions makes it once), which Tab focuses after the text, as a
	// passing button: it keeps Space and Enter, which open the list, and passes a digit, Escape
	// and the rest to the canvas as the window's other controls do.
	e.SetOptions(nil)
	if b, ok := e.ActionItem.(*widget.Button); ok {
		p := widgets.NewPassingButton("", b.OnTapped)
		p.Icon, p.Importance = b.Icon, b.Importance
		e.ActionItem = p
	}
	return e
}

// TypedShortcut runs the window's shortcuts and edits the text on the others.
func (e *labelEntry) TypedShortcut(s fyne.Shortcut) {
	if e.onShortcut(s) {
		return
	}
	e.SelectEntry.TypedShortcut(s)
}
