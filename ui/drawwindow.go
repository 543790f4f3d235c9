package ui

import (
	"fmt"
	"image"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/numfmt"
	"idxlabel/normalize"
	"idxlabel/ui/classes"
	"idxlabel/ui/review"
	"idxlabel/ui/widgets"
)

// drawDeps is what the draw window works with, handed to it by the window: the dataset's sample
// size and class names, adding a drawn sample (an edit, through the controller), whether edits
// wait, saving, quitting, and the model's guess for a drawing.
type drawDeps struct {
	size    func() (h, w int)
	classes func() classes.Names
	add     func(px []byte, label int) (int, error)
	busy    func() bool
	save    func() // Ctrl+S, as in the main window
	quit    func() // Ctrl+Q, as in the main window: quits the application
	guess   func(px []byte, h, w int) (label int, confidence float64, err error)
	trained func() bool // a model suggests labels
	few     func() bool // the model learnt from too few labels for its confidence to be trusted
	opened  func()      // the window opened: the model trains if there is none
	closed  func()      // the window closed: the main window's grid takes the keys again
	// menu are the main menu's shortcuts the draw window passes on to the main window (nil:
	// none): each raises the main window and does what its item does.
	menu func() []windowShortcut
}

// drawer opens the draw window (Edit → Draw New Digits…) and keeps it while it is open.
type drawer struct {
	app  fyne.App
	deps drawDeps
	open *drawWindow // nil when closed
}

// drawWindow is the window for drawing new samples: the pad, beside it the normalized sample
// as it will be saved (enlarged, crisp), the label, the centring and the pen width. Enter adds
// the sample (one undoable, journaled step) and clears the pad and the label box, so each
// drawing gets its own label ("7, Enter, 1, Enter…"): the model's guess for the next drawing,
// or nothing, never the last drawing's label; Ctrl+Z on the pad undoes the last stroke; Escape
// clears the pad.
type drawWindow struct {
	deps      drawDeps
	win       fyne.Window
	pad       *widgets.DrawPad
	preview   *canvas.Image
	heading   *widget.Label // above the preview: the sample size a drawing becomes
	label     *labelEntry
	options   []string // what the label box's drop-down offers
	centering *widget.RadioGroup
	pen       *widget.Slider
	add       *widget.Button
	status    *widget.Label
	digit     *image.Gray // the normalized pad, nil when empty

	chosen     bool // the person chose the label of this drawing: the model does not override it
	suggesting bool // the label box is being filled by the model (suggest)
}

// Centring choices of the draw window.
const (
	centerMassText = "Centre of mass (MNIST)"
	centerBoxText  = "Bounding box"
)

// show opens (or raises) the draw window for the main window's dataset.
func (dr *drawer) show() {
	if d := dr.open; d != nil {
		d.updateClasses()
		d.win.Show()
		d.win.RequestFocus()
		d.deps.opened()
		return
	}
	deps := dr.deps
	d := &drawWindow{deps: deps, win: dr.app.NewWindow("Draw digits — " + Title), status: widget.NewLabel(drawHint)}
	d.pad = widgets.NewDrawPad(widgets.DrawPadInput{OnChange: d.renormalize, OnKey: d.typedKey, OnRune: d.typedRune, OnShortcut: d.typedShortcut})
	d.heading = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	d.preview = &canvas.Image{ScaleMode: canvas.ImageScalePixels, FillMode: canvas.ImageFillContain}
	d.preview.SetMinSize(fyne.NewSize(168, 168))
	d.label = newLabelEntry(d.typedShortcut)
	d.label.SetPlaceHolder("label")
	d.label.OnChanged = func(string) {
		if !d.suggesting {
			d.chosen = true
		}
		d.updateClasses()
		d.updateAdd()
	}
	d.centering = widget.NewRadioGroup([]string{centerMassText, centerBoxText}, nil)
	d.centering.Required = true
	d.centering.SetSelected(centerMassText)
	d.centering.OnChanged = func(string) { d.renormalize() }
	d.pen = widget.NewSlider(0.02, 0.16)
	d.pen.Step = 0.005
	d.pen.SetValue(widgets.DefaultPen)
	d.pen.OnChanged = func(v float64) { d.pad.SetPen(v) }
	d.add = widget.NewButton("Add sample (Enter)", d.addSample)
	d.add.Importance = widget.HighImportance
	clearBtn := widget.NewButton("Clear (Esc)", d.pad.Clear)
	undoBtn := widget.NewButton("Undo stroke (Ctrl+Z)", d.pad.UndoStroke)
	for _, sc := range d.shortcuts() {
		d.win.Canvas().AddShortcut(sc.key, func(fyne.Shortcut) { sc.do() })
	}
	d.updateClasses()
	side := container.NewVBox(
		d.heading,
		d.preview,
		widget.NewLabel("Label"), d.label,
		widget.NewLabel("Centring"), d.centering,
		widget.NewLabel("Pen width"), d.pen,
		d.add, container.NewGridWithColumns(2, clearBtn, undoBtn),
	)
	d.win.SetContent(container.NewBorder(nil, d.status, nil, side, container.NewPadded(container.New(widgets.Square{}, d.pad))))
	d.win.Resize(fyne.NewSize(760, 480))
	// Centred on the screen: without a window manager a new window opens at the screen's top
	// left, over the main window's menu bar.
	d.win.CenterOnScreen()
	d.win.SetOnClosed(func() {
		dr.open = nil
		if deps.closed != nil {
			// Without a window manager nothing else gives the keyboard back: keys went nowhere.
			deps.closed()
		}
	})
	dr.open = d
	d.renormalize()
	d.win.Show()
	d.win.Canvas().Focus(d.pad)
	deps.opened()
}

