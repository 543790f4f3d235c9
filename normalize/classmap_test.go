package normalize

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tree makes a Folder of class folders named names, each holding images images (paths only:
// the rule reads no file).
func tree(images int, names ...string) *Folder {
	f := &Folder{dir: "/d"}
	for _, n := range names {
		cf := ClassFolder{Name: n}
		for k := range images {
			cf.Files = append(cf.Files, fmt.Sprintf("/d/%s/%d.png", n, k))
		}
		f.Classes = append(f.Classes, cf)
	}
	return f
}

// mapping writes rows as "folder→class(name)how" joined by spaces, how as n (number), = (name),
// s (sorted), + (new), d (a digit's word), c (chosen).
func mapping(rows []FolderClass) string {
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprintf("%s→%d(%s)%c", r.Folder, r.Class, r.Name, "n=s+dc"[r.Match]))
	}
	return strings.Join(out, " ")
}

var digitWords = []string{"eight", "five", "four", "nine", "one", "seven", "six", "three", "two", "zero"} // sorted

// Into a new dataset, named folders are numbered in sorted order with their names (torchvision's
// rule, as `idxlabel import` numbers them): eight 0 … zero 9.
func TestMapNewDatasetIsTorchvisions(t *testing.T) {
	want := "eight→0(eight)s five→1(five)s four→2(four)s nine→3(nine)s one→4(one)s seven→5(seven)s six→6(six)s three→7(three)s two→8(two)s zero→9(zero)s"
	rows, err := tree(3, digitWords...).Map(Target{})
	if err != nil || mapping(rows) != want {
		t.Fatalf("new dataset: %s (%v)", mapping(rows), err)
	}
}

// Into a dataset whose classes are the digits 0–9 without names (File → New Dataset's Digits
// 0–9, without samples; MNIST, with them), folders named by the digits' words are their digits,
// in any letter case: zero 0 … nine 9, not torchvision's eight 0 … zero 9. No name is given to
// the digits. A number folder keeps its number; a word whose digit a number folder took, or two
// words of one digit, match nothing (new classes, shown so); a dataset of other classes, or
// whose digits have names, is matched by its names as before.
func TestMapDigitWordsOntoDigits(t *testing.T) {
	want := "eight→8()d five→5()d four→4()d nine→9()d one→1()d seven→7()d six→6()d three→3()d two→2()d zero→0()d"
	digits := Target{Classes: []int{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}}
	rows, err := tree(3, digitWords...).Map(digits)
	if err != nil || mapping(rows) != want {
		t.Fatalf("digits 0–9 without names or samples: %s (%v)", mapping(rows), err)
	}
	mnist := Target{Classes: digits.Classes, Used: map[int]bool{0: true, 3: true, 9: true}}
	rows, err = tree(1, "ZERO", " Three ", "7", "seven", "Nine", "nine", "ten").Map(mnist)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mapping(rows), "ZERO→0()d  Three →3()d 7→7()n seven→1(seven)+ Nine→2(Nine)+ nine→4(nine)+ ten→5(ten)+"; got != want {
		t.Fatalf("onto MNIST's digits: %s, want %s", got, want)
	}
	for _, other := range []Target{
		{Classes: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{Classes: digits.Classes, Names: map[int]string{4: "four"}},
		{Classes: []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
	} {
		if other.Digits() {
			t.Fatalf("%v is taken for digits", other)
		}
		rows, err := tree(1, "zero", "one").Map(other)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Match == MatchDigitWord {
				t.Fatalf("onto %v: %s", other, mapping(rows))
			}
		}
	}
	if d, ok := DigitWord("\tEight\n"); !ok || d != 8 {
		t.Fatalf("DigitWord: %d %v", d, ok)
	}
	if _, ok := DigitWord("eighty"); ok {
		t.Fatal("eighty is a digit's word")
	}
}

// Choose gives a row the class the person chose: a class of the dataset keeps its name there, a
// new class takes the folder's name (none for a number folder), a number that is no label is
// refused.
func TestChooseClass(t *testing.T) {
	target := Target{Classes: []int{0, 1, 2}, Names: map[int]string{1: "one"}}
	rows, err := tree(1, "eins", "12", "zwei").Map(target)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		row, class int
		want       string
	}{{0, 1, "eins→1(one)c"}, {0, 2, "eins→2()c"}, {0, 7, "eins→7(eins)c"}, {1, 3, "12→3()c"}, {2, 12, "zwei→12(zwei)c"}} {
		r, err := Choose(rows[c.row], c.class, target)
		if err != nil || mapping([]FolderClass{r}) != c.want {
			t.Errorf("row %d as %d: %s (%v), want %s", c.row, c.class, mapping([]FolderClass{r}), err, c.want)
		}
	}
	if _, err := Choose(rows[0], -1, target); err == nil {
		t.Error("class -1 chosen")
	}
	if _, err := Choose(rows[0], MaxLabel+1, target); err == nil {
		t.Error("a class above MaxLabel chosen")
	}
}

