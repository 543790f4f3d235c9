package sheets

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/normalize"
	sheetread "idxlabel/sheets"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/jobs"
	"idxlabel/ui/testhook"
	"idxlabel/ui/widgets"
)

// isSheet says which files the choosers list: images import-sheets reads.
func isSheet(name string) bool { return normalize.IsImageFile(name) }

// writerChoices are the dialog's choices of each sample's writer, in sheets.WriterFrom's order,
// as the command line's --writer-from index|name.
var writerChoices = []string{"The sheet's number in reading order (0, 1, 2, …)", "The first number in the sheet's file name"}

// The dialog's choices of the dataset that receives the samples.
const (
	intoOpen = iota
	intoNew
)

// view is the sheets dialog: the sheets given (a folder, or sheet files), the layout (rows,
// columns and labels, or a layout file, as the command line's flags), where each writer comes
// from and which dataset receives the samples; the list of sheets, each with what was found on
// it; the chosen sheet's preview. Every field's change reads the sheets again (a new survey);
// the UI thread only lays out what the survey hands it.
type view struct {
	m     *Importer
	args  []string // the folders and files given
	srcs  []sheetread.Source
	skip  []string // the files of the folders given that are not sheets
	l     *sheetread.Layout
	err   error               // why the sheets cannot be read as given (no sheet, a bad layout)
	found []*sheetread.Report // by sheet: what the survey found (nil: not read yet)
	chose int                 // the sheet previewed
	gen   int                 // the survey's generation: results of an older one are dropped
	job   *jobs.Job           // the survey's (it holds no edits; a quit cancels it)
	sv    *survey

	rows, cols, labels, file *dialogs.PromptEntry
	writer                   *widgets.DialogSelect
	into                     *widgets.PassingRadioGroup
	given, head, caption     *widget.Label
	list                     *widgets.PassingList
	img                      *canvas.Image
	d                        *dialogs.Question
}

