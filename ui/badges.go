package ui

import (
	"image/color"

	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/mode"
	"idxlabel/ui/widgets"
)

// badge is the text drawn in a tile's corner (widgets.Badge): its label, or "3→7" for an edited
// sample, in its colour on its back (nil: widgets.BadgeBack).
type badge = widgets.Badge

// Badge colours. The tiles are MNIST's white ink on black in both themes (a deleted one tinted
// dark red), so the badges are the same in both.
var (
	badgePlain  = color.NRGBA{255, 255, 255, 255}
	badgeEdited = color.NRGBA{255, 170, 60, 255}
	badgeAdded  = color.NRGBA{110, 220, 130, 255}
	// A deleted sample's badge: white on solid red, at least 7:1 (WCAG's AAA for small text)
	// over any pixel of a deleted tile; red text on the tile's dark red was hard to read.
	badgeDeleted     = color.NRGBA{255, 255, 255, 255}
	badgeDeletedBack = color.NRGBA{160, 25, 25, 255}
)

// tileMarks is what the grid badges its tiles with: the classes' short names and the mode's
// verdicts (nil: none). The controller hands it to the grid with the view model.
type tileMarks struct {
	classes  classes.Names
	verdicts mode.Badger
}

// badge is the corner text of sample i in state st: "7", or "3→7" when edited, "+7" when
// added, in red when deleted; then what the mode's verdicts make of it.
func (m tileMarks) badge(i int, st store.State) badge {
	b := badge{Text: m.classes.Short(st.Label), Color: badgePlain}
	switch {
	case st.Deleted:
		b.Color, b.Back = badgeDeleted, badgeDeletedBack
	case st.Edited:
		b.Text = m.classes.Short(st.Original) + "→" + b.Text
		b.Color = badgeEdited
	case st.Added:
		b.Text = "+" + b.Text
		b.Color = badgeAdded
	}
	if m.verdicts != nil {
		b = m.verdicts.Badge(i, st, b, m.classes)
	}
	return b
}
