package widgets

import "idxlabel/normalize"

// The centring choices, as the draw window and the import dialog offer them (the command line's
// --center mass and --center box).
const (
	CenterMassText = "Centre of mass (MNIST)"
	CenterBoxText  = "Bounding box"
)

// NewCentering makes the choice of how a digit is centred in its square, MNIST's centre of mass
// selected; changed (nil for none) runs when the choice changes.
func NewCentering(changed func()) *PassingRadioGroup {
	r := NewPassingRadioGroup([]string{CenterMassText, CenterBoxText}, nil)
	r.Required = true
	r.SetSelected(CenterMassText)
	if changed != nil {
		r.OnChanged = func(string) { changed() }
	}
	return r
}

// NewCenteringChoice is NewCentering as a PassingSelect, for a window where the keys a focused
// control does not use mean something (the draw window: a digit is the label, Enter adds, Escape
// clears); a radio button, which a click focuses, drops them.
func NewCenteringChoice(changed func()) *PassingSelect {
	s := NewPassingSelect([]string{CenterMassText, CenterBoxText}, nil)
	s.SetSelected(CenterMassText)
	if changed != nil {
		s.OnChanged = func(string) { changed() }
	}
	return s
}

// CenteringOf is the centring chosen as selected (CenterBoxText or CenterMassText; anything else
// is MNIST's centre of mass).
func CenteringOf(selected string) normalize.Centering {
	if selected == CenterBoxText {
		return normalize.CenterBox
	}
	return normalize.CenterMass
}
