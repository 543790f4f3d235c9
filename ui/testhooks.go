package ui

import (
	"fmt"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"idxlabel/internal/clip"
	"idxlabel/ui/health"
	"idxlabel/ui/review"
	"idxlabel/ui/testhook"
)

// applyTestHooks sets up what the test environment variables ask for (testhook.Map: the map
// writes its layout and frames for scripts/mapview.sh).
func applyTestHooks(w *window) {
	if path := os.Getenv(testhook.Map); path != "" {
		w.mapv.SetDump(path)
	}
}

// testStateEnv names an environment variable for the real-window tests only: a file the window
// rewrites each time it shows the cursor (controller.renderCursor) with one line of its state
// (writeTestState). The other hooks, for every part of the window, are package testhook's.
const testStateEnv = "IDXLABEL_TEST_STATE"

// cutTexts names the texts of the window that do not fit their place now, "status,show" ("-"
// for none): the status line (wrapped onto more lines than its place has, or wider than its
// place on one line), the Show list narrower than its longest entry.
func cutTexts(c *controller) string {
	var cut []string
	st := c.out.footer.status
	th := st.Theme()
	wide := fyne.MeasureText(st.Text, th.Size(theme.SizeNameText), st.TextStyle).Width+2*th.Size(theme.SizeNameInnerPadding) > st.Size().Width+0.5
	if st.Wrapping == fyne.TextWrapOff && wide || st.Size().Height+0.5 < st.MinSize().Height {
		cut = append(cut, "status")
	}
	sel := c.out.side.showList
	for _, o := range sel.Options {
		need := fyne.MeasureText(o, th.Size(theme.SizeNameText), fyne.TextStyle{}).Width + 4*th.Size(theme.SizeNameInnerPadding) + th.Size(theme.SizeNameInlineIcon)
		if need > sel.Size().Width {
			cut = append(cut, "show")
			break
		}
	}
	if len(cut) == 0 {
		return "-"
	}
	return strings.Join(cut, ",")
}

// testStateFile is the file testStateEnv names ("" when not set), read once.
var testStateFile = os.Getenv(testStateEnv)

// writeTestState writes, when the test hook is set, the window's state as one line:
// "mode=<Show list entry, or browse> method=<the review's method, or -> cursor=<position>
// shown=<samples shown> sample=<sample at the cursor> source=<the file it was imported from, its
// spaces written _, or -> insight=<1 when the cursor's tile is in
// the grid's view, else 0> undecided=<in a review: how many samples before the cursor are not
// decided yet, -1 elsewhere> samples=<the dataset's samples> dataset=<its name> held=<inputs
// waiting for a job> prompt=<the key of the prompt on top, "question" for one without, "-" for
// none> class=<the class the grid is filtered to, or -> cut=<texts that do not fit: cutTexts>
// tabs=<the health check's kind buttons, "Duplicates_4|Leaks_…"> jobs=<the jobs running>
// about=<the detail panel's text on the cursor's sample in the mode shown (mode.About: why it is
// listed; in Disagreements each annotator's label and agreement), its white space written _, or
// -> status=<the status bar's text, its white space written _; last, as it may be long>". It is
// written again when a prompt opens or closes (dialogs.changed). Its cost grows with the
// cursor's position: tests only.
func writeTestState(c *controller) {
	if testStateFile == "" {
		return
	}
	m := c.mode.Title()
	if m == "" {
		m = "browse"
	}
	method, undecided := "-", -1
	if r, ok := c.mode.(*review.Mode); ok && r.List != nil {
		method, _, _ = strings.Cut(r.List.Method, ",")
		undecided = 0
		for p := range max(c.v.cursor, 0) {
			if st, _, ok := c.ds.SampleAt(c.v.gen, c.v.At(p)); ok && !r.List.Decided(st) {
				undecided++
			}
		}
	}
	g := c.out.grid
	ge := g.Geometry()
	top := float32(max(c.v.cursor, 0)/ge.Cols) * ge.CellH
	insight := 0
	if top >= g.Offset() && top+ge.CellH <= g.Offset()+g.Size().Height {
		insight = 1
	}
	prompt := "-"
	if key, open := c.d.Top(); open {
		prompt = strings.ReplaceAll(clip.Printable(key), " ", "_") // one line, whatever file an error names
		if prompt == "" {
			prompt = "question" // a prompt without a key (Dialogs.Ask, Inform)
		}
	}
	class := "-"
	if f := c.v.filter.Class; f != nil {
		class = fmt.Sprint(*f)
	}
	source, _ := c.ds.SourceAt(c.v.gen, c.v.Current())
	if source == "" {
		source = "-"
	}
	line := fmt.Sprintf("mode=%s method=%s cursor=%d shown=%d sample=%d source=%s insight=%d undecided=%d samples=%d dataset=%s held=%d prompt=%s class=%s cut=%s",
		strings.ReplaceAll(m, " ", "_"), method, c.v.cursor, c.v.Len(), c.v.Current(), strings.ReplaceAll(source, " ", "_"), insight, undecided, c.ds.Len(), strings.ReplaceAll(c.name, " ", "_"), len(c.in.held), prompt, class, cutTexts(c))
	if !strings.HasSuffix(line, "cut=-") {
		recheckCut(c)
	}
	for _, m := range c.modes {
		cm, ok := m.(*health.Mode)
		if !ok || cm.View == nil {
			continue
		}
		// The health check's kinds as their buttons say ("Duplicates_4|Leaks_…").
		var tabs []string
		for _, b := range cm.View.Buttons() {
			tabs = append(tabs, strings.Join(strings.Fields(b), "_"))
		}
		line += " tabs=" + strings.Join(tabs, "|")
	}
	line += fmt.Sprintf(" jobs=%d", c.jobs.Running())
	about := "-"
	if words := strings.Fields(c.out.detail.about.title.Text); len(words) > 0 {
		about = strings.Join(words, "_")
	}
	line += " about=" + about
	var keys []string // the legend as it reads ("Ctrl+Z_undo|…")
	for _, k := range c.out.footer.shown {
		keys = append(keys, strings.Join(strings.Fields(k.Keys+" "+k.Does), "_"))
	}
	line += " keys=" + strings.Join(keys, "|")
	line += " status=" + strings.Join(strings.Fields(c.out.footer.status.Text), "_") + "\n"
	if err := testhook.Write(testStateFile, []byte(line)); err != nil {
		fmt.Fprintln(os.Stderr, "idxlabel: writing the state for the test:", err)
	}
}

// cutRecheck is true while a rewrite of the test state is due (recheckCut); read and written on
// the UI thread only.
var cutRecheck bool

// recheckCut writes the test state again a fifth of a second later (on the UI thread), and so on
// while a text is cut: a text changed just before the state was written is measured against the
// place the last layout gave it, and the layout that follows the change writes no state of its
// own. So a cut that the next frame's layout mends is not left in the state for good, and one
// that stays is written again and again, never hidden. Tests only (writeTestState).
func recheckCut(c *controller) {
	if cutRecheck {
		return
	}
	cutRecheck = true
	go func() {
		time.Sleep(200 * time.Millisecond)
		fyne.Do(func() {
			cutRecheck = false
			writeTestState(c)
		})
	}()
}
