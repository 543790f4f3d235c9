package build

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/normalize"
	"idxlabel/sample"
	"idxlabel/ui/classes"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/widgets"
)

// The import dialog's choices of the dataset that receives the samples.
const (
	intoOpen = iota
	intoNew
)

// importOptions asks how to import what f holds: which dataset receives the samples (the open
// one, named with its size, or a new one), each class folder's class and image count with the
// folders that match no class marked (unchecking a folder skips it; its class field chooses
// another class), the normalization
// (centring, ink, threshold, as the command line's --center, --ink and --threshold), and for a
// flat folder its label. Enter imports.
func (m *Importer) importOptions(f found) {
	ds, name := m.ds(), m.h.Name()
	var d *dialogs.Question
	centering := widgets.NewCentering(nil)
	ink := widgets.NewDialogSelect(inkChoices, nil)
	ink.SetSelectedIndex(int(normalize.InkAuto))
	threshold := dialogs.NewPromptEntry(func() { d.Dismiss() }) // Escape cancels, as elsewhere in the dialog
	threshold.SetPlaceHolder("auto (Otsu), or a grey level 1–255")
	only := widgets.NewPassingCheck("Only resize (images already MNIST-like)", nil)
	label := dialogs.NewPromptEntry(func() { d.Dismiss() })
	label.SetPlaceHolder("none")

	into := intoOpen
	var choices []string
	openText := fmt.Sprintf("The open dataset: %s (%s, %s)", name, numfmt.Plural(ds.Len(), "sample"), pluralClasses(len(ds.Classes())))
	newText := fmt.Sprintf("A new dataset of %d×%d samples (as File → New Dataset… starts one; the open one closes)", newSize, newSize)
	if name == "" {
		choices = append(choices, newText)
		into = intoNew
	} else {
		choices = append(choices, openText, newText)
		if m.h.Demo() {
			into = intoNew // the demo is for trying the window, not a dataset to grow
		}
	}
	where := widgets.NewPassingRadioGroup(choices, nil)
	where.Required = true

	mp := newMappingView(f, func() { d.Dismiss() }, func() { d.Confirm() })
	update := func() {
		t := normalize.Target{}
		if into == intoOpen {
			t = target(m.ds())
		}
		mp.show(t)
	}
	where.OnChanged = func(s string) {
		into = intoOpen
		if s == newText {
			into = intoNew
		}
		update()
	}
	where.SetSelected(choices[min(into, len(choices)-1)])
	if len(choices) == 1 {
		where.SetSelected(choices[0])
	}
	update()

	form := widget.NewForm(
		widget.NewFormItem("Folder", widget.NewLabel(clip.Printable(f.dir))),
		widget.NewFormItem("Add to", where),
	)
	opts := widget.NewForm(
		widget.NewFormItem("Centring", centering),
		widget.NewFormItem("Ink", ink),
		widget.NewFormItem("Threshold", threshold),
		widget.NewFormItem("", only),
	)
	if f.tree == nil {
		opts.Append("Label", label)
	}
	content := container.NewBorder(container.NewVBox(form, mp.head), opts, nil, nil, mp.box)
	d = dialogs.NewQuestion("Import images", "Import", "Cancel", content, func(ok bool) {
		if !ok {
			return
		}
		p := plan{dir: f.dir, tree: f.tree, fresh: into == intoNew, digit: !only.Checked}
		th, err := normalize.ParseThreshold(threshold.Text)
		if err != nil {
			m.d.ShowError(err)
			return
		}
		p.opts = normalize.Options{Polarity: normalize.Polarity(max(0, ink.SelectedIndex())), Threshold: th, Centering: widgets.CenteringOf(centering.Selected)}
		if f.tree == nil {
			l, err := flatLabel(label.Text)
			if err != nil {
				m.d.ShowError(err)
				return
			}
			if ds := m.ds(); l == sample.NoLabel && !p.fresh && (ds.HasLabels() || ds.AnyLabelled()) {
				m.d.ShowError(fmt.Errorf("%s holds images outside class folders: give them a label, or import them into a new dataset", f.dir))
				return
			}
			for _, path := range f.flat {
				p.files = append(p.files, normalize.File{Path: path, Label: l})
			}
			if l != sample.NoLabel {
				p.classes = []int{l}
			}
		} else if err := mp.plan(&p); err != nil {
			m.d.ShowError(err)
			return
		}
		m.start(p)
	}, m.win)
	label.OnSubmitted = func(string) { d.Confirm() } // Enter imports, as elsewhere in the dialog
	threshold.OnSubmitted = label.OnSubmitted
	size := m.win.Canvas().Size()
	d.Resize(fyne.NewSize(min(size.Width-60, 820), min(size.Height-40, 760)))
	m.d.Show("import options", d, d.Dismiss, d.Confirm, nil)
}

