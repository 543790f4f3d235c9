// Package numfmt formats the numbers a person reads in the window: counts and sample numbers
// with thousands separators ("10,000 samples", "sample 5,923"), one rule for every text the
// window shows, whether the window or the store (the names of undo steps) makes it.
package numfmt

import (
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// printer formats as English does: "," between thousands.
var printer = message.NewPrinter(language.English)

// Sprintf is fmt.Sprintf with every %d of an integer written with thousands separators
// ("%d samples" with 10000 gives "10,000 samples"). Safe for concurrent use.
func Sprintf(format string, a ...any) string { return printer.Sprintf(format, a...) }

// Plural counts things named by a noun with a regular plural, with thousands separators: "1
// edit", "2 edits", "10,000 samples".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Sprintf("%d %ss", n, noun)
}
