package main

import "errors"

// runGUI opens the GUI; the GUI is not built yet.
func runGUI(args []string) error {
	return errors.New("the GUI is not built yet; try 'idxlabel help'")
}
