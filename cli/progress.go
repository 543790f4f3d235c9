package cli

import (
	"fmt"
	"time"
)

// progressAfter is how long a command's work runs before it shows a progress line (Run's
// setting): work that ends sooner prints none, so a quick command's stderr is its messages alone.
const progressAfter = time.Second

// progressEvery is the least time between two progress lines, so that a fast loop does not
// flood the terminal.
const progressEvery = 250 * time.Millisecond

// progressLine is one line of progress on stderr that rewrites itself ("\r"): shown once the
// work has run c.progressAfter, then at most every progressEvery and at its end, and ended with
// a newline by end when it was shown. Its clock is c.now, so a test decides when it shows.
type progressLine struct {
	c           *cli
	start, last time.Time
	shown       bool
}

// progress starts a progress line at c.now().
func (c *cli) progress() *progressLine { return &progressLine{c: c, start: c.now()} }

// show prints the line "\r" + format (with a) when it is due: the work has run
// c.progressAfter, and progressEvery has passed since the last line or final is true (the
// work's last step).
func (p *progressLine) show(final bool, format string, a ...any) {
	now := p.c.now()
	if now.Sub(p.start) < p.c.progressAfter || !final && p.shown && now.Sub(p.last) < progressEvery {
		return
	}
	fmt.Fprintf(p.c.stderr, "\r"+format, a...)
	p.shown, p.last = true, now
}

// end ends a line that was shown with a newline.
func (p *progressLine) end() {
	if p.shown {
		fmt.Fprintln(p.c.stderr)
	}
}
