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

// A message keeps its own line breaks; each line's control characters and bytes that are not
// UTF-8 show escaped.
func TestMessage(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                           "plain",
		"fact.\n\nadvice":                 "fact.\n\nadvice",
		"/tmp/a\x1b[2J\xff: bad\n\nClose": `/tmp/a\x1b[2J\xff: bad` + "\n\nClose",
		"line\r\ncrlf\ttab":               `line\r` + "\n" + `crlf\ttab`,
		"ends with a newline\n":           "ends with a newline\n",
	} {
		if got := Message(in); got != want {
			t.Errorf("Message(%q) = %q, want %q", in, got, want)
		}
	}
}

// What goes through the writer reaches the terminal without an escape code or a byte that is not
// UTF-8; its lines, and a progress line's leading carriage return, stay.
func TestWriter(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b)
	for _, s := range []string{"idxlabel: /tmp/x\x1b[2J\xff/a: truncated\n", "\rreading 10%", "\rreading 20%\r", "\n"} {
		if n, err := w.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	want := `idxlabel: /tmp/x\x1b[2J\xff/a: truncated` + "\n\rreading 10%\rreading 20%\\r\n"
	if b.String() != want {
		t.Errorf("written %q, want %q", b.String(), want)
	}
}

// A file's name is shown escaped and, past MaxName characters, cut in its middle, its start and
// its end kept; its folder is never shown.
func TestName(t *testing.T) {
	long := "evil\n\x1b[2J" + strings.Repeat("L", 150) + "-labels-idx1-ubyte"
	for in, want := range map[string]string{
		"/data/t10k-labels-idx1-ubyte.gz": "t10k-labels-idx1-ubyte.gz",
		"/tmp/a\nb\xff/x\ty":              `x\ty`,
		"/tmp/" + long:                    `evil\n\x1b[2J` + strings.Repeat("L", 16) + "…" + strings.Repeat("L", 12) + "-labels-idx1-ubyte",
	} {
		got := Name(in)
		if got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
		if n := utf8.RuneCountInString(got); n > MaxName {
			t.Errorf("Name(%q): %d characters", in, n)
		}
	}
}
