// Package ui is idxlabel's desktop interface, built on Fyne: the main window (tile grid, side
// panel with the Show list and the class histogram, detail panel, status bar and key legend),
// its menus and dialogs, and the draw window. It talks to store (the dataset), normalize (drawn
// and imported digits), suspect (likely label errors, suggested labels) and export; it never
// parses file bytes itself.
//
// # The parts
//
// One controller owns the application state and is its only writer:
//
//   - state.go: the state (the dataset, its name, the mode, the view model, the jobs) and what
//     each view is handed, made from it (the grid's frame, the side panel's state, the status
//     line, the detail of the sample at the cursor, the title).
//   - controller.go, edit.go: the controller. Its methods are what the person can ask for:
//     move the cursor, click, choose what to show, delete, undo; a mode's own edit (relabel,
//     decide in a review) stands in its mode's file.
//     Each applies the request to the store and the view model on the UI thread, then shows the
//     result (refresh: everything; follow: what depends on the cursor). An edit or save it
//     cannot make (read-only, a job holds edits) is said on the status bar, never in a dialog
//     (cannotEdit); a mode left and chosen again finds the cursor where it was (places).
//   - view.go: the view model: the samples shown, in order, their positions, the selection,
//     the cursor, the filter, and a mode's progress.
//   - mode.go, review.go, checkmode.go: the mode (browse, Suspects, Suggested, Health check,
//     Confusion matrix, Map). A mode is a modeView: its title, what the grid shows in it, what a
//     digit does and its legend; what only some modes have is an optional interface the
//     controller asks for (a list made first, the keys it takes, its badges, its progress,
//     status and detail, the view it shows instead of the grid and whether that view follows
//     the state). A new mode is a new file with its modeView, a value of mode, and its entry in
//     newWindow's table of modes.
//   - jobs.go: the job state: loading, saving, scanning, importing, exporting, training, each
//     with its progress and Cancel; it says whether edits wait. A quit cancels them all and
//     closes the window once their goroutines have ended (stopThen).
//   - held.go: the inputs that wait while a job holds edits (a key typed during a save, and
//     every input after it), applied in order when the job ends.
//
// The views own their widgets, draw what they are handed and report what the person asks for;
// none holds the window or the controller:
//
//   - widgets/ (package widgets, which imports neither ui nor store): the passive widgets. The
//     tile grid (it reads a TileSource and reports keys, clicks and characters as the positions
//     they ask for to a GridInput; its renderer draws one mosaic image of the rows in sight and
//     a Badge per tile), the map view (MapView: pan, zoom, hover, click, lasso; it draws the
//     MapFrame it is handed and reports points), and the draw pad.
//   - gridsource.go, badges.go: what the grid reads (gridFrame: the samples at the view's
//     generation in the view's order, with what each badge says) and where it reports
//     (gridReports: the controller).
//   - sidepanel.go, detail.go, footer.go, menu.go, dialogs.go, drawwindow.go,
//     checkview.go: the side panel, the detail panel (its thumbnails go to their samples), the
//     status bar with the jobs' progress at its right and the legend, the main menu, the
//     dialogs (prompts that answer Escape and Enter, the class picker; an error already open is
//     not stacked again; a job's progress, which passes every key but Escape on to the grid),
//     the draw window and its pad (the main menu's keys typed there act in the main window),
//     the health check's kinds and progress.
//   - chooser.go, filedialog.go: the file and folder chooser (a typed path; the folder's entries
//     in full, filtered to the IDX or image files it is for; Fyne's dialog behind Browse…; the
//     last folder of each purpose kept in Preferences, checked when read), what it lists (IDX
//     files, never idxlabel's own files) and the favourite folders Fyne's dialog asks
//     xdg-user-dir for.
//   - keys.go: where keys that no widget took go (to the grid, unless a dialog is open; under a
//     job's progress to the grid too, where an edit waits for the job).
//   - confusion.go, mapmode.go: the views of the CNN scan, each beside the grid: the confusion
//     matrix as a chart whose cells list their samples (reviewed like suspects), and the 2-D map
//     (widgets.MapView, with its controls and key).
//
// The workflows run the longer work as jobs and hand their results to the controller on the UI
// thread: opener (files.go, newdataset.go), saver (save.go, changelog.go, saved.go), scanner
// (scan.go, analysis.go: the one CNN scan every view shares), suggester (suggest.go; ask.go,
// accept.go, progressnote.go: the Suggested list as the labelling-from-scratch loop), checker
// (check.go, checkdialog.go, report.go: the health check and its report), importer (importer.go,
// importdialog.go, importreport.go: an image folder's classes by normalize's one folder → class
// rule, shown with the dataset that receives them before anything is added), exporter and
// drawer. File → Import Images… and File → Append Dataset… share adding.go: the progress job
// and the add, made after the inputs typed while it ran, with the class names they bring.
// Tools → Scan Again makes the CNN scan without the kept scan (analysis.go). scanViews (scanviews.go) adopts a scan for the confusion matrix and the map and keeps
// them in step with every edit, undo, redo and save (controller.follows); mapper (maplayout.go)
// lays the map out and places samples added later. window.go builds every part with what it
// needs and wires them; app.go's Run is the package's entry. IDXLABEL_QUICK_CNN=1 shortens every
// CNN for the real-window tests (quickcnn.go); testhooks.go holds what else they set through the
// environment.
//
// # How a digit key flows
//
// A digit typed on the grid goes one way, then back through the store's notification:
//
//	widgets.TileGrid.TypedRune (widgets/tilegrid.go) → gridReports.TypedRune (gridsource.go)
//	→ controller.typedRune (edit.go) → the mode's label, which holds the mode's edit:
//	    browsing: browseMode.label → controller.relabel (mode.go) → controller.edit
//	              → store.Dataset.Relabel
//	    a review: reviewMode.label → controller.decide, review.how (review.go)
//	              → controller.edit → store.Dataset.DecideAs
//	→ the store journals the edit (synced to disk), applies it, updates its counts and notifies
//	  its subscribers on this goroutine: controller.queue, which schedules nothing (the edit
//	  drains it)
//	→ controller.drain, called by controller.edit at once → controller.apply: the view model follows
//	  (positions, a review's progress) → controller.refresh: every view is handed its state
//	→ controller.moveCursor (the next sample) → follow: the grid scrolls to the cursor and
//	  redraws; the detail panel, the status bar and the legend follow.
//
// A change made on another goroutine (a save's renumbering) is queued the same way and drained
// once, by the drain its queueing scheduled on the UI thread (jobs.Schedule, fyne.Do), so the view model and the store change together
// there; a view reads the store only at the generation its view model reflects
// (store.Dataset.SampleAt), never with an index from an older state.
//
// While a save runs the digit does not reach the store (its journal is closed): cannotEdit
// queues the input (held.go), the cursor stays, the status bar counts what waits, and the save's
// end makes the inputs again in order, before anything that waited for the save (a quit).
//
// # Cost
//
// Per key and per frame nothing grows with the number of samples: the grid draws only the rows
// in sight, the counts come from the store's tally, a review's progress and the selection are
// kept in the view model as they change, and a label's text is laid out again only when it
// changes (BenchmarkKeyPress: an arrow and a digit on 60,000 and 1,000,000 samples). The map is
// the exception by nature: a pan, a zoom or an edit shown on it draws the points in view again
// (O(points in view), BenchmarkMapFrame70k); a move of the cursor draws only the marks over the
// kept points.
//
// Threading follows Fyne 2.7: widgets are touched only on the UI thread; loading, saving,
// scanning, training, importing and exporting run in goroutines (jobs.Run) that hand their
// progress and results back through jobs.Schedule, which is fyne.Do.
package ui
