package sheets

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseLayout(t *testing.T) {
	l, err := ParseLayout(10, 12, "")
	if err != nil || l.Label(3, 7) != 3 || l.Label(9, 0) != 9 {
		t.Fatalf("default: %v %v", l, err)
	}
	l, err = ParseLayout(2, 3, "cols=7,-,12")
	if err != nil || !slices.Equal(l.Labels, []int{7, Skip, 12, 7, Skip, 12}) {
		t.Fatalf("cols: %v %v", l, err)
	}
	l, err = ParseLayout(2, 2, "1x23")
	if err != nil || !slices.Equal(l.Labels, []int{1, Skip, 2, 3}) {
		t.Fatalf("one a box: %v %v", l, err)
	}
	for spec, want := range map[string]string{
		"rows=012345678":                    "9 labels for 10",
		"rows=01234a6789":                   `"a" is not a label`,
		"cells=0":                           "expected rows=",
		"rows=----------":                   "every box is skipped",
		"rows=0,1,2,3,4,5,6,7,8,9999999999": "above the largest label",
	} {
		if _, err := ParseLayout(10, 12, spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", spec, err, want)
		}
	}
	for _, rc := range [][2]int{{0, 12}, {10, 0}, {65, 12}, {10, 1_000_000_000}} {
		if _, err := ParseLayout(rc[0], rc[1], "rows=0"); err == nil || !strings.Contains(err.Error(), "rows must be 1–64") {
			t.Errorf("%v: %v", rc, err)
		}
	}
}

func TestReadLayout(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		p := filepath.Join(dir, "layout.json")
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	l, err := ReadLayout(write(`{"rows": 2, "cols": 3, "title": "Form A", "labels": "rows=45",
		"boxes": [{"row": 0, "col": 2, "label": "skip"}, {"row": 1, "col": 0, "label": 9}, {"row": 1, "col": 1, "label": "7"}]}`))
	if err != nil || l.Title != "Form A" || !slices.Equal(l.Labels, []int{4, 4, Skip, 9, 7, 5}) {
		t.Fatalf("%+v %v", l, err)
	}
	l, err = ReadLayout(write(`{"rows": 1, "cols": 2, "boxes": [{"row": 0, "col": 1, "label": 3}, {"row": 0, "col": 0, "label": 2}]}`))
	if err != nil || !slices.Equal(l.Labels, []int{2, 3}) {
		t.Fatalf("boxes only: %+v %v", l, err)
	}
	for body, want := range map[string]string{
		`{"rows": 1000000000, "cols": 1000000000, "labels": "0"}`:                                               "rows must be 1–64",
		`{"rows": 1, "cols": 2, "boxes": [{"row": 0, "col": 0, "label": 1}]}`:                                   "row 0, col 1 has no label",
		`{"rows": 1, "cols": 1, "boxes": [{"row": 0, "col": 0, "label": 1}, {"row": 0, "col": 0, "label": 1}]}`: "2 boxes listed for a grid of 1×1",
		`{"rows": 1, "cols": 2, "boxes": [{"row": 0, "col": 0, "label": 1}, {"row": 0, "col": 0, "label": 1}]}`: "listed twice",
		`{"rows": 1, "cols": 1, "boxes": [{"row": 0, "col": 0, "label": -3}]}`:                                  "not a label",
		`{"rows": 1, "cols": 1, "boxes": [{"row": 0, "col": 0, "label": 1.5}]}`:                                 "not a label",
		`{"rows": 1, "cols": 1, "boxes": [{"row": 0, "col": 0}]}`:                                               "needs row, col and label",
		`{"rows": 1, "cols": 1, "boxes": [{"row": 0, "col": 0, "label": "skip"}]}`:                              "every box is skipped",
		`{"rows": 1, "cols": 1, "labels": "1"} {}`:                                                              "more after",
		`[1, 2]`: "not a layout",
		`{"rows": 1, "cols": 1, "labels": "1", "title": "` + strings.Repeat("x", 201) + `"}`: "a title of 201 bytes",
	} {
		if _, err := ReadLayout(write(body)); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "layout.json") {
			t.Errorf("%.60s: %v, want %q", body, err, want)
		}
	}
	// A file of a billion boxes never gets read: the size is checked first.
	p := filepath.Join(dir, "huge.json")
	f, _ := os.Create(p)
	f.Truncate(1 << 30)
	f.Close()
	if _, err := ReadLayout(p); err == nil || !strings.Contains(err.Error(), "at most 1048576") {
		t.Errorf("1 GiB layout: %v", err)
	}
	if _, err := ReadLayout(dir); err == nil {
		t.Error("a folder read as a layout")
	}
}

// A layout's labels are quoted in an error at most clip.Max characters long: a 900 KB labels text
// made a 900,085-byte error line. The error still names the file and what was wrong.
func TestLayoutErrorsQuoteLabelsShort(t *testing.T) {
	huge := strings.Repeat("0", 900_000)
	p := filepath.Join(t.TempDir(), "layout.json")
	os.WriteFile(p, []byte(`{"rows": 10, "cols": 12, "labels": "rows=`+huge+`"}`), 0o644)
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"layout file, rows=", func() error { _, err := ReadLayout(p); return err }(), "labels for 10"},
		{"spec", func() error { _, err := ParseLayout(10, 12, huge); return err }(), "labels for 120"},
		{"unknown key", func() error { _, err := ParseLayout(10, 12, huge+"=1"); return err }(), "expected rows="},
		{"a label", func() error { _, err := ParseLayout(1, 2, "1,"+huge+"x"); return err }(), "is not a label"},
	} {
		if c.err == nil || len(c.err.Error()) > 400 || !strings.Contains(c.err.Error(), c.want) {
			n := 0
			if c.err != nil {
				n = len(c.err.Error())
			}
			t.Errorf("%s: an error of %d bytes (want at most 400, saying %q): %.120v", c.name, n, c.want, c.err)
		}
	}
}
