package ui

import (
	"fmt"
	"strconv"
	"strings"

	"idxlabel/sample"
	"idxlabel/store"
)

// classNames names the dataset's classes for display. The controller makes it afresh when the
// dataset changes (an edit may add a class), so reading it per key costs nothing.
type classNames struct {
	ds     *store.Dataset // nil: no dataset
	list   []int          // the classes (store.Dataset.Classes)
	digits bool           // every class is 0–9: one keystroke names a class
}

func newClassNames(ds *store.Dataset) classNames {
	n := classNames{ds: ds, digits: true}
	if ds == nil {
		return n
	}
	n.list = ds.Classes()
	for _, c := range n.list {
		if c < 0 || c > 9 {
			n.digits = false
		}
	}
	return n
}

// name returns the name of class c from the class-name file, "" when it has none.
func (n classNames) name(c int) string {
	if n.ds == nil {
		return ""
	}
	return n.ds.ClassName(c)
}

// long names class c for display: "3", "3 (T-shirt)"; "none" for NoLabel.
func (n classNames) long(c int) string {
	if c == sample.NoLabel {
		return "none"
	}
	if s := n.name(c); s != "" && s != strconv.Itoa(c) {
		return fmt.Sprintf("%d (%s)", c, s)
	}
	return strconv.Itoa(c)
}

// short is the badge text of class c: its name when it is short, else its number; "?" for
// NoLabel.
func (n classNames) short(c int) string {
	if c == sample.NoLabel {
		return "?"
	}
	if s := n.name(c); s != "" && len([]rune(s)) <= 2 {
		return s
	}
	return strconv.Itoa(c)
}

// matches returns the classes whose number or name starts with prefix (case-insensitive).
func (n classNames) matches(prefix string) []int { return matchClasses(prefix, n.list, n.name) }

// parse reads a class typed or picked from a list (parseClass) among the dataset's classes.
func (n classNames) parse(text string) (int, bool) { return parseClass(text, n.list, n.name) }

// matchClasses returns those of classes whose number or name (name: "" for none) starts with
// prefix (case-insensitive). O(classes).
func matchClasses(prefix string, classes []int, name func(int) string) []int {
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

// parseClass reads a class typed in a class field or picked from its list: a number, alone or as
// the lists show a class ("11 (B)"): that class, whether classes hold it or not (a new class); else
// the one of classes whose number or name starts with the text (case-insensitive, matchClasses).
// false when the text is empty, or names no class or several (typing narrows them). O(classes).
func parseClass(text string, classes []int, name func(int) string) (int, bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return 0, false
	}
	num, _, _ := strings.Cut(text, " ")
	if n, err := strconv.Atoi(num); err == nil {
		return n, true
	}
	if m := matchClasses(text, classes, name); len(m) == 1 {
		return m[0], true
	}
	return 0, false
}
