package dialogs

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// questionWindow is a test window whose canvas hands the keys typed with nothing focused to the
// prompts, as the window's key router does while a dialog covers it (Dialogs.Key).
func questionWindow(t *testing.T) (fyne.Window, *Dialogs) {
	a := test.NewTempApp(t)
	win := a.NewWindow("t")
	win.Resize(fyne.NewSize(900, 600))
	t.Cleanup(win.Close)
	d := New(win, a.Preferences(), nil, nil)
	win.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) { d.Key(k) })
	return win, d
}

// typeKey types k as the driver does: to the focused widget, else to the canvas's handler.
func typeKey(win fyne.Window, k fyne.KeyName) {
	if f := win.Canvas().Focused(); f != nil {
		f.TypedKey(&fyne.KeyEvent{Name: k})
		return
	}
	win.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: k})
}

// A question (Ask: Yes and No; Enter answers yes here) answers its keys the same whether one of
// its buttons has the focus or not: Escape dismisses it (no), Enter with nothing focused gives the
// default answer, Enter or Space on a focused button presses that button. Fyne's dialog.NewConfirm
// focused a widget.Button, which dropped Escape and Enter: the question stayed open.
func TestQuestionAnswersKeysWithAButtonFocused(t *testing.T) {
	for _, c := range []struct {
		tabs int
		key  fyne.KeyName
		want string // the answer, or "open" for none
	}{
		{0, fyne.KeyEscape, "no"},
		{0, fyne.KeyReturn, "yes"},
		{1, fyne.KeyEscape, "no"}, // No focused
		{2, fyne.KeyEscape, "no"}, // Yes focused
		{1, fyne.KeyReturn, "no"},
		{2, fyne.KeyReturn, "yes"},
		{1, fyne.KeyEnter, "no"},
		{1, fyne.KeySpace, "no"},
		{2, fyne.KeySpace, "yes"},
		{1, fyne.KeyA, "open"}, // any other key answers nothing
	} {
		name := fmt.Sprintf("%s after %d Tabs", c.key, c.tabs)
		win, d := questionWindow(t)
		got := "open"
		d.Ask("Create the folder?", "/x does not exist.\nCreate it and save there?", true, func(yes bool) {
			got = map[bool]string{true: "yes", false: "no"}[yes]
		})
		for range c.tabs {
			win.Canvas().FocusNext()
		}
		if c.tabs > 0 {
			if _, ok := win.Canvas().Focused().(*widget.Button); ok {
				t.Logf("%s: the focused button is a widget.Button (drops Escape and Enter)", name)
			}
			if win.Canvas().Focused() == nil {
				t.Fatalf("%s: Tab focused nothing", name)
			}
		}
		typeKey(win, c.key)
		if got != c.want {
			t.Errorf("%s: answered %q, want %q", name, got, c.want)
		}
		if _, open := d.Top(); open != (c.want == "open") {
			t.Errorf("%s: the question open: %v, want %v", name, open, c.want == "open")
		}
	}
}

