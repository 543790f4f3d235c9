// Package classes names a dataset's classes as the window shows them: a class's name from the
// class-name file, its long form ("3 (T-shirt)") and its badge ("3", "T"), whether one keystroke
// names every class (digits), and how a class typed or picked is read (Parse). It reads the
// store, never writes it; every view that shows a class uses it, so a class reads the same
// everywhere.
package classes

import (
	"fmt"
	"strconv"
	"strings"

	"idxlabel/sample"
	"idxlabel/store"
)

// Names names the dataset's classes for display. The controller makes it afresh when the
// dataset changes (an edit may add a class), so reading it per key costs nothing.
type Names struct {
	ds     *store.Dataset // nil: no dataset
	List   []int          // the classes (store.Dataset.Classes)
	Digits bool           // every class is 0–9: one keystroke names a class
}

// MaxOptions bounds a class drop-down (the draw window's label box, the import dialog's class
// fields): a class-name file may name 10,000 classes, and a drop-down menu draws every item;
// typing narrows the list to the classes that match.
const MaxOptions = 40

// Of names ds's classes (nil: none).
func Of(ds *store.Dataset) Names {
	n := Names{ds: ds, Digits: true}
	if ds == nil {
		return n
	}
	n.List = ds.Classes()
	for _, c := range n.List {
		if c < 0 || c > 9 {
			n.Digits = false
		}
	}
	return n
}

// Name returns the name of class c from the class-name file, "" when it has none.
func (n Names) Name(c int) string {
	if n.ds == nil {
		return ""
	}
	return n.ds.ClassName(c)
}

// Long names class c for display: "3", "3 (T-shirt)"; "none" for NoLabel.
func (n Names) Long(c int) string {
	if c == sample.NoLabel {
		return "none"
	}
	if s := n.Name(c); s != "" && s != strconv.Itoa(c) {
		return fmt.Sprintf("%d (%s)", c, s)
	}
	return strconv.Itoa(c)
}

// Short is the badge text of class c: its name when it is short, else its number; "?" for
// NoLabel.
func (n Names) Short(c int) string {
	if c == sample.NoLabel {
		return "?"
	}
	if s := n.Name(c); s != "" && len([]rune(s)) <= 2 {
		return s
	}
	return strconv.Itoa(c)
}

// Matches returns the classes whose number or name starts with prefix (case-insensitive).
func (n Names) Matches(prefix string) []int { return Match(prefix, n.List, n.Name) }

// Parse reads a class typed or picked from a list (Parse) among the dataset's classes.
func (n Names) Parse(text string) (int, bool) { return Parse(text, n.List, n.Name) }

// Match returns those of classes whose number or name (name: "" for none) starts with prefix
// (case-insensitive). O(classes).
func Match(prefix string, classes []int, name func(int) string) []int {
	prefix = strings.ToLower(strings.TrimSpace(prefix))
	var out []int
	for _, c := range classes {
		num, nm := strconv.Itoa(c), strings.ToLower(name(c))
		if prefix == "" || strings.HasPrefix(num, prefix) || nm != "" && strings.HasPrefix(nm, prefix) {
			out = append(out, c)
		}
	}
	return out
}

// Parse reads a class typed in a class field or picked from its list: a number, alone or as the
// lists show a class ("11 (B)"): that class, whether classes hold it or not (a new class); else
// the one of classes whose number or name starts with the text (case-insensitive, Match). false
// when the text is empty, or names no class or several (typing narrows them). O(classes).
func Parse(text string, classes []int, name func(int) string) (int, bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return 0, false
	}
	num, _, _ := strings.Cut(text, " ")
	if n, err := strconv.Atoi(num); err == nil {
		return n, true
	}
	if m := Match(text, classes, name); len(m) == 1 {
		return m[0], true
	}
	return 0, false
}

// Named returns ds's class names, class → name (classes without one left out). O(classes).
func Named(ds *store.Dataset) map[int]string {
	names := map[int]string{}
	for _, k := range ds.Classes() {
		if s := ds.ClassName(k); s != "" {
			names[k] = s
		}
	}
	return names
}
