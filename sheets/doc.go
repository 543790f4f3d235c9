// Package sheets reads scanned and photographed sheets of handwritten digits: a grid of ruled
// boxes, one digit a box, each box's label given by a Layout. It finds the grid on the page —
// turned, tilted in perspective, shaded, upside down or a quarter turn round — and makes every
// box a sample through MNIST's preprocessing (package normalize, the one path to 28×28), an
// empty box, or a flagged one whose ink crosses into its neighbour. It neither writes files
// (its callers do, under the project's output rule) nor imports Fyne or the store.
//
// The steps (Find): the page in grey (normalize.DecodeGray, its size checked before decoding),
// shrunk to about 1,400 pixels for finding the grid; the paper's level estimated across the
// page and the page taken as ink relative to it (shading gone), made bilevel by Otsu's threshold
// (normalize.Bilevel); the largest ruled frame whose four sides are straight lines and whose
// inside, rectified through a homography, holds the layout's rows and columns of ruled lines;
// which way up from the ink beside it (a sheet's heading is above its grid); then each box cut
// from the full-resolution page through the same map, its lines found in the cut; the page
// under the box deblurred (the Wiener filter of a Gaussian blur of a page pixel, as a scan's
// optics spread the ink) for the reads finer than the page: its inside sampled twice as fine,
// made bilevel, cleared of specks and of what is left of the lines; the
// ink kept read again three times as fine as the page (interpolated by the Catmull–Rom cubic)
// and over the lines it touches (each line divided out there, so a stroke touching it keeps
// its ink), and through normalize.Digit. Each of a box's reads (its cut, its inside, its ink
// read again) holds at most 4 megapixels: a box larger than that (one box ruled over a whole
// page) is read less finely, never with more memory, from the page averaged over each of the
// read's pixels (so a thin stroke or a fine pattern is not aliased by sampling the page every
// few pixels).
//
// For a window (File → Import Sheets…), the calls are:
//
//	srcs, skipped, err := sheets.List([]string{folder}, sheets.WriterIndex) // the sheets, in order
//	l, err := sheets.ParseLayout(10, 12, "rows=0123456789")                 // or ReadLayout(file)
//	s, err := sheets.Read(ctx, srcs[k].Path, l, sheets.Options{})            // one sheet, off the UI thread
//	img := s.Preview(600)                                                    // boxes and labels over it
//	b, err := sheets.ReadAll(ctx, srcs, l, sheets.Options{}, progress)       // every sheet's samples
//
// Read returns, for a page whose grid is not found, a *GridError (errors.Is ErrNoGrid) with a
// Sheet holding only the page's Image, so it can be shown with the reason; Batch holds the
// samples (N×H×W), their labels and writers, where each came from, and one Report a sheet.
// Every call honours its context (Ctrl+C, a dialog's Cancel) and may run on any goroutine; none
// shares state with another. Template and WritePDF make the sheet to print.
//
// Growth: one page at a time (a 600 dpi A4 scan, 35 megapixels, takes its grey image and about
// as much again while it is read, whatever its layout); the samples, 784 bytes each; a contact sheet at most
// MaxContactPixels bytes. Time grows with the page's pixels and the number of boxes, not with
// the dataset.
package sheets
