// Package ui is idxlabel's desktop interface, built on Fyne: the main window (tile grid, class
// histogram and filters, detail view, status bar), its menus and dialogs, and the demo dataset.
// It talks to store (the dataset), normalize (drawn and imported digits) and suspect (likely
// label errors); it never parses file bytes itself.
//
// Threading follows Fyne 2.7: widgets are touched only on the UI thread; loading, saving and
// scanning run in goroutines that hand their results back with fyne.Do.
package ui