// follow makes the open draw window draw for the dataset the main window now shows (another was
// opened, or a new one started): the pad, the label box and the status line start afresh, the
// preview takes the new sample size, and a model for suggestions trains if the new dataset
// has labels to learn from. The controller calls it once the new dataset is shown.
func (dr *drawer) follow() {
	d := dr.open
	if d == nil {
		return
	}
	d.chosen = false
	d.setLabel("")
	d.pad.Clear() // renormalizes: the preview at the new size
	d.updateClasses()
	d.status.SetText(drawHint)
	d.deps.opened()
}

// drawHint is the draw window's status line before anything is drawn.
const drawHint = "Draw a digit, type its label, press Enter to add it."

// close closes the draw window if it is open (the application quits).
func (dr *drawer) close() {
	if d := dr.open; d != nil {
		d.win.Close()
	}
}

// say puts text on the open draw window's status line.
func (dr *drawer) say(text string) {
	if dr.open != nil {
		dr.open.status.SetText(text)
	}
}

// suggest has the open draw window suggest a label for its drawing (a model is ready).
func (dr *drawer) suggest() {
	if dr.open != nil {
		dr.open.suggest()
	}
}

// maxLabelOptions bounds the label box's drop-down: a class-name file may name 10,000 classes,
// and a drop-down menu draws every item; typing narrows the list to the classes that match.
const maxLabelOptions = 40

// updateClasses offers the dataset's classes that match what the label box holds (all when it
// is empty, or holds a listed class), at most maxLabelOptions of them.
func (d *drawWindow) updateClasses() {
	text := strings.TrimSpace(d.label.Text)
	if _, ok := d.chosenLabel(); ok {
		text = ""
	}
	names := d.deps.classes()
	matches := names.Matches(text)
	var opts []string
	for _, c := range matches[:min(len(matches), maxLabelOptions)] {
		opts = append(opts, names.Long(c))
	}
	if len(matches) > maxLabelOptions {
		opts = append(opts, numfmt.Sprintf("… %d more: type to narrow", len(matches)-maxLabelOptions))
	}
	d.options = opts
	d.label.SetOptions(opts)
}

// renormalize runs MNIST's preprocessing on the pad (a few hundred microseconds) and shows it.
func (d *drawWindow) renormalize() {
	d.digit = nil
	h, w := d.deps.size()
	widgets.SetText(d.heading, fmt.Sprintf("As it will be saved (%d×%d)", h, w))
	if !d.pad.Empty() {
		opts := normalize.Options{Polarity: normalize.InkLight, Width: w, Height: h}
		if d.centering.Selected == centerBoxText {
			opts.Centering = normalize.CenterBox
		}
		if g, err := normalize.Digit(d.pad.Image(), opts); err == nil {
			d.digit = g
		}
	}
	if d.digit != nil {
		d.preview.Image = d.digit
		d.suggest()
	} else {
		if !d.chosen {
			d.setLabel("") // the model's guess was for the drawing that is gone
		}
		d.preview.Image = image.NewGray(image.Rect(0, 0, w, h))
	}
	d.preview.Refresh()
	d.updateAdd()
}

// chosenLabel reads the label box: a class number, a class as listed ("11 (B)"), or a name
// (classes.Names.Parse).
func (d *drawWindow) chosenLabel() (int, bool) { return d.deps.classes().Parse(d.label.Text) }

// updateAdd enables Add only with something drawn and a label chosen.
func (d *drawWindow) updateAdd() {
	_, ok := d.chosenLabel()
	if d.digit == nil || !ok {
		d.add.Disable()
	} else {
		d.add.Enable()
	}
}