// NewQuestion's confirm and dismiss buttons answer yes and no, as dialog.NewCustomConfirm's,
// before what SetOnClosed adds runs, once per close; Confirm answers yes, Dismiss and Hide no;
// SetConfirmText labels the confirm button. Shown with Dialogs.Show, Escape on its focused
// confirm button dismisses it, Enter there confirms it.
func TestNewQuestionAnswers(t *testing.T) {
	win, d := questionWindow(t)
	var got []string
	q := NewQuestion("Export", "Export", "Cancel", widget.NewLabel("where"), func(yes bool) {
		got = append(got, fmt.Sprint("answer ", yes))
	}, win)
	q.SetOnClosed(func() { got = append(got, "closed") })
	q.SetConfirmText("Export 12")
	var buttons []string
	for _, how := range []string{"confirm", "dismiss", "hide", "escape on confirm", "enter on confirm"} {
		got = nil
		d.Show("export", q, q.Dismiss, q.Confirm, nil)
		buttons = buttons[:0]
		walkOverlay(win, func(o fyne.CanvasObject) {
			if b, ok := o.(fyne.Focusable); ok {
				buttons = append(buttons, fmt.Sprintf("%T", b))
			}
		})
		switch how {
		case "confirm":
			q.Confirm()
		case "dismiss":
			q.Dismiss()
		case "hide":
			q.Hide()
		default:
			win.Canvas().FocusNext()
			win.Canvas().FocusNext() // the confirm button
			k := fyne.KeyEscape
			if how == "enter on confirm" {
				k = fyne.KeyReturn
			}
			typeKey(win, k)
		}
		want := []string{"answer false", "closed"}
		if how == "confirm" || how == "enter on confirm" {
			want[0] = "answer true"
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %v, want %v", how, got, want)
		}
		if _, open := d.Top(); open {
			t.Errorf("%s: the question is still a prompt", how)
		}
	}
	if len(buttons) != 2 {
		t.Errorf("the question's focusable objects: %v, want its two buttons", buttons)
	}
	if q.confirm.Text != "Export 12" {
		t.Errorf("the confirm button says %q", q.confirm.Text)
	}
}

// A message of text alone (NewText, as ShowError and Inform show it) is laid out as Fyne's own
// dialog.NewError lays the same message out: as wide and as tall, its text wrapped to that width
// (laid out narrow first, it was as tall as one word a line).
func TestNewTextSizedAsFynes(t *testing.T) {
	msg := "Cannot export there: /tmp/some/folder/p-labels-idx1-ubyte: output is the input /tmp/some/folder/p-labels-idx1-ubyte; write to another file"
	size := func(show func(win fyne.Window)) fyne.Size {
		a := test.NewTempApp(t)
		win := a.NewWindow("t")
		win.Resize(fyne.NewSize(1000, 800))
		defer win.Close()
		show(win)
		p, ok := win.Canvas().Overlays().Top().(*widget.PopUp)
		if !ok {
			t.Fatalf("no pop-up shown: %T", win.Canvas().Overlays().Top())
		}
		return p.Content.Size()
	}
	ours := size(func(win fyne.Window) { NewText("Error", msg, nil, win).Show() })
	fynes := size(func(win fyne.Window) { dialog.NewError(fmt.Errorf("%s", msg), win).Show() })
	if ours != fynes {
		t.Errorf("NewText's message is %v, Fyne's error dialog %v", ours, fynes)
	}
}

// A question shown over a job's progress (the window closed while an import runs: "Quit with
// unsaved edits?") stays up and answers Escape and Enter once the job ends and hides its
// progress from under it. Before, Fyne removed the question's overlay with the progress's (it
// drops every overlay above the one removed): the question vanished unanswered, its answer never
// given, and Escape and Enter did nothing.
func TestQuestionAnswersKeysAfterTheProgressUnderItCloses(t *testing.T) {
	for _, c := range []struct {
		key  fyne.KeyName
		want string
	}{{fyne.KeyEscape, "no"}, {fyne.KeyReturn, "yes"}} {
		win, d := questionWindow(t)
		cancelled := 0
		progress := d.ShowPassing("import", "Importing", widget.NewLabel("…"), func() { cancelled++ })
		got := "open"
		d.Ask("Quit?", "Quit with unsaved edits?", true, func(yes bool) {
			got = map[bool]string{true: "yes", false: "no"}[yes]
		})
		progress.Hide() // the job ends
		if n := len(win.Canvas().Overlays().List()); n != 1 {
			t.Errorf("the progress under the question closed: %d overlays up, want the question's", n)
		}
		typeKey(win, c.key)
		if got != c.want {
			t.Errorf("%s on the question after the progress under it closed: %s, want %s", c.key, got, c.want)
		}
		if cancelled != 1 {
			t.Errorf("%s: the job's cancel ran %d times, want once (its progress closing)", c.key, cancelled)
		}
		if c.want == "yes" {
			if n := len(win.Canvas().Overlays().List()); n != 0 {
				t.Errorf("%s: %d overlays left", c.key, n)
			}
		}
	}
}
