// Package widgets holds the window's passive widgets: the virtualized tile grid (TileGrid,
// drawing its rows as one mosaic image with a Badge per tile), the map of the samples (MapView),
// the drawing pad (DrawPad), a sample shown large (PixelView), the confusion matrix's picture
// with its cells to tap (ChartImage), a clickable holder (TapTarget), the layouts the views
// share (Square, Beside, CappedHeight, NewFixedBorder) and the controls that pass on the keys
// they do not use (PassingButton, PassingCheck, PassingSelect, PassingList, PassingSlider; in a
// dialog DialogSelect, PassingRadioGroup and NewDialogList).
// Each reads what it shows through a small interface or value it is handed (a TileSource, a MapFrame, pixels, a chart) and reports what
// the person did through the inputs it is built with; none holds the window, the dataset or the
// view model, and the package imports neither ui nor store (layers_test.go). Their methods run
// on the UI thread, as every Fyne widget's.
package widgets
