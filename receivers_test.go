package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxMethods is the most methods one type may declare: a type with more does more than one job
// and is cut at its seams (store's model and session are the example). The window's types (ui
// and its parts) keep to maxUIMethods: the controller hands each mode and workflow to a package
// of its own rather than growing.
const (
	maxMethods   = 60
	maxUIMethods = 40
)

// limitFor is the most methods a type in the folder of key ("folder package.Type") may declare.
func limitFor(key string) int {
	dir, _, _ := strings.Cut(key, " ")
	if dir == "ui" || strings.HasPrefix(dir, "ui/") || strings.HasPrefix(dir, "ui"+string(filepath.Separator)) {
		return maxUIMethods
	}
	return maxMethods
}

// receiverBase returns the name of a method's receiver type, without pointer or type parameters.
func receiverBase(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// countMethods returns the methods declared in the module's Go files (tests included) for each
// type, keyed "folder package.Type".
func countMethods(t *testing.T) map[string]int {
	t.Helper()
	counts := map[string]int{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if path != "." && (strings.HasPrefix(e.Name(), ".") || e.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || len(fn.Recv.List) != 1 {
				continue
			}
			if name := receiverBase(fn.Recv.List[0].Type); name != "" {
				counts[filepath.Dir(path)+" "+f.Name.Name+"."+name]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return counts
}

// No type declares more than maxMethods methods.
func TestNoReceiverOverMaxMethods(t *testing.T) {
	counts := countMethods(t)
	if len(counts) == 0 {
		t.Fatal("no method found in the module")
	}
	for typ, n := range counts {
		if limit := limitFor(typ); n > limit {
			t.Errorf("%s declares %d methods, more than %d: cut it at its seams", typ, n, limit)
		}
	}
}

// The count sees what it must: store's Dataset and its model each declare methods (a count that
// found none would pass whatever the code).
func TestCountMethodsSeesStore(t *testing.T) {
	counts := countMethods(t)
	for _, typ := range []string{"store store.Dataset", "store store.model", "ui ui.controller"} {
		if counts[typ] == 0 {
			t.Errorf("%s: no method counted", typ)
		}
	}
}