// suggest fills the label box with the model's guess for the drawing, unless the person chose a
// label for it, and says how sure the model is.
func (d *drawWindow) suggest() {
	if !d.deps.trained() || d.digit == nil || d.chosen {
		return
	}
	h, w := d.deps.size()
	label, conf, err := d.deps.guess(d.digit.Pix, h, w)
	if err != nil {
		d.setLabel("")
		d.status.SetText("No suggestion: " + err.Error())
		return
	}
	d.setLabel(strconv.Itoa(label))
	trust := ""
	if d.deps.few() {
		trust = " (" + review.FewLabelsNote + ")"
	}
	d.status.SetText(fmt.Sprintf("Suggested %s, %.0f%% sure%s: Enter accepts, a digit overrides.", d.deps.classes().Long(label), 100*conf, trust))
}

// setLabel puts text in the label box as the window's own choice (a guess, or nothing), not
// the person's.
func (d *drawWindow) setLabel(text string) {
	d.suggesting = true
	d.label.SetText(text)
	d.suggesting = false
}

// addSample appends the normalized drawing with the chosen label, then clears the pad and the
// label box (the next drawing gets the model's guess or a label typed for it). A drawing
// normalized for another sample size than the dataset's (h×w) is not added: the status line
// says so.
func (d *drawWindow) addSample() {
	label, ok := d.chosenLabel()
	switch {
	case d.deps.busy():
		return
	case d.digit == nil:
		d.status.SetText("Nothing to add: draw a digit first.")
		return
	case !ok:
		d.status.SetText("No label for this drawing: type its label, then press Enter.")
		return
	}
	if h, w := d.deps.size(); d.digit.Rect.Dy() != h || d.digit.Rect.Dx() != w {
		d.status.SetText(fmt.Sprintf("The drawing is %d×%d pixels and this dataset's samples are %d×%d: not added. Draw it again.", d.digit.Rect.Dy(), d.digit.Rect.Dx(), h, w))
		d.pad.Clear()
		return
	}
	i, err := d.deps.add(append([]byte(nil), d.digit.Pix...), label)
	if err != nil {
		d.status.SetText(err.Error())
		return
	}
	d.status.SetText(fmt.Sprintf("Added sample %d labelled %s", i, d.deps.classes().Long(label)))
	d.chosen = false
	d.pad.Clear() // and the label box (renormalize)
	d.win.Canvas().Focus(d.pad)
}

// typedKey: Enter adds, Escape clears.
func (d *drawWindow) typedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		d.addSample()
	case fyne.KeyEscape:
		d.pad.Clear()
	}
}

// typedRune sets the label from a digit typed on the pad (for datasets of one-digit classes).
func (d *drawWindow) typedRune(r rune) {
	if r >= '0' && r <= '9' && d.deps.classes().Digits {
		d.label.SetText(string(r))
	}
}

// windowShortcut is a shortcut the draw window shares with the main window's menu.
type windowShortcut struct {
	key fyne.Shortcut
	do  func()
}

// shortcuts are the main window's shortcuts that act in the draw window too: Ctrl+S saves the
// dataset, Ctrl+Q quits the application; Ctrl+W closes the draw window (the one way to
// without a window manager); and the main menu's others (Ctrl+I imports, Ctrl+O opens, …),
// which the main window takes (deps.menu), so that a key of the menu works whichever window
// has the keys. The draw window's own (Ctrl+Z undoes a stroke) come first.
func (d *drawWindow) shortcuts() []windowShortcut {
	own := []windowShortcut{{shortcut(fyne.KeyS, false), d.deps.save}, {shortcut(fyne.KeyQ, false), d.deps.quit}, {shortcut(fyne.KeyW, false), d.win.Close}}
	if d.deps.menu == nil {
		return own
	}
	taken := map[string]bool{}
	for _, sc := range own {
		taken[sc.key.ShortcutName()] = true
	}
	for _, sc := range d.deps.menu() {
		if !taken[sc.key.ShortcutName()] {
			taken[sc.key.ShortcutName()] = true
			own = append(own, sc)
		}
	}
	return own
}

// typedShortcut runs one of the window's shortcuts typed on the pad or in the label box (a
// focused widget receives every shortcut, so the canvas's would not run); it reports whether s
// was one.
func (d *drawWindow) typedShortcut(s fyne.Shortcut) bool {
	for _, sc := range d.shortcuts() {
		if s.ShortcutName() == sc.key.ShortcutName() {
			sc.do()
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
	return e
}

// TypedShortcut runs the window's shortcuts and edits the text on the others.
func (e *labelEntry) TypedShortcut(s fyne.Shortcut) {
	if e.onShortcut(s) {
		return
	}
	e.SelectEntry.TypedShortcut(s)
}