// pluralClasses counts classes: "1 class", "10 classes".
func pluralClasses(n int) string {
	if n == 1 {
		return "1 class"
	}
	return numfmt.Sprintf("%d classes", n)
}

// flatLabel reads the label given a flat folder's images: "" for none. Errors: not a class
// number.
func flatLabel(text string) (int, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return sample.NoLabel, nil
	}
	n, err := normalize.ParseLabel(t)
	if err != nil {
		return 0, fmt.Errorf("label %q is not a class number (0 to %d)", t, normalize.MaxLabel)
	}
	return n, nil
}

// mappingView is the import dialog's list of class folders: a check to import each folder, the
// folder's class (number and name), how it was found, its image count (and its class's, when
// several folders give one class), and a class field in which the person may choose another
// class for it (a number, or a class picked or typed by name); above it a line that sums it up
// and says what matched nothing. A list lays out only the rows in sight: 1,000 class folders
// cost nothing.
type mappingView struct {
	f     found
	t     normalize.Target // the dataset the rows are mapped onto (the zero Target: a new one)
	rows  []normalize.FolderClass
	keep  []bool
	typed map[int]string // what the person typed in a row's class field, by row
	err   error          // the rule refused the folders (two folders of one number)
	head  *widget.Label
	list  *widgets.PassingList // Escape and Enter on it, focused, answer the dialog
	box   fyne.CanvasObject    // the list, at least mappingRows rows high (fewer when there are fewer)
	tot   map[int]int          // images by class
	many  map[int]int          // folders by class
	has   map[int]bool         // the classes the dataset has
	// options are the class fields' lists: the dataset's classes and those the rows give, as
	// classes.Names.Long writes them, at most classes.MaxOptions.
	options []string
}

// newMappingView makes the list of f's class folders; escape runs on Escape typed in a class
// field, enter on Enter (the dialog's answers). A row's check box, and the list focused itself,
// pass Escape and Enter on to the dialog (widgets.PassingCheck, NewDialogList).
func newMappingView(f found, escape, enter func()) *mappingView {
	v := &mappingView{f: f, head: widget.NewLabel("")}
	v.head.Wrapping = fyne.TextWrapWord
	v.list = widgets.NewDialogList(func() int { return len(v.rows) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return container.NewBorder(nil, nil, widgets.NewPassingCheck("", nil), newClassField(escape, enter), l)
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			box := o.(*fyne.Container)
			check := box.Objects[1].(*widgets.PassingCheck)
			check.OnChanged = nil
			check.SetChecked(v.keep[id])
			check.OnChanged = func(on bool) {
				v.keep[id] = on
				v.sum()
			}
			field := box.Objects[2].(*ClassField)
			field.OnChanged = nil
			field.SetOptions(v.options)
			text, ok := v.typed[id]
			if !ok {
				text = strconv.Itoa(v.rows[id].Class)
			}
			if field.Text != text {
				field.SetText(text)
			}
			field.OnChanged = func(text string) { v.choose(id, text) }
			box.Objects[0].(*widget.Label).SetText(v.rowText(id))
		})
	rows := 0
	if f.tree != nil {
		rows = min(len(f.tree.Classes), mappingRows)
	} else {
		v.list.Hide()
	}
	h := newClassField(nil, nil).MinSize().Height + theme.Padding()
	v.box = widgets.NewFixedBorder(nil, v.list, fyne.NewSize(0, h*float32(rows)))
	return v
}

// mappingRows is how many class folders the import dialog's list shows at once before it
// scrolls.
const mappingRows = 10

// show maps the folders onto t (the zero Target: a new dataset).
func (v *mappingView) show(t normalize.Target) {
	if v.f.tree == nil {
		v.head.SetText(fmt.Sprintf("%s directly in the folder, no class folders: they all get the label below (none: unlabelled).", numfmt.Plural(len(v.f.flat), "image")))
		return
	}
	v.t = t
	v.rows, v.err = v.f.tree.Map(t)
	v.has = map[int]bool{}
	for _, c := range t.Classes {
		v.has[c] = true
	}
	v.keep = make([]bool, len(v.rows))
	for k := range v.keep {
		v.keep[k] = true
	}
	v.typed = map[int]string{}
	v.options = v.classOptions()
	v.sum()
	v.list.Refresh()
	v.list.ScrollToTop()
}

