package ui

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"idxlabel/internal/clip"
	"idxlabel/internal/numfmt"
	"idxlabel/ui/mode"
	"idxlabel/ui/widgets"
)

// footer is the bottom of the window: the status line with the progress of the jobs running at
// its right, the legend of the keys that work now, and where the cursor is. It shows what it is
// given; the one thing it keeps is whether a text field of the window has the keys (then the
// legend says so instead). Neither is cut: the status line gives the progress the width it
// needs and wraps onto more lines when it is longer than what is left.
type footer struct {
	root     fyne.CanvasObject
	status   *widget.Label
	progress *widget.Label
	top      *fyne.Container // the status line and the progress
	legend   *fyne.Container // one RichText per key, in a flowLayout
	position *widget.Label
	typing   bool       // a text field of the window has the keys
	keys     []mode.Key // the keys of the state, shown when no text field has the keys
	shown    []mode.Key // the keys the legend shows
}

func newFooter() *footer {
	f := &footer{status: widget.NewLabel(""), progress: widget.NewLabel(""), legend: container.New(&flowLayout{}), position: widget.NewLabel("")}
	f.status.Wrapping = fyne.TextWrapWord // a long status takes a second line rather than being cut
	f.position.Alignment = fyne.TextAlignTrailing
	f.progress.Hide()
	f.top = container.NewBorder(nil, nil, nil, f.progress, f.status)
	f.root = container.NewVBox(f.top, container.NewBorder(nil, nil, nil, f.position, f.legend))
	return f
}

// readOnlyKeys is the legend of a pair open read-only (another process edits it): no edit key
// acts, so none is offered.
var readOnlyKeys = []mode.Key{{Keys: "Read-only", Does: "(open for editing elsewhere): browse, Ctrl+K suspects, Ctrl+Shift+E export"}, {Keys: "Ctrl+O", Does: "open"}}

// emptyKeys is the legend of a dataset without samples (nothing open, a new dataset, an empty
// file): what adds samples, or opens others; no key acts on samples yet.
var emptyKeys = []mode.Key{{Keys: "Ctrl+D", Does: "draw samples"}, {Keys: "Ctrl+I", Does: "import images"}, {Keys: "Ctrl+O", Does: "open"}, {Keys: "Ctrl+N", Does: "new dataset"}}

// typingKeys is the legend while a text field has the keys.
var typingKeys = []mode.Key{{Keys: "Typing in a text field", Does: ""}, {Keys: "Escape", Does: "or a click on the grid gives the keys back to the grid"}}

// show shows the status line (one line, as clip.Printable shows it: a file's name quoted in a
// message, a refusal's error, shows a newline, an escape code or a byte that is not UTF-8
// escaped; it wraps only where the window is narrow), the jobs' progress (none: ""), the keys that act, and the
// cursor's position ("sample 1,234 of 10,000", and when a filter or a mode shows fewer, "58 of
// 1,010 shown").
func (f *footer) show(status, progress string, keys []mode.Key, position string) {
	widgets.SetText(f.status, clip.Printable(status))
	f.showProgress(progress)
	widgets.SetText(f.position, position)
	f.keys = keys
	f.showKeys()
}

// showProgress shows the jobs' progress (none: "") at the status line's right.
func (f *footer) showProgress(progress string) {
	if widgets.SetText(f.progress, progress) || (progress == "") != f.progress.Hidden {
		if progress == "" {
			f.progress.Hide()
		} else {
			f.progress.Show()
		}
		f.top.Refresh() // the status line gives the progress the width it needs now
	}
}

// say puts a message on the status line until the next show.
func (f *footer) say(text string) { f.status.SetText(clip.Printable(text)) }

// setTyping says whether a text field of the window has the keys.
func (f *footer) setTyping(on bool) {
	f.typing = on
	f.showKeys()
}

// showKeys lays the legend out, one piece per key, unless it shows those keys already.
func (f *footer) showKeys() {
	keys := f.keys
	if f.typing {
		keys = typingKeys
	}
	if slices.Equal(keys, f.shown) {
		return // the cursor moved: the same keys act
	}
	f.shown = keys
	// One piece per key, so a narrow window wraps between keys, never inside one.
	objs := make([]fyne.CanvasObject, len(keys))
	for k, kv := range keys {
		segs := []widget.RichTextSegment{&widget.TextSegment{Text: kv.Keys, Style: widget.RichTextStyleStrong}}
		if kv.Does != "" {
			segs = append(segs, &widget.TextSegment{Text: " " + kv.Does, Style: widget.RichTextStyleInline})
		}
		if k < len(keys)-1 {
			segs = append(segs, &widget.TextSegment{Text: "  ·", Style: widget.RichTextStyleInline})
		}
		objs[k] = widget.NewRichText(segs...)
	}
	f.legend.Objects = objs
	f.legend.Refresh()
}

// positionText says where the cursor is: sample i (of n samples), and its place p among the
// shown ones when fewer than all are shown.
func positionText(i, p, shown, n int) string {
	if i < 0 {
		return numfmt.Sprintf("no sample  ·  %d shown of %d", shown, n)
	}
	if shown == n {
		return numfmt.Sprintf("sample %d of %d", i, n)
	}
	return numfmt.Sprintf("sample %d of %d  ·  %d of %d shown", i, n, p+1, shown)
}

// maxSourceNote is how many characters of a sample's source the status bar's sample line shows;
// the detail panel shows it whole.
const maxSourceNote = 48

// sourceNote is what the status bar's sample line adds for a sample imported from a file
// (store.Dataset.Source): "  ·  from zero/img_0001.png", its start cut ("…") when it is longer
// than maxSourceNote characters, so that the file's name shows; "" for a sample without one.
func sourceNote(source string) string {
	if source == "" {
		return ""
	}
	if r := []rune(source); len(r) > maxSourceNote {
		source = "…" + string(r[len(r)-maxSourceNote+1:])
	}
	return "  ·  from " + source
}

// flowLayout places objects left to right at their minimum sizes, starting a new line when the
// next one does not fit: the legend wraps between keys in a narrow window instead of being cut
// off. Its minimum height is that of the lines at the width it last laid out.
type flowLayout struct{ width float32 }

func (l *flowLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.width = size.Width // the canvas asks MinSize again each frame and re-lays out the footer
	l.place(objs, size.Width, true)
}

// place lays objs out in lines no wider than width (moving them when move is true) and returns
// the height used.
func (l *flowLayout) place(objs []fyne.CanvasObject, width float32, move bool) float32 {
	var x, y, line float32
	for _, o := range objs {
		m := o.MinSize()
		if x > 0 && x+m.Width > width {
			x, y, line = 0, y+line, 0
		}
		if move {
			o.Move(fyne.NewPos(x, y))
			o.Resize(m)
		}
		x += m.Width
		line = max(line, m.Height)
	}
	return y + line
}

func (l *flowLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var widest float32
	for _, o := range objs {
		widest = max(widest, o.MinSize().Width)
	}
	width := l.width
	if width <= 0 {
		width = 1e6 // not laid out yet: one line
	}
	return fyne.NewSize(widest, l.place(objs, max(width, widest), false))
}