// Into a dataset with named classes, a folder is its class by name (the same text, or the one
// name equal but for case and white space), a number is that class, and a folder that matches
// none gets a new number that no named class, no class with samples and no other folder has
// (a numbered one keeps its number).
func TestMapOntoNamedClasses(t *testing.T) {
	names := map[int]string{}
	used := map[int]bool{}
	var classes []int
	for k, w := range []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"} {
		names[k], used[k] = w, true
		classes = append(classes, k)
	}
	classes = append(classes, 10) // a class with neither name nor samples (free)
	f := tree(2, "12", "7", "Zero", "one", "ten", "Three  ", "twenty")
	rows, err := f.Map(Target{Classes: classes, Names: names, Used: used})
	if err != nil {
		t.Fatal(err)
	}
	want := "12→12()+ 7→7(seven)n Zero→0(zero)= one→1(one)= ten→10(ten)+ Three  →3(three)= twenty→11(twenty)+"
	if got := mapping(rows); got != want {
		t.Fatalf("mapping\n%s, want\n%s", got, want)
	}
	files := f.Labelled(rows, func(k int) bool { return rows[k].Folder != "twenty" })
	var got []string
	for _, x := range files {
		got = append(got, fmt.Sprintf("%d:%s", x.Label, strings.TrimPrefix(x.Path, "/d/")))
	}
	if s := strings.Join(got, " "); s != "0:Zero/0.png 0:Zero/1.png 1:one/0.png 1:one/1.png 3:Three  /0.png 3:Three  /1.png 7:7/0.png 7:7/1.png 10:ten/0.png 10:ten/1.png 12:12/0.png 12:12/1.png" {
		t.Fatalf("files in class order: %s", s)
	}
	if n := ClassNames(rows, func(k int) bool { return rows[k].Match == MatchNone }); fmt.Sprint(n) != "map[10:ten 11:twenty]" {
		t.Fatalf("new names %v", n)
	}
}

// Letter case: the same text wins ("a" is class "a" though "A" names another, as in EMNIST), a
// name equal but for case is matched only when it is the one such name and the one such folder.
func TestMapNameCase(t *testing.T) {
	names := map[int]string{0: "A", 1: "a", 2: "B", 3: "cat"}
	target := Target{Classes: []int{0, 1, 2, 3}, Names: names, Used: map[int]bool{0: true, 1: true, 2: true, 3: true}}
	rows, err := tree(1, "A", "CAT", "Cat", "a", "b").Map(target)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := mapping(rows), "A→0(A)= CAT→4(CAT)+ Cat→5(Cat)+ a→1(a)= b→2(B)="; got != want {
		t.Fatalf("mapping %s, want %s", got, want)
	}
}

