package build

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"idxlabel/internal/numfmt"
	"idxlabel/normalize"
	"idxlabel/sample"
	"idxlabel/store"
	"idxlabel/ui/classes"
	"idxlabel/ui/dialogs"
	"idxlabel/ui/testhook"
)

// Importer adds a folder of images (File → Import Images…): an ImageFolder tree, its class
// folders given classes by normalize's one rule (Folder.Map: as `idxlabel import` numbers a new
// dataset, and by number or name onto a dataset that has classes), or a flat folder of images
// that all get one label. The person sees, before anything is added, which dataset receives the
// samples (the open one, or a new one as File → New Dataset… starts it), each folder's class and
// image count, and the folders that match no class (a new class, or skipped), and may choose
// another class for any folder (normalize.Choose). Each image goes
// through MNIST's preprocessing in the background (progress, Cancel) and the samples are added
// as one undoable step, with the class names the folders give and each sample's source file.
type Importer struct{ base }

// newSize is the sample size of a dataset an import starts: MNIST's, as `idxlabel import`'s
// default.
const newSize = 28

// Dialog asks for a folder of images, reads what it holds, then asks how to import it.
func (m *Importer) Dialog() {
	if m.h.CannotEdit() {
		return // read-only, or a job holds edits: the status bar says so
	}
	images, _ := m.ds().Paths()
	m.d.Choose(dialogs.Spec{Title: "Import Images: the folder", Confirm: "Choose", Purpose: dialogs.PurposeImport, Folder: true,
		Filter: normalize.IsImageFile, Kind: "image", Start: filepath.Dir(images)}, m.Read)
}

// found is what a folder holds for import: an ImageFolder tree, or (tree nil) the images of a
// flat folder.
type found struct {
	dir  string
	tree *normalize.Folder
	flat []string
}

// Read reads the folder dir off the UI thread (its tree is walked, no image decoded) and then
// shows the import dialog. Errors (shown): the folder cannot be read or holds no image.
func (m *Importer) Read(dir string) {
	if m.h.CannotEdit() {
		return
	}
	p := m.startProgress("Import Images", "Reading "+dir+"…", true)
	m.jobs.Run(func() {
		f := found{dir: dir}
		tree, err := normalize.ReadFolder(dir)
		if err == nil {
			f.tree = tree
		} else if tree != nil && !hasClassFolderImages(tree) {
			if f.flat, err = normalize.FlatImages(dir); err == nil {
				f.tree = nil // no class folder holds images: the folder's own images
			}
		}
		m.jobs.Schedule(func() {
			if p.End() {
				return
			}
			if err != nil {
				m.d.ShowError(err)
				return
			}
			m.importOptions(f)
		})
	})
}

// hasClassFolderImages reports whether a class folder of t holds an image.
func hasClassFolderImages(t *normalize.Folder) bool {
	for _, cf := range t.Classes {
		if len(cf.Files) > 0 {
			return true
		}
	}
	return false
}

// target is the open dataset as normalize's folder → class rule sees it (normalize.Target):
// its classes, their names, and the classes holding samples. O(classes).
func target(ds *store.Dataset) normalize.Target {
	t := normalize.Target{Classes: ds.Classes(), Names: classes.Named(ds), Used: map[int]bool{}}
	for _, cc := range ds.Counts() {
		if cc.Class != sample.NoLabel && cc.Count > 0 {
			t.Used[cc.Class] = true
		}
	}
	return t
}

// plan is an import the person confirmed: the files with their classes, the class names, and
// whether they go into a new dataset.
type plan struct {
	dir      string
	tree     *normalize.Folder // nil: a flat folder
	files    []normalize.File
	names    map[int]string // the new names the folders give (class → name); nil: none
	fresh    bool           // into a new dataset
	classes  []int          // a new dataset's classes
	opts     normalize.Options
	digit    bool // through MNIST's preprocessing (else only resized)
	skipping int  // class folders left out by the person
}

// start runs plan p: into a new dataset (started first, after the question about the open
// one's unsaved edits), or into the open one.
func (m *Importer) start(p plan) {
	if !p.fresh {
		m.run(m.ds(), p)
		return
	}
	m.h.StartNew(newSize, newSize, p.classes, p.names, func(ds *store.Dataset) {
		p.names = nil // the new dataset has them
		m.run(ds, p)
	})
}

