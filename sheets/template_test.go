package sheets

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The template PDF is well formed: every object starts where the cross-reference table says,
// and startxref points at the table.
func TestTemplatePDF(t *testing.T) {
	l, _ := ParseLayout(10, 12, "")
	l.Title = "Digits (form A) \\ é"
	var b bytes.Buffer
	if err := WritePDF(&b, Template(l)); err != nil {
		t.Fatal(err)
	}
	pdf := b.Bytes()
	m := regexp.MustCompile(`startxref\n(\d+)\n%%EOF\n$`).FindSubmatch(pdf)
	if m == nil {
		t.Fatal("no startxref")
	}
	xref, _ := strconv.Atoi(string(m[1]))
	if !bytes.HasPrefix(pdf[xref:], []byte("xref\n0 6\n")) {
		t.Fatalf("startxref %d points at %q", xref, pdf[xref:xref+10])
	}
	entries := strings.Split(string(pdf[xref:]), "\n")[3:8]
	for k, e := range entries {
		off, _ := strconv.Atoi(e[:10])
		if want := fmt.Sprintf("%d 0 obj", k+1); !bytes.HasPrefix(pdf[off:], []byte(want)) {
			t.Errorf("object %d at %d: %q", k+1, off, pdf[off:off+10])
		}
	}
	if !bytes.Contains(pdf, []byte(`(Digits \(form A\) \\ ?)`)) || !bytes.Contains(pdf, []byte("--labels rows=0123456789")) {
		t.Error("title or command missing or not escaped")
	}
	// The grid inside the page's margins, with room left of it for the row prompts.
	p := Template(l)
	if g := p.Grid; g[0] < margin+5 || g[0]+g[2] > PageWidth-margin || g[1]+g[3] > PageHeight-margin || p.Box < 10 || p.Box > maxBox {
		t.Errorf("box %v mm, grid %v", p.Box, p.Grid)
	}
}
