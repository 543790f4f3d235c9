// Package clip cuts text read from a file to a length a message can quote, so that a file of a
// single huge line or value is never echoed whole on a terminal or in a window.
package clip

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
