package widgets

import "image/color"

// Badge is the text drawn in a tile's corner (a sample's label, "3→7" for an edited one), in
// Color on Back (nil: BadgeBack). What a badge says is the source's to decide (TileSource.Badge).
type Badge struct {
	Text  string
	Color color.Color
	Back  color.Color
}

// BadgeBack is behind a badge's text unless the badge says otherwise: translucent, so the tile
// shows through.
var BadgeBack = color.NRGBA{0, 0, 0, 120}
