package health

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	suspecthealth "idxlabel/suspect/health"
	"idxlabel/ui/widgets"
)

// View is the health check's view, in the grid's place while the window is in the check's
// mode: a button per kind with its count (the kind shown is highlighted), a line on what the
// kind's list holds, the check's progress with Cancel (or, once done, what it checked), and the
// grid under them. It draws the state it is handed (show) and reports the kind picked and
// Cancel; it keeps none of the check's data.
type View struct {
	root     fyne.CanvasObject
	buttons  *fyne.Container      // one button per kind, in kinds' order
	kinds    []suspecthealth.Kind // the kinds the buttons stand for
	about    *widget.Label
	Note     *widget.Label // the progress line, or what was checked
	progress *widget.ProgressBar
	Cancel   *widgets.PassingButton
	Running  *fyne.Container // the bar and Cancel, shown while the check runs

	viewInput
}

// Buttons returns the texts of the kind buttons, in the kinds' order ("Duplicates  4").
func (v *View) Buttons() []string {
	var out []string
	for _, o := range v.buttons.Objects {
		out = append(out, o.(*widgets.PassingButton).Text)
	}
	return out
}

// viewInput is what the check's view reports.
type viewInput struct {
	onKind   func(k suspecthealth.Kind) // a kind's button
	onCancel func()
}

// viewState is what the check's view shows: the kinds (in list order) with the count each
// button shows ("20", "…" while not found), the kind shown and what its list holds, and the
// progress line: a stage with the share done and Cancel while running, what was checked after.
type viewState struct {
	kinds   []suspecthealth.Kind
	counts  map[suspecthealth.Kind]string
	kind    suspecthealth.Kind
	about   string
	running bool
	note    string
	done    float64
}

// newView builds the view around grid, the window's tile grid; it reports to in.
func newView(grid fyne.CanvasObject, in viewInput) *View {
	v := &View{
		viewInput: in,
		buttons:   container.NewHBox(),
		about:     widget.NewLabel(""),
		Note:      widget.NewLabel(""),
		progress:  widget.NewProgressBar(),
	}
	v.about.Wrapping = fyne.TextWrapWord
	v.Note.Truncation = fyne.TextTruncateEllipsis
	v.Cancel = widgets.NewPassingButton("Cancel", func() {
		if v.onCancel != nil {
			v.onCancel()
		}
	})
	// The bar keeps a fixed width beside the note, which takes the rest.
	bar := container.NewGridWrap(fyne.NewSize(180, v.progress.MinSize().Height), v.progress)
	v.Running = container.NewHBox(bar, v.Cancel)
	progress := container.NewBorder(nil, nil, nil, v.Running, v.Note)
	top := container.NewVBox(container.NewHBox(v.buttons, layout.NewSpacer()), v.about, progress)
	v.root = container.NewBorder(top, nil, nil, nil, grid)
	return v
}

// show draws s.
func (v *View) show(s viewState) {
	if !slices.Equal(v.kinds, s.kinds) {
		v.kinds = slices.Clone(s.kinds)
		v.buttons.Objects = nil
		for _, k := range s.kinds {
			v.buttons.Add(widgets.NewPassingButton(KindTitle(k), func() {
				if v.onKind != nil {
					v.onKind(k)
				}
			}))
		}
		v.buttons.Refresh()
	}
	for n, k := range v.kinds {
		b := v.buttons.Objects[n].(*widgets.PassingButton)
		text := KindTitle(k) + "  " + s.counts[k]
		imp := widget.MediumImportance
		if k == s.kind {
			imp = widget.HighImportance
		}
		if b.Text != text || b.Importance != imp {
			b.Text, b.Importance = text, imp
			b.Refresh()
		}
	}
	widgets.SetText(v.about, s.about)
	widgets.SetText(v.Note, s.note)
	if s.running {
		v.progress.SetValue(s.done)
		v.Running.Show()
	} else {
		v.Running.Hide()
	}
}
