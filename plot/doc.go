// Package plot draws the dataset's pictures without Fyne, into *image.RGBA: the 2-D map
// (N points coloured by class, marks for suspects, outliers, edited, selected samples and the
// cursor, at any pan and zoom), with its spatial index for the lasso and for picking the point
// under the pointer, and the confusion matrix as a chart (cells coloured by count, axes and
// class names, per-class figures) that also says which cell a pixel belongs to.
//
// The report (package export) encodes these images as PNG; the window (package ui) shows
// them and turns pointer positions into samples through Map and Confusion. Neither reads
// bytes here; plot never imports Fyne.
package plot
