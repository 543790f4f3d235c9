package clip

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"rows=0123456789", "rows=0123456789"},
		{strings.Repeat("a", Max), strings.Repeat("a", Max)},
		{strings.Repeat("a", Max+1), strings.Repeat("a", Max-1) + "…"},
		{strings.Repeat("😀", 900_000), strings.Repeat("😀", Max-1) + "…"},
	} {
		got := Text(c.in)
		if got != c.want {
			t.Errorf("Text(%d bytes) = %q, want %q", len(c.in), got, c.want)
		}
		if n := utf8.RuneCountInString(got); n > Max || !utf8.ValidString(got) {
			t.Errorf("Text(%d bytes): %d characters, valid %v", len(c.in), n, utf8.ValidString(got))
		}
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"/home/ana/data":           "/home/ana/data",
		`C:\Users\ana\données`:     `C:\Users\ana\données`,
		"/tmp/a\nb\x1b[2J\xff\xfe": `/tmp/a\nb\x1b[2J\xff\xfe`,
		"/tmp/\u202eevil":          `/tmp/\u202eevil`,
		"tab\there":                `tab\there`,
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}