// name returns class c's name as the import would leave it: the dataset's, else the one a row
// gives it ("" for none).
func (v *mappingView) name(c int) string {
	if n := v.t.Names[c]; n != "" {
		return n
	}
	for _, r := range v.rows {
		if r.Class == c && r.Name != "" {
			return r.Name
		}
	}
	return ""
}

// classes returns the dataset's classes and those the rows give, ascending.
func (v *mappingView) classes() []int {
	cs := slices.Clone(v.t.Classes)
	for _, r := range v.rows {
		cs = append(cs, r.Class)
	}
	slices.Sort(cs)
	return slices.Compact(cs)
}

// classOptions lists the classes for the class fields' lists: "3", "3 (T-shirt)", at most
// classes.MaxOptions of them (typing a number or a name chooses any class).
func (v *mappingView) classOptions() []string {
	var out []string
	for _, c := range v.classes() {
		if len(out) == classes.MaxOptions {
			break
		}
		s := strconv.Itoa(c)
		if n := v.name(c); n != "" && n != s {
			s += " (" + folderText(n) + ")"
		}
		out = append(out, s)
	}
	return out
}

// choose is text typed or picked in row id's class field: when it names a class (classes.Parse:
// a number, or a class's name) the row takes it (normalize.Choose: a class of the dataset with
// its name, a new class with the folder's); otherwise the row keeps its class until it does.
func (v *mappingView) choose(id int, text string) {
	if id < 0 || id >= len(v.rows) {
		return
	}
	v.typed[id] = text
	c, ok := classes.Parse(text, v.classes(), v.name)
	if !ok || c == v.rows[id].Class && v.rows[id].Match == normalize.MatchChosen {
		return
	}
	r, err := normalize.Choose(v.rows[id], c, v.t)
	if err != nil {
		return // not a label: the row keeps its class (the field shows what was typed)
	}
	v.rows[id] = r
	v.sum()
}

// sum counts the images and folders kept by class and says it on the head line.
func (v *mappingView) sum() {
	if v.err != nil {
		v.head.SetText(clip.Printable(v.err.Error()))
		return
	}
	v.tot, v.many = map[int]int{}, map[int]int{}
	images, none, skipped, words := 0, 0, 0, 0
	for k, r := range v.rows {
		if !v.keep[k] {
			skipped++
			continue
		}
		v.tot[r.Class] += r.Images
		v.many[r.Class]++
		images += r.Images
		switch r.Match {
		case normalize.MatchNone:
			none++
		case normalize.MatchDigitWord:
			words++
		}
	}
	text := fmt.Sprintf("%s in %s → %s.", numfmt.Plural(images, "image"), numfmt.Plural(len(v.rows)-skipped, "class folder"), pluralClasses(len(v.tot)))
	if len(v.rows) > 0 && v.rows[0].Match == normalize.MatchSorted {
		text += " The folders are named, not numbered: classes are numbered in sorted name order, as torchvision's ImageFolder and idxlabel import number them, and the names are kept."
	}
	if words > 0 {
		text += fmt.Sprintf(" %s named by a digit's word %s that digit (zero is 0).", numfmt.Plural(words, "folder"), map[bool]string{true: "goes to", false: "go to"}[words == 1])
	}
	if none > 0 {
		verb := "match"
		if none == 1 {
			verb = "matches"
		}
		text += fmt.Sprintf(" %s %s no class of the dataset by name or number: each goes to the class shown (a new one, or one without name or samples yet, which takes the folder's name); uncheck one to skip it.", numfmt.Plural(none, "folder"), verb)
	}
	if skipped > 0 {
		text += fmt.Sprintf(" %s skipped.", numfmt.Plural(skipped, "folder"))
	}
	if n := len(v.f.tree.Skipped); n > 0 {
		text += fmt.Sprintf(" %s skipped (not an image in a class folder): the report lists %s.", numfmt.Plural(n, "other file"), itThem(n))
	}
	text += " Type or pick another class in a folder's field to change it."
	v.head.SetText(text)
	v.list.Refresh()
}

