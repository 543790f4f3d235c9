package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// EnterCheck is a check box in a prompt that runs onEnter on Enter (a focused check box takes
// the keys, and Enter would do nothing).
type EnterCheck struct {
	widget.Check
	onEnter func()
}

// NewEnterCheck makes a check box that runs onEnter on Enter.
func NewEnterCheck(onEnter func()) *EnterCheck {
	c := &EnterCheck{onEnter: onEnter}
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey runs onEnter on Enter and hands other keys to the check box.
func (c *EnterCheck) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyReturn || k.Name == fyne.KeyEnter {
		c.onEnter()
		return
	}
	c.Check.TypedKey(k)
}
