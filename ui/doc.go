// Package ui is idxlabel's desktop interface, built on Fyne: the main window (tile grid, side
// panel with the Show list and the class histogram, detail panel, status bar and key legend),
// its menus, and the controller that owns what the window shows. Its modes and workflows are
// packages of their own below it; ui builds each with what it needs and wires them. Nothing in
// ui or below parses file bytes: it talks to store (the dataset), normalize (drawn and imported
// digits), suspect and activelearn (likely label errors, suggested labels) and export.
//
// # The parts in this package
//
// One controller owns the application state and is its only writer:
//
//   - state.go: the state (the dataset, its name, the mode, the view model, the jobs) and what
//     each view is handed, made from it (the grid's frame, the side panel's state, the status
//     line, the detail of the sample at the cursor, the title).
//   - controller.go, edit.go, mode.go: the controller. Its methods are what the person can ask
//     for: move the cursor, click, choose what to show, relabel, delete, undo. Each applies the
//     request to the store and the view model on the UI thread, then shows the result (refresh:
//     everything; follow: what depends on the cursor). An edit it cannot make (read-only, a job
//     holds edits, a journal that cannot be written) is said on the status bar, never in a
//     dialog (refuse).
//   - host.go: the controller as the modes and workflows see it (modeHost is a mode.Controller;
//     the Host adapters of ui/build and ui/draw), so none of them holds the controller.
//   - view.go: the view model: the samples shown, in order, their positions, the selection, the
//     cursor, the filter, and a mode's progress.
//   - held.go: the inputs that wait while a job holds edits (a key typed during a save, and
//     every input after it), applied in order when the job ends.
//   - gridsource.go, gridinput.go, badges.go: what the grid reads (gridFrame: the samples at the
//     view's generation in the view's order, with each tile's badge) and where it reports
//     (gridReports: keys, clicks and characters, to the controller).
//   - sidepanel.go, detail.go, footer.go, frame.go, menu.go, keys.go, keyref.go: the side panel,
//     the detail panel (a sample's pixels, label, source; its thumbnails go to their samples),
//     the status bar with the jobs' progress and the legend, the frame that holds them around the
//     grid (a banner above it, a mode's view in its place), the main menu, where keys no widget
//     took go, and the keyboard reference.
//   - said.go: the message the status bar says in place of the state's line, kept until the
//     cursor moves or the state changes, whatever redraws meanwhile (renderCursor reads it).
//   - files.go, newdataset.go (opener), save.go, saved.go, changelog.go (saver), exporter.go:
//     opening, creating, saving and exporting a dataset, each a job with progress and Cancel.
//   - window.go: newWindow builds every part with what it needs and wires them; it assembles and
//     defines no behaviour. app.go's Run is the package's entry. testhooks.go and timing.go hold
//     what the real-window tests (scripts/*.sh) set through the environment.
//
// # The packages below
//
// Each mode or workflow is a package that works with the window through a small interface of
// its own (a mode through mode.Controller, a workflow through its Host), never imports ui and
// never imports another workflow (layers_test.go):
//
//   - mode: the contract between the controller and its modes; mode.Browse is browsing.
//   - review: a list decided one sample at a time, the base of suspects, suggest and confusion.
//   - scan: the one CNN scan the views share, and the views' data kept in step with every edit.
//   - suspects, suggest, health, confusion, mapview: the Suspects review, the Suggested list
//     (labelling from scratch), the health check, the confusion matrix, the map.
//   - similar: more like this (Ctrl+F), the samples most like the cursor's or the drawing.
//   - annotators: other annotators' label files compared (the Disagreements mode, agreement and
//     κ) and errata exported and applied.
//   - build: Import Images…, Append Dataset…, Save Shown As…, Split Dataset…, Class Names…;
//     sheets: Import Sheets…; both add samples through adding (the progress job and the one
//     undoable step after the inputs typed meanwhile).
//   - convert: Parquet, Kaggle CSV and NumPy files opened as IDX pairs written beside them
//     (opener hands them over), and Save As's format list.
//   - draw: the draw window.
//   - dialogs, jobs, classes, widgets, testhook, platform: the dialogs and the file chooser, the
//     jobs' state, how a class is named, the passive widgets, the real-window tests' hooks, and
//     the glue to the system Fyne does not cover.
//
// # How a digit key flows
//
// A digit typed on the grid goes one way, then back through the store's notification:
//
//	widgets.TileGrid.TypedRune (widgets/tilegrid.go) → gridReports.TypedRune (gridinput.go)
//	→ inputs.input (held.go: now, or queued behind a job) → gridReports.typeClass
//	→ the mode's Label, which holds the mode's edit:
//	    browsing: mode.Browse.Label → modeHost.Relabel → controller.relabel (mode.go)
//	              → controller.edit → store.Dataset.Relabel
//	    a review: review.Mode.Label → review.DecideAs → modeHost.Edit → controller.edit
//	              → store.Dataset.DecideAs
//	→ the store journals the edit (synced to disk), applies it, updates its counts and notifies
//	  its subscribers on this goroutine: controller.queue, which schedules nothing (the edit
//	  drains it)
//	→ controller.drain, called by controller.edit at once → controller.apply: the view model
//	  follows (positions, a review's progress) → controller.refresh: every view is handed its
//	  state
//	→ controller.moveCursor (the next sample) → follow: the grid scrolls to the cursor and
//	  redraws; the detail panel, the status bar and the legend follow.
//
// A change made on another goroutine (a save's renumbering) is queued the same way and drained
// once, by the drain its queueing scheduled on the UI thread (jobs.Schedule, fyne.Do), so the
// view model and the store change together there; a view reads the store only at the
// generation its view model reflects (store.Dataset.SampleAt), never with an index from an
// older state.
//
// While a save runs the digit does not reach the store (its journal is closed): the input is
// queued (held.go), the cursor stays, the status bar counts what waits, and the save's end
// makes the inputs again in order, before anything that waited for the save (a quit).
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