// run loads and normalizes p's images into ds off the UI thread with a progress bar and Cancel,
// then adds them in one undoable step (after the inputs typed meanwhile, addAfterInputs), with
// the class names p gives, and reports what came in and every file skipped. Memory: the
// samples, H×W bytes each.
func (m *Importer) run(ds *store.Dataset, p plan) {
	if m.h.CannotEdit() {
		return
	}
	h, w := ds.Size()
	p.opts.Width, p.opts.Height = w, h
	var names map[int]string
	if p.names != nil {
		names = classes.Named(ds)
		for k, s := range p.names {
			names[k] = s
		}
	}
	pj := m.startProgress(numfmt.Sprintf("Importing %d images", len(p.files)), p.dir, false)
	m.jobs.Run(func() {
		samples, skipped := loadImages(pj.Job.Ctx, p, func(frac float64) { m.jobs.Schedule(func() { pj.Set("", frac) }) })
		testhook.WaitGate(pj.Job.Ctx, testhook.ImportGate) // a test's hook; nothing otherwise
		m.jobs.Schedule(func() {
			if pj.End() {
				m.h.Say("Import cancelled: nothing was added")
				return
			}
			if len(samples) == 0 {
				m.Report(p.dir, nil, skipped, m.h.State().Classes)
				return
			}
			m.addAfterInputs(ds, store.HowAddedImported, addition{Samples: samples, Names: names}, func(int) {
				m.Report(p.dir, samples, skipped, m.h.State().Classes)
			})
		})
	})
}

// loadImages loads p's images through its options in order, each with its class and its source
// (sourceOf), and lists what it skipped: the tree's skipped files, then each image that could
// not be read, with the reason. It stops when ctx is cancelled; progress gets the fraction
// done about every 32 images. Memory: the samples, H×W bytes each.
func loadImages(ctx context.Context, p plan, progress func(float64)) (samples []store.Sample, skipped []string) {
	if p.tree != nil {
		skipped = slices.Clone(p.tree.Skipped)
	}
	for k, f := range p.files {
		if ctx.Err() != nil {
			return nil, skipped // cancelled: nothing is added
		}
		px, err := normalize.LoadFile(f.Path, p.opts, p.digit)
		if err != nil {
			skipped = append(skipped, err.Error())
		} else {
			samples = append(samples, store.Sample{Pixels: px, Label: f.Label, Source: sourceOf(p.dir, f.Path)})
		}
		if k%32 == 0 || k == len(p.files)-1 {
			progress(float64(k+1) / float64(len(p.files)))
		}
	}
	return samples, skipped
}

// sourceOf is the source of an image imported from dir: its path relative to dir,
// slash-separated ("zero/a.png"); the path itself when it is not inside dir.
func sourceOf(dir, path string) string {
	rel, err := filepath.Rel(dir, path)
	if err != nil || !filepath.IsLocal(rel) {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}

// inkChoices are the import dialog's ink options, in normalize.Polarity's order (InkAuto,
// InkLight, InkDark), as the command line's --ink auto|light|dark.
var inkChoices = []string{"Automatic (from the image's border)", "Light on dark (like MNIST)", "Dark on light (paper, scans)"}

// perClass counts samples by class, in class order, the first maxPerClass classes: "class 0
// (eight): 180, class 1 (five): 178, … and 990 more classes".
func perClass(samples []store.Sample, names classes.Names) string {
	n := map[int]int{}
	for _, s := range samples {
		n[s.Label]++
	}
	var parts []string
	classes := slices.Sorted(maps.Keys(n))
	for _, k := range classes[:min(len(classes), maxPerClass)] {
		parts = append(parts, fmt.Sprintf("%s: %s", classWord(k, names), numfmt.Sprintf("%d", n[k])))
	}
	if more := len(classes) - maxPerClass; more > 0 {
		word := "classes"
		if more == 1 {
			word = "class"
		}
		parts = append(parts, numfmt.Sprintf("… and %d more ", more)+word)
	}
	return strings.Join(parts, ", ")
}

// maxPerClass is how many classes the import report counts one by one.
const maxPerClass = 20

// classWord names class k in a sentence: "class 3 (three)", "no label".
func classWord(k int, names classes.Names) string {
	if k == sample.NoLabel {
		return "no label"
	}
	return "class " + names.Long(k)
}
