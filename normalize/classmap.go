package normalize

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The rule that gives an ImageFolder tree's class folders their classes: the one rule of
// `idxlabel import` (a new dataset) and of the window's File → Import Images… (a new dataset, or
// one that already has classes).

// Target is the dataset an import adds to, as the folder → class rule (Folder.Map) sees it.
// The zero Target is a new dataset.
type Target struct {
	Classes []int          // its classes; none: a new dataset
	Names   map[int]string // class → name (as its class-name file gives them)
	Used    map[int]bool   // the classes that hold samples
}

// Match says how a class folder found its class.
type Match int

const (
	// MatchNumber: the folder's name is a class number (ParseLabel: "7" is class 7) that the
	// dataset has, or, in a new dataset, every folder with images is named by a number.
	MatchNumber Match = iota
	// MatchName: the folder's name is a class's name: the same text, or else the one class whose
	// name differs from it only in letter case and runs of white space ("Zero", "zero"), when no
	// other folder is that class's name.
	MatchName
	// MatchSorted: a new dataset of named folders: every class folder (one without images too)
	// numbered 0, 1, … in the order of the names sorted, as torchvision's ImageFolder numbers
	// them (find_classes: "eight" 0 … "zero" 9).
	MatchSorted
	// MatchNone: no class of the dataset; a new class unless the person skips the folder. A
	// folder named by a number keeps its number; a named one takes the lowest number that no
	// class holding samples, no named class and no other folder has.
	MatchNone
	// MatchDigitWord: the dataset's classes are the ten digits 0–9 without names (MNIST, a new
	// dataset of digits) and the folder's name is a digit's English word ("zero" … "nine", in
	// any letter case, white space around it ignored): that digit, when no other folder is it
	// (DigitWord).
	MatchDigitWord
	// MatchChosen: the person chose the folder's class (Choose).
	MatchChosen
)

// digitWords are the English words of the digits 0–9, by digit.
var digitNames = [10]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}

// DigitWord returns the digit a folder's name is the English word of ("Zero", " nine " …: letter
// case and white space around it ignored); false for any other name.
func DigitWord(folder string) (int, bool) {
	w := strings.ToLower(strings.TrimSpace(folder))
	for d, dw := range digitNames {
		if w == dw {
			return d, true
		}
	}
	return 0, false
}

// Digits reports whether t's classes are the ten digits 0–9 and none has a name: MNIST's, and
// what File → New Dataset… (Digits 0–9) makes. Folders named by the digits' words then match their
// digits (MatchDigitWord), whether the classes hold samples or not.
func (t Target) Digits() bool {
	if len(t.Classes) != 10 {
		return false
	}
	for k, c := range slices.Sorted(slices.Values(t.Classes)) {
		if c != k || t.Names[c] != "" {
			return false
		}
	}
	return true
}

// FolderClass is the class a class folder's images get.
type FolderClass struct {
	Folder string // the folder's name (DIR/<Folder>)
	Images int    // its image files (in it and below it), before any is decoded
	Class  int
	// Name is the class's name: its own for a class matched by name, the folder's for a new
	// class of a named folder; "" for none (a folder named by a number, or a name that is not
	// printable text: a control or format character, or not UTF-8).
	Name  string
	Match Match
}

