package build

import (
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/numfmt"
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/widgets"
)

// Report says how many samples came in, by class, and lists every file skipped with its reason,
// named within dir: a list of at most maxReportRows rows in sight, which scrolls (a list lays out
// only the rows in sight, so thousands of skipped files cost nothing); a row wraps its text
// rather than cutting the reason. Enter or Escape closes it.
func (m *Importer) Report(dir string, added []store.Sample, skipped []string, names classes.Names) {
	text := fmt.Sprintf("Added %s.", numfmt.Plural(len(added), "sample"))
	if len(added) > 0 {
		text = fmt.Sprintf("Added %s (undo removes them all): %s.", numfmt.Plural(len(added), "sample"), perClass(added, names))
	}
	if len(skipped) == 0 {
		m.d.InformAs("import report", "Import", text)
		return
	}
	text += fmt.Sprintf(" Skipped %s:", numfmt.Plural(len(skipped), "file"))
	lines := make([]string, len(skipped))
	for k, s := range skipped {
		lines[k] = strings.TrimPrefix(s, dir+string(filepath.Separator))
	}
	head := widget.NewLabel(text)
	head.Wrapping = fyne.TextWrapWord
	width := min(m.win.Canvas().Size().Width-80, 900)
	list := wrappedList(lines, width)
	row := widget.NewLabel("X").MinSize().Height
	content := widgets.NewFixedBorder(head, list, fyne.NewSize(width, row*float32(min(len(lines), maxReportRows)+2)))
	d := dialogs.NewMessage("Import", "OK", content, m.win)
	m.d.Show("import report", d, d.Hide, nil, nil)
}

// maxReportRows is how many skipped files the import report shows at once before it scrolls.
const maxReportRows = 12

// wrappedList is a list of lines in a box width wide whose rows wrap their text at word
// boundaries, each row as tall as its text needs (measured when it first comes in sight, so a
// list of thousands measures only the rows shown).
func wrappedList(lines []string, width float32) *widgets.PassingList {
	measure := widget.NewLabel("")
	measure.Wrapping = fyne.TextWrapWord
	heights := map[int]float32{}
	var list *widgets.PassingList
	list = widgets.NewDialogList(func() int { return len(lines) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Wrapping = fyne.TextWrapWord
			return l
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			o.(*widget.Label).SetText(lines[id])
			if _, ok := heights[id]; ok {
				return
			}
			// The row's width: the list's less its scroll bar and the row's padding.
			w := list.Size().Width
			if w <= 0 {
				w = width
			}
			measure.SetText(lines[id])
			measure.Resize(fyne.NewSize(w-3*measure.Theme().Size("padding")-measure.Theme().Size("scrollBar"), 0))
			heights[id] = measure.MinSize().Height
			list.SetItemHeight(id, heights[id])
		})
	return list
}
