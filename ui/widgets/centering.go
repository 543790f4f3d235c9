package widgets

import (
	"fyne.io/fyne/v2/widget"

	"idxlabel/normalize"
)

// The centring choices, as the draw window and the import dialog offer them (the command line's
// --center mass and --center box).
const (
	CenterMassText = "Centre of mass (MNIST)"
	CenterBoxText  = "Bounding box"
)

// NewCentering makes the choice of how a digit is centred in its square, MNIST's centre of mass
// selected; changed (nil for none) runs when the choice changes.
func NewCentering(changed func()) *widget.RadioGroup {
	r := widget.NewRadioGroup([]string{CenterMassText, CenterBoxText}, nil)
	r.Required = true
	r.SetSelected(CenterMassText)
	if changed != nil {
		r.OnChanged = func(string) { changed() }
	}
	return r
}

// CenteringOf is the centring r chooses.
func CenteringOf(r *widget.RadioGroup) normalize.Centering {
	if r.Selected == CenterBoxText {
		return normalize.CenterBox
	}
	return normalize.CenterMass
}