// matchText says how a folder found its class.
var matchText = map[normalize.Match]string{
	normalize.MatchNumber:    "by number",
	normalize.MatchName:      "by name",
	normalize.MatchSorted:    "sorted name order",
	normalize.MatchNone:      "NEW class",
	normalize.MatchDigitWord: "by digit word",
	normalize.MatchChosen:    "chosen",
}

// rowText is row id of the list: `zero/  →  class 9 "zero"  ·  180 images  ·  NEW class`.
func (v *mappingView) rowText(id int) string {
	r := v.rows[id]
	cls := "class " + strconv.Itoa(r.Class)
	switch {
	case r.Name != "":
		cls += " " + strconv.Quote(r.Name)
	case r.Match == normalize.MatchSorted || r.Match == normalize.MatchNone:
		cls += " (no name: the folder's name is not printable text)"
		if _, err := normalize.ParseLabel(r.Folder); err == nil {
			cls = "class " + strconv.Itoa(r.Class)
		}
	}
	how := matchText[r.Match]
	switch {
	case r.Match == normalize.MatchNone && v.has[r.Class]:
		how = "class without name or samples"
	case r.Match == normalize.MatchChosen && !v.has[r.Class] && len(v.t.Classes) > 0:
		how = "chosen: a NEW class"
	}
	text := fmt.Sprintf("%s/  →  %s  ·  %s  ·  %s", folderText(r.Folder), cls, numfmt.Plural(r.Images, "image"), how)
	if v.keep[id] && v.many[r.Class] > 1 {
		text += numfmt.Sprintf("  (%d images in the class from %d folders)", v.tot[r.Class], v.many[r.Class])
	}
	return text
}

// folderText shows a folder's name on one line: quoted (Go's escapes) when it holds a character
// that is not printable or a line break.
func folderText(name string) string {
	for _, r := range name {
		if r == utf8.RuneError || !strconv.IsPrint(r) {
			return strconv.Quote(name)
		}
	}
	return name
}

// plan fills p with the folders kept: their images with their classes, the names the folders
// bring (new classes; a new dataset's sorted ones; classes chosen), and a new dataset's classes.
// Errors: the rule's (two folders of one number), or every folder skipped.
func (v *mappingView) plan(p *plan) error {
	if v.err != nil {
		return v.err
	}
	keep := func(k int) bool { return v.keep[k] }
	p.files = v.f.tree.Labelled(v.rows, keep)
	if len(p.files) == 0 {
		return fmt.Errorf("every class folder of %s is unchecked: nothing to import", v.f.dir)
	}
	p.names = normalize.ClassNames(v.rows, func(k int) bool {
		m := v.rows[k].Match
		return v.keep[k] && (m == normalize.MatchNone || m == normalize.MatchSorted || m == normalize.MatchChosen)
	})
	for k, r := range v.rows {
		if v.keep[k] {
			p.classes = append(p.classes, r.Class)
		} else {
			p.skipping++
		}
	}
	slices.Sort(p.classes)
	p.classes = slices.Compact(p.classes)
	return nil
}

// ClassField is a class folder's class field in the import dialog: a class typed (a number or a
// name) or picked from its list; Escape cancels the dialog and Enter imports, as Enter in the
// dialog's other fields (the class is taken as typed: each change is, ClassField.OnChanged).
type ClassField struct {
	widget.SelectEntry
	onEscape, onEnter func()
}

// newClassField makes a class field on which Escape runs onEscape and Enter onEnter (nil:
// nothing).
func newClassField(onEscape, onEnter func()) *ClassField {
	e := &ClassField{onEscape: onEscape, onEnter: onEnter}
	e.ExtendBaseWidget(e)
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip) // as NewSelectEntry sets it
	e.SetPlaceHolder("class")
	return e
}

// MinSize is wide enough for a class number and a short name.
func (e *ClassField) MinSize() fyne.Size {
	m := e.SelectEntry.MinSize()
	return fyne.NewSize(max(m.Width, 140), m.Height)
}

// TypedKey cancels the dialog on Escape, imports on Enter (a widget.SelectEntry drops it), and
// edits the text on the others.
func (e *ClassField) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyEscape:
		if e.onEscape != nil {
			e.onEscape()
		}
	case fyne.KeyReturn, fyne.KeyEnter:
		if e.onEnter != nil {
			e.onEnter()
		}
	default:
		e.SelectEntry.TypedKey(k)
	}
}

// itThem is "it" for 1, else "them".
func itThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}