// Map gives each class folder of f a class of t, by the rule of Match. Into a new dataset
// (the zero Target) it numbers them exactly as torchvision's ImageFolder does: every folder
// with images named by a number keeps it (folders without images are no class), otherwise
// every folder is numbered in sorted name order (MatchSorted, folders without images
// included). Into a dataset with classes, each folder with images is matched on its own: a
// number is that class (MatchNumber, or MatchNone when the dataset has no such class), a name
// a class of that name (MatchName), a digit's word a digit of a dataset of digits (t.Digits:
// MatchDigitWord, "zero" is 0, where torchvision's order would make it 9), else MatchNone with a
// new number. The rows are in folder order (sorted by name); the person may then choose any
// row's class (Choose). Memory and time: O(folders + classes). Errors, naming the folders: a
// number above MaxLabel (wrapping strconv.ErrRange), two folders naming one number ("007" and
// "7").
func (f *Folder) Map(t Target) ([]FolderClass, error) {
	var full []ClassFolder // the folders that hold images
	for _, cf := range f.Classes {
		if len(cf.Files) > 0 {
			full = append(full, cf)
		}
	}
	if len(t.Classes) == 0 && len(t.Names) == 0 && len(t.Used) == 0 {
		return f.mapNew(full)
	}
	rows := make([]FolderClass, len(full))
	taken := map[int]bool{} // the classes the folders have so far
	byNumber := map[int]string{}
	have := map[int]bool{}
	for _, c := range t.Classes {
		have[c] = true
	}
	for k, cf := range full {
		rows[k] = FolderClass{Folder: cf.Name, Images: len(cf.Files), Class: -1, Match: MatchNone}
		n, err := ParseLabel(cf.Name)
		switch {
		case errors.Is(err, strconv.ErrSyntax):
			continue // a name: matched below
		case err != nil:
			return nil, fmt.Errorf("%s: %w", filepath.Join(f.dir, cf.Name), err)
		}
		if other, dup := byNumber[n]; dup {
			return nil, twoFolders(f.dir, other, cf.Name, n)
		}
		byNumber[n] = cf.Name
		rows[k].Class, rows[k].Name = n, t.Names[n]
		if have[n] {
			rows[k].Match = MatchNumber
		}
		taken[n] = true
	}
	matchNames(rows, t.Names, taken)
	if t.Digits() {
		matchDigitWords(rows, taken)
	}
	// The folders left take, in folder order, the lowest numbers that are free.
	next := 0
	for k := range rows {
		if rows[k].Class >= 0 {
			continue
		}
		for taken[next] || t.Used[next] || t.Names[next] != "" {
			next++
		}
		rows[k].Class, rows[k].Name = next, className(rows[k].Folder)
		taken[next] = true
	}
	return rows, nil
}

// mapNew is Map into a new dataset: torchvision's numbering of the folders full that hold
// images (a new dataset's classes are all of f's folders when they are named).
func (f *Folder) mapNew(full []ClassFolder) ([]FolderClass, error) {
	numbered := true
	for _, cf := range full {
		if _, err := ParseLabel(cf.Name); errors.Is(err, strconv.ErrSyntax) {
			numbered = false // a named class: every folder is a name
		}
	}
	if !numbered {
		rows := make([]FolderClass, len(f.Classes))
		for k, cf := range f.Classes { // every folder, as torchvision's find_classes numbers them
			rows[k] = FolderClass{Folder: cf.Name, Images: len(cf.Files), Class: k, Name: className(cf.Name), Match: MatchSorted}
		}
		return rows, nil
	}
	rows := make([]FolderClass, len(full))
	byNumber := map[int]string{}
	for k, cf := range full {
		n, err := ParseLabel(cf.Name)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(f.dir, cf.Name), err)
		}
		if other, dup := byNumber[n]; dup {
			return nil, twoFolders(f.dir, other, cf.Name, n)
		}
		byNumber[n] = cf.Name
		rows[k] = FolderClass{Folder: cf.Name, Images: len(cf.Files), Class: n, Match: MatchNumber}
	}
	return rows, nil
}

// twoFolders is the error of two folders a and b in dir naming one class number n.
func twoFolders(dir, a, b string, n int) error {
	return fmt.Errorf("%s and %s both name label %d: merge them or rename one", filepath.Join(dir, a), filepath.Join(dir, b), n)
}

// matchNames gives the named folders of rows (those without a class yet) the class of names
// that bears their name (MatchName, see Match), marking the classes taken.
func matchNames(rows []FolderClass, names map[int]string, taken map[int]bool) {
	exact := map[string][]int{} // name → its classes
	folded := map[string][]int{}
	for _, c := range slices.Sorted(maps.Keys(names)) {
		exact[names[c]] = append(exact[names[c]], c)
		folded[foldName(names[c])] = append(folded[foldName(names[c])], c)
	}
	for k := range rows { // the same text first: "a" is class "a" though "A" names another
		if cs := exact[rows[k].Folder]; rows[k].Class < 0 && len(cs) == 1 {
			rows[k].Class, rows[k].Name, rows[k].Match = cs[0], names[cs[0]], MatchName
			taken[cs[0]] = true
		}
	}
	byFold := map[int][]int{} // class → the rows whose folder folds to its name
	for k := range rows {
		if cs := folded[foldName(rows[k].Folder)]; rows[k].Class < 0 && len(cs) == 1 && !taken[cs[0]] {
			byFold[cs[0]] = append(byFold[cs[0]], k)
		}
	}
	for c, ks := range byFold {
		if len(ks) == 1 { // "Cat" and "CAT" beside class "cat": neither is sure to be it
			rows[ks[0]].Class, rows[ks[0]].Name, rows[ks[0]].Match = c, names[c], MatchName
			taken[c] = true
		}
	}
}

