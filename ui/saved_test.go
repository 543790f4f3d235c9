package ui

import (
	"strings"
	"testing"

	"idxlabel/pairfile"
	"idxlabel/store"
)

// savedText names what a save wrote and what it did to links, and calls a file a new label file
// only when it is one (not the image file of a Save As into a new folder).
func TestSavedText(t *testing.T) {
	for _, c := range []struct {
		r          store.SaveReport
		want, nope []string
	}{
		{store.SaveReport{Files: []pairfile.SavedFile{{Path: "/d/x-labels-idx1-ubyte", Created: true, Links: 1}}},
			[]string{"Saved x-labels-idx1-ubyte (a new label file)", "image file was left as it was"}, nil},
		{store.SaveReport{Files: []pairfile.SavedFile{{Path: "/d/x-images-idx3-ubyte", Created: true, Links: 1}, {Path: "/d/x-labels-idx1-ubyte", Links: 1}}},
			[]string{"Saved x-images-idx3-ubyte and x-labels-idx1-ubyte"}, []string{"new label file", "left as it was"}},
		{store.SaveReport{Files: []pairfile.SavedFile{{Path: "/d/x-images-idx3-ubyte", Through: "/s/real", Links: 3}}, Notes: []string{"a journal was kept"}},
			[]string{"symbolic link", "/s/real", "had 3 hard links", "a journal was kept"}, nil},
		{store.SaveReport{}, []string{"nothing was written"}, nil},
	} {
		got := savedText(c.r, "/d/x-images-idx3-ubyte")
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%q lacks %q", got, w)
			}
		}
		for _, n := range c.nope {
			if strings.Contains(got, n) {
				t.Errorf("%q says %q", got, n)
			}
		}
	}
}