// Show opens the sheets dialog on args (folders of sheets, or sheet files) with the default
// layout (10 rows × 12 columns, row k the digit k, as the printed template) and starts reading
// the sheets. Import starts the import (plan).
func (m *Importer) Show(args []string) {
	if m.h.CannotEdit() {
		return
	}
	v := &view{m: m, args: args, chose: 0}
	escape := func() { v.d.Dismiss() }
	v.rows, v.cols, v.labels, v.file = dialogs.NewPromptEntry(escape), dialogs.NewPromptEntry(escape), dialogs.NewPromptEntry(escape), dialogs.NewPromptEntry(escape)
	def := sheetread.DefaultLayout()
	v.rows.SetText(strconv.Itoa(def.Rows))
	v.cols.SetText(strconv.Itoa(def.Cols))
	v.labels.SetText("rows=0123456789")
	v.file.SetPlaceHolder("none: rows, columns and labels above")
	v.writer = widgets.NewDialogSelect(writerChoices, nil)
	v.writer.SetSelectedIndex(int(sheetread.WriterIndex))
	v.given, v.head, v.caption = widget.NewLabel(""), widget.NewLabel(""), widget.NewLabel("")
	v.head.Wrapping, v.caption.Wrapping = fyne.TextWrapWord, fyne.TextWrapWord
	v.img = canvas.NewImageFromImage(nil)
	v.img.FillMode = canvas.ImageFillContain
	v.img.ScaleMode = canvas.ImageScaleSmooth
	v.img.SetMinSize(fyne.NewSize(360, 500))
	v.list = widgets.NewDialogList(func() int { return len(v.srcs) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(v.rowText(id)) })
	v.list.OnSelected = func(id widget.ListItemID) { v.choose(id) }

	name := m.h.Name()
	ds := m.h.State().DS
	h, w := ds.Size()
	openText := fmt.Sprintf("The open dataset: %s (%s of %d×%d)", name, numfmt.Plural(ds.Len(), "sample"), w, h)
	newText := fmt.Sprintf("A new dataset of %d×%d samples (as File → New Dataset… starts one; the open one closes)", newSize, newSize)
	choices := []string{openText, newText}
	into := intoOpen
	if name == "" {
		choices, into = []string{newText}, 0
	} else if m.h.Demo() {
		into = intoNew // the demo is for trying the window, not a dataset to grow
	}
	v.into = widgets.NewPassingRadioGroup(choices, nil)
	v.into.Required = true
	v.into.SetSelected(choices[into])

	for _, e := range []*dialogs.PromptEntry{v.rows, v.cols, v.labels, v.file} {
		e.OnChanged = func(string) { v.reread() }
		e.OnSubmitted = func(string) { m.win.Canvas().Unfocus() } // Enter leaves the field; Enter again imports
	}
	v.writer.OnChanged = func(string) { v.reread() }
	folder := widgets.NewPassingButton("Folder…", func() {
		m.d.Choose(dialogs.Spec{Title: "Import Sheets: the folder of sheets", Confirm: "Choose", Purpose: dialogs.PurposeImport, Folder: true,
			Filter: isSheet, Kind: "sheet image"}, func(dir string) { v.args = []string{dir}; v.reread() })
	})
	add := widgets.NewPassingButton("Add Sheet…", func() {
		m.d.Choose(dialogs.Spec{Title: "Import Sheets: a sheet", Confirm: "Add", Purpose: dialogs.PurposeImport,
			Filter: isSheet, Kind: "sheet images"}, func(path string) { v.add(path) })
	})
	layoutFile := widgets.NewPassingButton("Choose…", func() {
		m.d.Choose(dialogs.Spec{Title: "Import Sheets: the layout file", Confirm: "Choose", Purpose: dialogs.PurposeImport,
			Filter: func(n string) bool { return strings.EqualFold(filepath.Ext(n), ".json") }, Kind: "layout files (.json)"},
			func(path string) { v.file.SetText(path) })
	})
	small := func(e fyne.CanvasObject) fyne.CanvasObject {
		return container.NewGridWrap(fyne.NewSize(70, e.MinSize().Height), e)
	}
	grid := container.NewBorder(nil, nil, container.NewHBox(widget.NewLabel("Rows"), small(v.rows), widget.NewLabel("Columns"), small(v.cols), widget.NewLabel("Labels")), nil, v.labels)
	form := widget.NewForm(
		widget.NewFormItem("Sheets", container.NewBorder(nil, nil, nil, container.NewHBox(folder, add), v.given)),
		widget.NewFormItem("Layout", grid),
		widget.NewFormItem("Layout file", container.NewBorder(nil, nil, nil, layoutFile, v.file)),
		widget.NewFormItem("Writer", v.writer),
		widget.NewFormItem("Add to", v.into),
	)
	writerNote := widget.NewLabel("Each sample's writer is kept in its source (\"sheet-03.jpg row 4, column 7, writer 2\"): the detail panel shows it, and Save writes it beside the labels. idxlabel import-sheets writes it as a second label column instead.")
	writerNote.Wrapping = fyne.TextWrapWord
	legend := widget.NewLabel("Boxes: green a sample · grey empty · red flagged (ink crosses a line) · blue skipped by the layout; the grid's outline blue.")
	legend.Wrapping = fyne.TextWrapWord
	size := m.win.Canvas().Size()
	// The form, the notes and the list at the left; the preview takes the dialog's whole height
	// at the right.
	left := container.NewBorder(container.NewVBox(form, writerNote, v.head), nil, nil, nil, v.list)
	right := container.NewBorder(nil, container.NewVBox(v.caption, legend), nil, nil, v.img)
	split := container.NewHSplit(left, right)
	split.Offset = 0.55
	content := split
	v.d = dialogs.NewQuestion("Import sheets", "Import", "Cancel", content, func(ok bool) {
		v.stop()
		if ok {
			v.confirm()
		}
	}, m.win)
	v.d.Resize(fyne.NewSize(size.Width-40, size.Height-30))
	m.d.Show("import sheets", v.d, v.d.Dismiss, v.d.Confirm, func() {
		v.stop()
		m.d.Done()
	})
	m.win.Canvas().Unfocus() // Enter imports
	v.reread()
}

