package main

import "idxlabel/ui"

// runGUI opens the main window on the files named (IMAGES [LABELS]), or on the demo dataset.
func runGUI(args []string) error { return ui.Run(args) }
