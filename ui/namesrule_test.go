package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// textMakers are the calls that make a file's name part of a text the window shows: formatting,
// joining, a label, a menu item, the status line, a dialog's message. A name or a path reaches
// them only through clip.Name or clip.Printable.
var textMakers = map[string]bool{
	"fmt.Sprintf": true, "fmt.Sprint": true, "numfmt.Sprintf": true, "strings.Join": true,
	"widget.NewLabel": true, "widget.NewLabelWithStyle": true, "canvas.NewText": true, "fyne.NewMenuItem": true,
	".Say": true, ".Note": true, ".Inform": true, ".InformAs": true, ".Ask": true, ".SetTitle": true,
	"dialog.NewCustomWithoutButtons": true, ".ShowPassing": true,
}

// pathTakers are the packages whose functions take a name or a path as a path (filepath.Join,
// os.CreateTemp) or show it by the rule (clip): a name concatenated into their argument is no
// text shown.
var pathTakers = map[string]bool{"filepath": true, "os": true, "clip": true}

// isProse reports whether e is a string literal holding a space: words, not a path's part.
func isProse(e ast.Expr) bool {
	l, ok := e.(*ast.BasicLit)
	return ok && l.Kind == token.STRING && strings.Contains(l.Value, " ")
}

// calleeName names a call's function: pkg is the identifier before the dot ("fmt", or a
// variable whose method is called), "" when the call is of a field's method or of no selector.
// textMakers matches "pkg.Func" for a package's function and ".Method" for a method, whatever
// it is called on.
func calleeName(c *ast.CallExpr) (pkg, name string) {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	if id, ok := sel.X.(*ast.Ident); ok {
		return id.Name, sel.Sel.Name
	}
	return "", sel.Sel.Name
}

// rawNameUse reports whether the call to filepath.Base or filepath.Dir at the end of stack (its
// ancestors, outermost first) becomes text shown raw. Going up through string concatenations,
// composite literals and parentheses to the first call: a call of pathTakers takes it as a path
// (or shows it by the rule), allowed; a textMaker shows it; any other call given it concatenated
// with other text ("Reading "+name+"…": a progress note, a job's title) shows it too. Without a
// call, a concatenation (text built in a variable) is text; the value kept as it is (an
// assignment, a return, an entry's SetText: a path to edit, not a label) is not judged.
func rawNameUse(stack []ast.Node) bool {
	concatenated, prose := false, false
	for k := len(stack) - 2; k >= 0; k-- {
		switch n := stack[k].(type) {
		case *ast.BinaryExpr:
			if n.Op != token.ADD {
				return false
			}
			concatenated = true
			prose = prose || isProse(n.X) || isProse(n.Y)
		case *ast.CompositeLit, *ast.KeyValueExpr, *ast.ParenExpr:
		case *ast.CallExpr:
			pkg, name := calleeName(n)
			if pathTakers[pkg] {
				return false
			}
			return prose || textMakers[pkg+"."+name] || textMakers["."+name]
		default:
			return concatenated
		}
	}
	return concatenated
}

// No code of the window shows a file's or a folder's name made by filepath.Base or filepath.Dir
// as it is: a name goes through clip.Name (escaped, cut in its middle), a path through
// clip.Printable, so that a name holding a newline, an escape code or 300 characters cannot
// break a label, a title, a status line or a list row. The check is syntactic (rawNameUse): a
// name kept in a variable and shown later is not seen; one concatenated, formatted, joined or
// given to a label, a menu item or a message is.
func TestFileNamesShownPassTheRule(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, c := range rawNameUses(f) {
			pkg, name := calleeName(c)
			t.Errorf("%s: %s.%s's result is shown as it is: show a name through clip.Name, a path through clip.Printable", fset.Position(c.Pos()), pkg, name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// rawNameUses returns the calls of filepath.Base and filepath.Dir in f whose result is shown
// raw (rawNameUse).
func rawNameUses(f *ast.File) []*ast.CallExpr {
	var out []*ast.CallExpr
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if c, ok := n.(*ast.CallExpr); ok {
			if pkg, name := calleeName(c); pkg == "filepath" && (name == "Base" || name == "Dir") && rawNameUse(stack) {
				out = append(out, c)
			}
		}
		return true
	})
	return out
}

// The check sees a name formatted, joined, concatenated into words or into a variable, and given
// to a label, a message or a title; it leaves alone a name given through clip, a path built by
// filepath.Join or os, an entry's path, and a value kept as it is.
func TestRawNameUses(t *testing.T) {
	src := `package p
func f() {
	_ = fmt.Sprintf("%s", filepath.Base(a))          // raw 1
	_ = strings.Join([]string{filepath.Base(a)}, "\n") // raw 2
	x.Say("Reading " + filepath.Base(a) + "…")       // raw 3
	text += "\n" + filepath.Base(a)                  // raw 4
	widget.NewLabel(filepath.Dir(a))                 // raw 5
	p.Set("Writing "+filepath.Base(a), 0)            // raw 6
	s.d.Ask("Replace?", filepath.Dir(a)+" exists", false, nil) // raw 7
	dialog.NewCustomWithoutButtons("Open "+filepath.Base(a), c, w) // raw 8
	_ = clip.Name(filepath.Base(a))
	_ = fmt.Sprintf("%s", clip.Printable(filepath.Dir(a)))
	_ = filepath.Join(filepath.Dir(a), "b")
	os.CreateTemp(filepath.Dir(a), "."+filepath.Base(a)+".tmp-*")
	folder.SetText(filepath.Dir(a))
	setPath(filepath.Dir(a) + string(filepath.Separator))
	name := filepath.Base(a)
	return filepath.Base(a)
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(src, "\n")
	found := map[int]bool{}
	for _, c := range rawNameUses(f) {
		found[fset.Position(c.Pos()).Line] = true
	}
	for k, l := range lines {
		if want := strings.Contains(l, "// raw"); found[k+1] != want {
			t.Errorf("line %q: found %v, want %v", strings.TrimSpace(l), found[k+1], want)
		}
	}
}