// reread lists the sheets given and reads the layout as the fields say, then starts a new
// survey of them (the old one stops); what cannot be read is said on the head line.
func (v *view) reread() {
	v.stop()
	v.srcs, v.skip, v.l, v.err = nil, nil, nil, nil
	v.found = nil
	v.img.Image = nil
	v.img.Refresh()
	v.caption.SetText("")
	v.given.SetText(givenText(v.args))
	from := sheetread.WriterFrom(max(0, v.writer.SelectedIndex()))
	v.srcs, v.skip, v.err = sheetread.List(v.args, from)
	if v.err == nil {
		v.l, v.err = v.layout()
	}
	if v.err != nil {
		v.srcs = nil
		v.list.Refresh()
		v.head.SetText(clip.Printable(v.err.Error()))
		return
	}
	v.found = make([]*sheetread.Report, len(v.srcs))
	v.chose = min(v.chose, len(v.srcs)-1)
	v.job = v.m.jobs.Start(jobs.Checking, "")
	v.sv = newSurvey(v.job.Ctx, v.srcs, v.l, sheetread.Options{})
	gen, sv := v.gen, v.sv
	v.m.jobs.Run(func() {
		sv.run(func(r read) { v.m.jobs.Schedule(func() { v.show(gen, r) }) })
	})
	v.list.Refresh()
	v.list.OnSelected = nil // Select calls it only for another row: the preview is asked for below
	v.list.Select(v.chose)
	v.list.OnSelected = func(id widget.ListItemID) { v.choose(id) }
	v.choose(v.chose)
	v.sum()
}

// add adds the sheet file path to the sheets given, unless it is listed already (it, or the
// folder that holds it, was given).
func (v *view) add(path string) {
	for _, s := range v.srcs {
		if filepath.Clean(s.Path) == filepath.Clean(path) {
			v.head.SetText(clip.Name(path) + " is listed already.")
			return
		}
	}
	v.args = append(v.args, path)
	v.reread()
}

// layout is the layout the fields give: the layout file's when one is named, else the rows,
// columns and labels. Errors: the file's (sheets.ReadLayout), or the fields' (sheets.ParseLayout).
func (v *view) layout() (*sheetread.Layout, error) {
	if f := strings.TrimSpace(v.file.Text); f != "" {
		return sheetread.ReadLayout(f)
	}
	r, err1 := strconv.Atoi(strings.TrimSpace(v.rows.Text))
	c, err2 := strconv.Atoi(strings.TrimSpace(v.cols.Text))
	if err1 != nil || err2 != nil {
		return nil, fmt.Errorf("the layout's rows and columns are whole numbers (1–%d)", max(sheetread.MaxRows, sheetread.MaxCols))
	}
	return sheetread.ParseLayout(r, c, strings.TrimSpace(v.labels.Text))
}

// stop ends the survey running, if any, and drops what it has still to hand over (UI thread).
func (v *view) stop() {
	v.gen++
	if v.job != nil {
		v.job.Cancel()
		v.m.jobs.Finish(v.job)
		v.job = nil
	}
}

// choose previews sheet k: the survey reads it next.
func (v *view) choose(k int) {
	if k < 0 || k >= len(v.srcs) || v.sv == nil {
		return
	}
	v.chose = k
	v.img.Image = nil
	v.img.Refresh()
	v.caption.SetText("Reading " + clip.Name(v.srcs[k].Path) + "…")
	v.sv.want(k)
}

