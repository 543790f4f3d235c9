package build

import (
	"fmt"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/mode"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// maxNamedClasses is how many classes Edit → Class Names… shows a field for: one widget per
// class, so a dataset of more classes names them in its class-name file instead.
const maxNamedClasses = 1000

// ClassNamer is Edit → Class Names…: a form with a name field for each class of the dataset
// (store.Dataset.Classes). The names show at once and are written by the next save as the
// class-name file (store.Dataset.SetClassNames); a field left empty names no class.
type ClassNamer struct{ base }

// Dialog shows the form and applies it.
func (n *ClassNamer) Dialog() {
	if n.h.CannotEdit() {
		return
	}
	ds := n.ds()
	classes := ds.Classes()
	if len(classes) > maxNamedClasses {
		n.d.Inform("Class Names", fmt.Sprintf("This dataset has %d classes: name them in its class-name file (one name a line) rather than here.", len(classes)))
		return
	}
	var d *dialogs.Question
	cancel := func() { d.Dismiss() }
	form := widget.NewForm()
	fields := make([]*dialogs.PromptEntry, len(classes))
	for k, cl := range classes {
		e := dialogs.NewPromptEntry(cancel)
		e.SetText(ds.ClassName(cl))
		e.SetPlaceHolder("no name")
		e.OnSubmitted = func(string) { d.Confirm() }
		fields[k] = e
		form.Append(strconv.Itoa(cl), e)
	}
	note := widget.NewLabel("Written beside the label file when you save (Ctrl+S).")
	content := container.NewBorder(note, nil, nil, nil, container.NewVScroll(form))
	d = dialogs.NewQuestion("Class Names", "Apply", "Cancel", content, func(ok bool) {
		if !ok {
			return
		}
		names := map[int]string{}
		for k, e := range fields {
			if s := strings.TrimSpace(e.Text); s != "" {
				names[classes[k]] = s
			}
		}
		// An input of the person's: it waits behind a save begun meanwhile (CannotEdit), and a
		// refusal of the store (a journal that cannot be written) is said on the status bar.
		n.h.Input(func() { n.Apply(names) })
	}, n.win)
	h := min(form.MinSize().Height+note.MinSize().Height+120, n.win.Canvas().Size().Height-60)
	d.Resize(fyne.NewSize(420, h))
	n.d.Show("class names", d, d.Dismiss, d.Confirm, nil)
	if len(fields) > 0 {
		n.win.Canvas().Focus(fields[0])
	}
}

// Apply sets the class names the form gave (store.Dataset.SetClassNames: journaled, shown at
// once, written by the next save), unless an edit cannot be made now (CannotEdit, which queues
// it behind a save running) or the store refuses it (mode.Refusal: read-only, a journal found at
// Open awaiting its answer, a journal that cannot be written); the status bar says which.
func (n *ClassNamer) Apply(names map[int]string) {
	if n.h.CannotEdit() {
		return
	}
	if err := n.ds().SetClassNames(names); err != nil {
		n.h.Say(mode.Refusal(err))
		return
	}
	n.h.ClassesChanged()
	n.h.Say("Class names set: File → Save writes them")
}
