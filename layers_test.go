package main

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// listed is what `go list -json` says of one package: its path and what it imports, directly
// (Imports, test files left out) and through others (Deps).
type listed struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// goList runs `go list -json PATTERNS` and returns every package it lists.
func goList(t *testing.T, patterns ...string) []listed {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json"}, patterns...)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", patterns, err)
	}
	var pkgs []listed
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list %v: %v", patterns, err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatalf("go list %v listed no package", patterns)
	}
	return pkgs
}

// The packages below the interface never depend on Fyne, whatever the path: the codec, the
// pair's files, the store, the preprocessing, the scans, the plots, the file formats, the helpers, the demo and
// the test data (docs/layout.md).
func TestLowerPackagesDoNotImportFyne(t *testing.T) {
	for _, p := range goList(t, "./idx/...", "./store/...", "./normalize/...", "./suspect/...",
		"./plot/...", "./export/...", "./report/...", "./internal/...", "./demo/...", "./fixture/...", "./sample/...", "./builder/...", "./formats/...", "./pairfile/...", "./sheets/...") {
		for _, d := range p.Deps {
			if strings.HasPrefix(d, "fyne.io/") {
				t.Errorf("%s depends on %s", p.ImportPath, d)
				break
			}
		}
	}
}

// internal/ is the ground floor: its packages import nothing of the program but each other.
func TestInternalIsGroundFloor(t *testing.T) {
	for _, p := range goList(t, "./internal/...") {
		for _, d := range p.Deps {
			if strings.HasPrefix(d, "idxlabel/") && !strings.HasPrefix(d, "idxlabel/internal/") {
				t.Errorf("%s depends on %s, above the ground floor", p.ImportPath, d)
			}
		}
	}
}

// fixture/ holds test data: only tests (which `go list` leaves out of Imports) and the bench/
// tools import it, never the program.
func TestFixturesOnlyForTestsAndBench(t *testing.T) {
	for _, p := range goList(t, "./...") {
		if strings.HasPrefix(p.ImportPath, "idxlabel/bench/") || strings.HasPrefix(p.ImportPath, "idxlabel/fixture/") {
			continue
		}
		for _, d := range p.Imports {
			if strings.HasPrefix(d, "idxlabel/fixture/") {
				t.Errorf("%s imports the test fixture %s", p.ImportPath, d)
			}
		}
	}
}

// The scans, the plots and the file formats read samples as sample.Set and never the store
// they came from: the store hands them a snapshot. The reader of sheets makes samples and
// leaves writing them to its callers.
func TestScansAndFormatsDoNotImportStore(t *testing.T) {
	for _, p := range goList(t, "./suspect/...", "./plot/...", "./export/...", "./report/...", "./sample/...", "./formats/...", "./sheets/...") {
		for _, d := range p.Deps {
			if d == "idxlabel/store" {
				t.Errorf("%s depends on idxlabel/store", p.ImportPath)
			}
		}
	}
}

// sample is a leaf: it imports nothing of the program.
func TestSampleIsALeaf(t *testing.T) {
	for _, p := range goList(t, "./sample") {
		for _, d := range p.Deps {
			if strings.HasPrefix(d, "idxlabel/") {
				t.Errorf("%s depends on %s", p.ImportPath, d)
			}
		}
	}
}

// export writes file formats and formats reads them; they know nothing of scans: the health
// report's findings, matrix and map are built by report, which export does not import.
func TestExportKnowsNothingOfScans(t *testing.T) {
	for _, p := range goList(t, "./export/...", "./formats/...") {
		for _, d := range p.Deps {
			if strings.HasPrefix(d, "idxlabel/suspect") || d == "idxlabel/plot" || d == "idxlabel/report" {
				t.Errorf("%s depends on %s", p.ImportPath, d)
			}
		}
	}
}

// The window's passive widgets read what they show through their own small interfaces: they
// depend on neither the window (ui) nor the store, so no arrow runs from them back up.
func TestWidgetsKnowNeitherWindowNorStore(t *testing.T) {
	for _, p := range goList(t, "./ui/widgets/...") {
		for _, d := range p.Deps {
			if d == "idxlabel/ui" || d == "idxlabel/store" {
				t.Errorf("%s depends on %s", p.ImportPath, d)
			}
		}
	}
}

// annotate (agreement, consensus, errata) stands on the codec and the sample set alone: no Fyne,
// no store, no scans, so the command line and the window use it alike.
func TestAnnotateStandsOnIdxAndSample(t *testing.T) {
	for _, p := range goList(t, "./annotate/...") {
		for _, d := range p.Deps {
			program := strings.HasPrefix(d, "idxlabel/") && d != "idxlabel/idx" && d != "idxlabel/sample" && !strings.HasPrefix(d, "idxlabel/internal/")
			if program || strings.HasPrefix(d, "fyne.io/") {
				t.Errorf("%s depends on %s", p.ImportPath, d)
			}
		}
	}
}

// pairfile holds a pair's files on disk (names and partners, locks, the paired commit and its
// record, the rule for outputs, class-name and sources files, shape checks, stamps, the journal's
// framing): it sits below the store, which keeps the dataset a person edits and its session on
// top of it, and knows neither the store nor the window. Package builder reaches the
// pair's files through it and never opens a store.Dataset.
func TestPairFileKnowsNeitherStoreNorWindow(t *testing.T) {
	for _, p := range goList(t, "./pairfile/...", "./builder/...") {
		for _, d := range p.Deps {
			if d == "idxlabel/store" || strings.HasPrefix(d, "idxlabel/store/") || d == "idxlabel/ui" || strings.HasPrefix(d, "idxlabel/ui/") {
				t.Errorf("%s depends on %s", p.ImportPath, d)
			}
		}
	}
}

// suspect/folds deals cross-validation folds for every model above it: it imports nothing of
// the program.
func TestFoldsIsALeaf(t *testing.T) {
	for _, p := range goList(t, "./suspect/folds") {
		for _, d := range p.Deps {
			if strings.HasPrefix(d, "idxlabel/") {
				t.Errorf("%s depends on %s", p.ImportPath, d)
			}
		}
	}
}

// ui's parts (the modes, the workflows, the dialogs, the widgets) are built by the window with
// what they need: none of them imports the window's package, idxlabel/ui.
func TestUIPartsDoNotReachBackUp(t *testing.T) {
	for _, p := range goList(t, "./ui/...") {
		if p.ImportPath == "idxlabel/ui" {
			continue
		}
		for _, d := range p.Deps {
			if d == "idxlabel/ui" {
				t.Errorf("%s depends on %s", p.ImportPath, d)
			}
		}
	}
}

// uiWorkflows are the window's modes and workflows, each a package of its own: a change to one
// never reaches another. They share what lies below them (mode, review, scan, dialogs, jobs,
// classes, widgets), never each other.
var uiWorkflows = []string{"annotators", "build", "confusion", "convert", "draw", "health", "mapview", "sheets", "similar", "suggest", "suspects"}

func TestUIWorkflowsDoNotImportEachOther(t *testing.T) {
	own := map[string]bool{}
	for _, w := range uiWorkflows {
		own["idxlabel/ui/"+w] = true
	}
	for _, w := range uiWorkflows {
		for _, p := range goList(t, "./ui/"+w+"/...") {
			for _, d := range p.Deps {
				if own[d] && !strings.HasPrefix(p.ImportPath+"/", d+"/") {
					t.Errorf("%s depends on %s", p.ImportPath, d)
				}
			}
		}
	}
}
