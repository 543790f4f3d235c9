// Package icons holds the app's bundled resources: the icon (a 256×256 PNG drawn by gen.go).
// It has no Fyne import; ui wraps the bytes in a fyne.StaticResource.
package icons

import _ "embed"

// IconPNG is the app icon, 256×256 pixels, PNG-encoded: a "7" at 28×28 shown with enlarged
// pixels and a label badge. Regenerate with `go run icons/gen.go`.
//
//go:embed icon.png
var IconPNG []byte