// show takes a survey's result of generation gen (UI thread): the sheet's row, the head line,
// and the preview when it is of the sheet chosen.
func (v *view) show(gen int, r read) {
	if gen != v.gen || r.k >= len(v.found) {
		return // an older survey's
	}
	v.found[r.k] = &r.report
	v.list.RefreshItem(r.k)
	v.sum()
	if r.preview == nil && r.k == v.chose && r.report.Err != nil && v.img.Image == nil {
		v.caption.SetText(sheetLine(r.report))
	}
	if r.preview == nil || r.k != v.chose {
		return
	}
	v.img.Image = r.preview
	v.img.Refresh()
	v.caption.SetText(sheetLine(r.report))
	b := r.preview.Bounds()
	testhook.Note(testhook.Sheets, fmt.Sprintf("preview=%d filled=%d empty=%d flagged=%d width=%d height=%d grid=%t",
		r.k, r.report.Counts.Filled, r.report.Counts.Empty, r.report.Counts.Flagged, b.Dx(), b.Dy(), r.report.Err == nil))
}

// rowText is sheet id's row of the list: its file and what was found on it.
func (v *view) rowText(id int) string {
	if id >= len(v.srcs) {
		return ""
	}
	name := clip.Name(v.srcs[id].Path)
	if id >= len(v.found) || v.found[id] == nil {
		return name + "  ·  reading…"
	}
	if r := v.found[id]; r.Err != nil {
		return "✗ " + sheetLine(*r)
	}
	return sheetLine(*v.found[id])
}

// sheetLine is a sheet's line: its file's name and its summary (sheets.Report.Summary), the
// file not named twice.
func sheetLine(r sheetread.Report) string {
	return clip.Name(r.Path) + ": " + clip.Printable(strings.TrimPrefix(r.Summary(), r.Path+": "))
}

// sum says on the head line how many sheets were read of how many, the samples they give, and
// those without a grid.
func (v *view) sum() {
	read, failed, filled, flagged := 0, 0, 0, 0
	for _, r := range v.found {
		switch {
		case r == nil:
		case r.Err != nil:
			failed++
		default:
			read++
			filled += r.Counts.Filled
			flagged += r.Counts.Flagged
		}
	}
	text := fmt.Sprintf("%s, %d×%d boxes each: %s from %d read so far", numfmt.Plural(len(v.srcs), "sheet"), v.l.Rows, v.l.Cols, numfmt.Plural(filled, "sample"), read)
	if read+failed == len(v.srcs) {
		text = fmt.Sprintf("%s, %d×%d boxes each: %s from %d", numfmt.Plural(len(v.srcs), "sheet"), v.l.Rows, v.l.Cols, numfmt.Plural(filled, "sample"), read)
	}
	if flagged > 0 {
		text += fmt.Sprintf(", %s flagged (ink crossing a line: not imported)", boxes(flagged))
	}
	if failed > 0 {
		text += fmt.Sprintf("; %s gave nothing (✗: no grid of this layout found, or not readable)", numfmt.Plural(failed, "sheet"))
	}
	if len(v.skip) > 0 {
		text += fmt.Sprintf("; %s in the folder skipped (not a sheet image)", numfmt.Plural(len(v.skip), "other file"))
	}
	v.head.SetText(text + ". Choose a sheet to see the boxes found and their labels.")
}

// givenText names what was given: "scans/", "scans/ and 2 files".
func givenText(args []string) string {
	parts := slices.Clone(args)
	if len(parts) > 3 {
		parts = append(parts[:2], numfmt.Sprintf("… (%d in all)", len(args)))
	}
	return strings.Join(parts, ", ")
}

// confirm imports the sheets as the dialog shows them (UI thread); a layout or list that cannot
// be read is shown as an error.
func (v *view) confirm() {
	if v.err != nil {
		v.m.d.ShowError(v.err)
		return
	}
	v.m.start(plan{args: v.args, srcs: v.srcs, layout: v.l, fresh: v.into.Selected != "" && strings.HasPrefix(v.into.Selected, "A new dataset")})
}

// boxes counts boxes: "1 box", "12 boxes".
func boxes(n int) string {
	if n == 1 {
		return "1 box"
	}
	return numfmt.Sprintf("%d boxes", n)
}
