//go:build !timing

package ui

import "fyne.io/fyne/v2"

// reportFirstTiles and reportKey print timings in a build with -tags timing (timing.go); here
// they do nothing.
func reportFirstTiles(int) {}

func reportKey(fyne.KeyName) {}
