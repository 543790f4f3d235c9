package widgets

import "image/color"

// Badge is the text drawn in a tile's corner (a sample's label, "3→7" for an edited one), in
// Color on Back (nil: BadgeBack). What a badge says is the source's to decide (TileSource.Badge).
// A badge never reaches past its tile: where Text is wider than the tile (the smallest tiles),
// the grid shows Short instead when it is set and fits, and otherwise the text cut to fit,
// ending in "…".
type Badge struct {
	Text  string
	Color color.Color
	Back  color.Color
	// Short is what the badge says on a tile too narrow for Text: its first part (the label,
	// without a score the detail panel also shows). Empty: Text cut to fit.
	Short string
}

// BadgeBack is behind a badge's text unless the badge says otherwise: translucent, so the tile
// shows through.
var BadgeBack = color.NRGBA{0, 0, 0, 120}