// matchDigitWords gives the folders of rows without a class yet that are a digit's word the
// digit (MatchDigitWord), marking the classes taken; a digit already taken (by a folder of its
// number) or that two folders are the word of ("Zero" and "zero") is given to none of them.
func matchDigitWords(rows []FolderClass, taken map[int]bool) {
	byDigit := map[int][]int{} // digit → the rows that are its word
	for k := range rows {
		if d, ok := DigitWord(rows[k].Folder); ok && rows[k].Class < 0 && !taken[d] {
			byDigit[d] = append(byDigit[d], k)
		}
	}
	for d, ks := range byDigit {
		if len(ks) == 1 {
			rows[ks[0]].Class, rows[ks[0]].Name, rows[ks[0]].Match = d, "", MatchDigitWord
			taken[d] = true
		}
	}
}

// Choose returns row r (of Map onto t) given the class the person chose for its folder
// (MatchChosen): a class of t keeps its name there (none when it has none), a new class takes
// the folder's name as MatchNone's new classes do (none for a folder named by a number, or one
// that is not printable text). Errors: a class that is no label (outside 0…MaxLabel).
func Choose(r FolderClass, class int, t Target) (FolderClass, error) {
	if class < 0 || class > MaxLabel {
		return r, fmt.Errorf("class %d: a class is a number from 0 to %d", class, MaxLabel)
	}
	r.Class, r.Match, r.Name = class, MatchChosen, ""
	if slices.Contains(t.Classes, class) {
		r.Name = t.Names[class]
	} else if _, err := ParseLabel(r.Folder); errors.Is(err, strconv.ErrSyntax) {
		r.Name = className(r.Folder)
	}
	return r, nil
}

// foldName is the form in which two names that differ only in letter case and runs of white
// space are equal.
func foldName(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// className is the class name a folder's name gives: the name itself when it is printable text
// (UTF-8; letters, marks, numbers, punctuation, symbols and spaces, at least one that is not a
// space), else "" (no name: the class shows its number).
func className(folder string) string {
	if !utf8.ValidString(folder) || strings.TrimSpace(folder) == "" {
		return ""
	}
	for _, r := range folder {
		if !unicode.IsGraphic(r) && !unicode.IsSpace(r) {
			return ""
		}
	}
	return folder
}

// Labelled returns the images of the folders of m (rows of f.Map) that keep (nil: every row;
// else keep(k) for row k) says to import, each with its class and its folder, ordered by class,
// then by folder name, then in torchvision's order. Memory: one File per image.
func (f *Folder) Labelled(m []FolderClass, keep func(k int) bool) []File {
	byName := map[string][]string{}
	for _, cf := range f.Classes {
		byName[cf.Name] = cf.Files
	}
	var order []int
	for k := range m {
		if keep == nil || keep(k) {
			order = append(order, k)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return m[a].Class - m[b].Class })
	n := 0
	for _, k := range order {
		n += len(byName[m[k].Folder])
	}
	files := make([]File, 0, n)
	for _, k := range order {
		for _, p := range byName[m[k].Folder] {
			files = append(files, File{Path: p, Label: m[k].Class, Folder: m[k].Folder})
		}
	}
	return files
}

// ClassNames returns the names the rows of m that keep (nil: every row) says to import give
// their classes, class → name; nil when none has a name.
func ClassNames(m []FolderClass, keep func(k int) bool) map[int]string {
	var names map[int]string
	for k, r := range m {
		if r.Name != "" && (keep == nil || keep(k)) {
			if names == nil {
				names = map[int]string{}
			}
			names[r.Class] = r.Name
		}
	}
	return names
}
