package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"idxlabel/ui/widgets"
)

// EnableRow enables or disables w, the widget of one of form's rows, and redraws form so that
// the row's label follows: a widget.Form draws the label of a row whose widget is disabled grey,
// and the others in the foreground colour, when it is refreshed (widget.Form.updateLabels), not
// when the widget changes; and only for a row whose widget is itself fyne.Disableable (a field
// and its button laid out together in a container never greyed: FieldRow is one). The one rule
// of every form's rows that apply to one choice only (New Dataset's N and class file).
func EnableRow(form *widget.Form, w fyne.Disableable, on bool) {
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
	form.Refresh()
}

// FieldRow is a field with its button beside it (a path and its Choose…), as one form row's
// widget that is enabled and disabled whole, so that the form greys the row's label with them
// (EnableRow).
type FieldRow struct {
	widget.BaseWidget
	field  *PromptEntry
	button *widgets.PassingButton
}

// NewFieldRow lays out field with button at its right, the field taking the width left.
func NewFieldRow(field *PromptEntry, button *widgets.PassingButton) *FieldRow {
	r := &FieldRow{field: field, button: button}
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer lays the field and the button out.
func (r *FieldRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewBorder(nil, nil, nil, r.button, r.field))
}

// Enable enables the field and the button.
func (r *FieldRow) Enable() {
	r.field.Enable()
	r.button.Enable()
}

// Disable disables the field and the button.
func (r *FieldRow) Disable() {
	r.field.Disable()
	r.button.Disable()
}

// Disabled reports whether the row is disabled (its field is).
func (r *FieldRow) Disabled() bool { return r.field.Disabled() }
