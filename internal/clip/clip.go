// Package clip makes text read from a file or the disk safe for a message: cut to a length a
// message can quote (Text), so that a file of a single huge line or value is never echoed whole
// on a terminal or in a window, and with its control characters and bytes that are not UTF-8
// shown escaped (Printable), so that a name cannot break a line or send escape codes. It is the
// one rule of every place a message is shown: a text of one line (an error's message, the
// window's status line) through Printable, a message of several lines (a dialog's text, the
// command line's stderr) through Message, which keeps the message's own line breaks; a file's
// name the window shows through Name, which also cuts it in its middle.
package clip

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Max is the number of characters (runes) of a quoted text a message shows.
const Max = 40

// Text returns s cut to Max characters, the last of them "…" when s was longer. It reads at
// most Max+1 characters of s, whatever its length.
func Text(s string) string {
	count, cut := 0, 0
	for i := range s {
		if count == Max-1 {
			cut = i
		}
		if count++; count > Max {
			return s[:cut] + "…"
		}
	}
	return s
}

// Printable returns s as it is when it is valid UTF-8 without a control or format character
// (Unicode's Cc and Cf: a newline, an escape, a direction override); otherwise as Go quotes it,
// without the quotes ("a\nb\x1b[2J\xff"), so that every such character or byte shows as an
// escape. A path of a usual name is left alone, its backslashes too.
func Printable(s string) string {
	if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }) {
		q := strconv.Quote(s)
		return q[1 : len(q)-1]
	}
	return s
}