// A dataset whose classes hold samples but have no names (the demo) takes named folders as new
// classes after its own; nothing is put on its unnamed classes (the digits' words excepted, onto
// the digits 0–9: TestMapDigitWordsOntoDigits).
func TestMapOntoUnnamedClassesWithSamples(t *testing.T) {
	used := map[int]bool{}
	var classes []int
	for k := range 12 {
		used[k] = true
		classes = append(classes, k)
	}
	animals := []string{"ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen", "ibex", "jay"}
	rows, err := tree(1, animals...).Map(Target{Classes: classes, Used: used})
	if err != nil {
		t.Fatal(err)
	}
	for k, r := range rows {
		if r.Class != 12+k || r.Match != MatchNone || r.Name != animals[k] {
			t.Fatalf("row %d: %+v", k, r)
		}
	}
}

// Folder names an attacker makes: not printable text gives no class name (the class keeps its
// number), a name with a newline is a name (the store makes its white space one space), two
// folders of one number are refused, a number above the IDX range too; 1,000 class folders map
// in one pass.
func TestMapOddFolders(t *testing.T) {
	rows, err := tree(1, "bell\x07", "bad\xff", "line\nbreak", "ok").Map(Target{})
	if err != nil {
		t.Fatal(err)
	}
	if got := mapping(rows); got != "bell\x07→0()s bad\xff→1()s line\nbreak→2(line\nbreak)s ok→3(ok)s" {
		t.Fatalf("mapping %q", got)
	}
	target := Target{Classes: []int{0}, Used: map[int]bool{0: true}}
	if _, err := tree(1, "007", "7").Map(target); err == nil || !strings.Contains(err.Error(), "both name label 7") {
		t.Fatalf("two folders of one number: %v", err)
	}
	if _, err := tree(1, "99999999999").Map(target); !errors.Is(err, strconv.ErrRange) {
		t.Fatalf("a number above the range: %v", err)
	}
	var many []string
	for k := range 1000 {
		many = append(many, fmt.Sprintf("c%04d", k))
	}
	rows, err = tree(1, many...).Map(target)
	if err != nil || len(rows) != 1000 || rows[0].Class != 1 || rows[999].Class != 1000 {
		t.Fatalf("1,000 folders: %d rows, err %v", len(rows), err)
	}
}

// ReadFolder's labels are Map's for a new dataset, on a tree on disk with an empty folder among
// named ones (a class of its own, without images) and the images' folders kept.
func TestReadFolderUsesTheRule(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"zero/a.png", "zero/b.png", "one/c.png"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), pngHeader(2, 2, 8, 0), 0o644)
	}
	os.Mkdir(filepath.Join(dir, "empty"), 0o755)
	f, err := ReadFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := f.Map(Target{})
	if got := mapping(rows); got != "empty→0(empty)s one→1(one)s zero→2(zero)s" || fmt.Sprint(f.Names) != "map[0:empty 1:one 2:zero]" {
		t.Fatalf("mapping %s, names %v", got, f.Names)
	}
	var got []string
	for _, x := range f.Files {
		got = append(got, fmt.Sprintf("%d %s %s", x.Label, x.Folder, filepath.Base(x.Path)))
	}
	if s := strings.Join(got, ","); s != "1 one c.png,2 zero a.png,2 zero b.png" {
		t.Fatalf("files %s", s)
	}
}

// BenchmarkMapAndLabel: the rule and the labelled list for a tree of 1,000 class folders of 100
// images each (100,000 files) onto a dataset of 1,000 named classes.
func BenchmarkMapAndLabel(b *testing.B) {
	var names []string
	target := Target{Names: map[int]string{}, Used: map[int]bool{}}
	for k := range 1000 {
		names = append(names, fmt.Sprintf("c%04d", k))
		target.Classes = append(target.Classes, k)
		target.Names[k], target.Used[k] = fmt.Sprintf("C%04d", k), true
	}
	f := tree(100, names...)
	b.ReportAllocs()
	for b.Loop() {
		rows, err := f.Map(target)
		if err != nil || len(f.Labelled(rows, nil)) != 100000 {
			b.Fatal(err)
		}
	}
}
