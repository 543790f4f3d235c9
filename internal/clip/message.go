package clip

import (
	"io"
	"strings"
)

// Message returns s, a message of one or more lines, as it is shown: each of its lines through
// Printable, the newlines between them kept. It is the rule of every place that shows a message
// composed of several lines (a dialog's text, the command line's stderr), where the message's own
// paragraph breaks must stay; a text that is one line (an error's, a status line) goes through
// Printable, where a newline in it is escaped too.
func Message(s string) string {
	if Printable(s) == s {
		return s
	}
	lines := strings.Split(s, "\n")
	for k, l := range lines {
		lines[k] = Printable(l)
	}
	return strings.Join(lines, "\n")
}

// NewWriter returns a writer that writes to w what it is given as Message shows it, one Write at a
// time: its lines' control characters (an escape code, a carriage return, a tab) and bytes that
// are not UTF-8 escaped, its newlines kept, and one carriage return at its start kept (a progress
// line that rewrites itself). A Write is taken as whole characters: a character split across two
// Writes shows as its bytes escaped. It reports len(p) written when w took the whole of what was
// shown, whatever that length.
func NewWriter(w io.Writer) io.Writer { return &writer{w: w} }

type writer struct{ w io.Writer }

func (x *writer) Write(p []byte) (int, error) {
	s := string(p)
	lead := ""
	if strings.HasPrefix(s, "\r") {
		lead, s = "\r", s[1:]
	}
	shown := lead + Message(s)
	if _, err := io.WriteString(x.w, shown); err != nil {
		return 0, err
	}
	return len(p), nil
}
