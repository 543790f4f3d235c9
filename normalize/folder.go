package normalize

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"idxlabel/internal/atomicfile"
)

// Folder is an ImageFolder tree as ReadFolder reads it.
type Folder struct {
	// Files are the images to import into a new dataset, in torchvision's order (by class, then
	// by path), labelled by Map's rule for a new dataset (Target{}); Folder.Labelled gives them
	// for another target.
	Files   []File
	Skipped []string       // every other file of the tree, and every folder that gave nothing, with the reason
	Names   map[int]string // class → folder name when the folders are named (not all numbers); nil otherwise
	Named   bool           // the classes are numbered by sorted folder names (torchvision's rule)
	// Classes are the class folders (every folder in DIR), sorted by name as torchvision sorts
	// them, each with its images in torchvision's order; a folder without images has none.
	Classes []ClassFolder
	dir     string // DIR, as given
}

// ClassFolder is one class folder of an ImageFolder tree, DIR/<Name>/…: its name and the paths
// of its images (in it and below it) in torchvision's order.
type ClassFolder struct {
	Name  string
	Files []string
}

// maxFolderDepth bounds how deep ReadFolder descends inside a class folder.
const maxFolderDepth = 32

// otherImageExtensions are image files ReadFolder lists as skipped with the reason: formats
// torchvision's ImageFolder takes that LoadFile does not decode.
var otherImageExtensions = map[string]string{".ppm": "PPM", ".pgm": "PGM"}

// ReadFolder reads an ImageFolder tree (torchvision's layout: DIR/<class>/…/<image>) as
// torchvision's ImageFolder does. Every folder in DIR is a class (a symbolic link to a folder
// too). When the name of every class folder that holds images is a label (ParseLabel: "0",
// "7", "10") the class is that number (folders without images are then only listed);
// otherwise every class folder is numbered 0, 1, … in the order of the names sorted
// (torchvision's find_classes: "cat" 0, "dog" 1; "A" before "a"), and Names maps each number
// to its folder's name. A class's images are every image file LoadFile reads (ImageExtensions) in its folder and in folders
// below it (links followed, a loop cut), ordered as torchvision orders them: by the folder's
// path, then by file name. Every other file of the tree is listed in Skipped with its reason
// (PPM and PGM, not an image, outside a class folder, not a regular file), as is a
// class folder with no image; nothing is dropped without a word. Memory: one entry per file.
// Errors: DIR cannot be read; the tree holds no image; with numbered folders, a number above
// MaxLabel (wrapping strconv.ErrRange) or two folders naming one number ("007" and "7").
func ReadFolder(dir string) (*Folder, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	f := &Folder{dir: dir}
	var classes []string // folder names
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		fi, err := os.Stat(p) // follows a link, as torchvision does
		switch {
		case err != nil:
			f.Skipped = append(f.Skipped, fmt.Sprintf("%s: a symbolic link to a missing or unreadable file", p))
		case fi.IsDir():
			classes = append(classes, e.Name())
		default:
			f.Skipped = append(f.Skipped, fmt.Sprintf("%s: not in a class folder (DIR/<class>/<image>)", p))
		}
	}
	slices.Sort(classes) // byte order of UTF-8 is code point order, Python's sorted()
	full := 0            // the class folders that hold images
	for _, name := range classes {
		cf := ClassFolder{Name: name}
		cf.Files = f.walk(filepath.Join(dir, name))
		if len(cf.Files) == 0 {
			f.Skipped = append(f.Skipped, fmt.Sprintf("%s: class folder holds no image", filepath.Join(dir, name)))
		} else {
			full++
		}
		f.Classes = append(f.Classes, cf)
	}
	if full == 0 {
		return f, fmt.Errorf("%s: no images (PNG, JPEG, GIF, BMP, WebP, TIFF) in class folders (DIR/<class>/*.png)", dir)
	}
	m, err := f.Map(Target{})
	if err != nil {
		return nil, err
	}
	f.Files = f.Labelled(m, nil)
	if len(m) > 0 && m[0].Match == MatchSorted {
		f.Named = true
		f.Names = ClassNames(m, nil)
	}
	return f, nil
}

// walk returns the images under the class folder root, in torchvision's order (os.walk's
// folders sorted by path, each one's files by name), and lists the rest in f.Skipped.
func (f *Folder) walk(root string) []string {
	type folder struct {
		path  string
		files []string
	}
	var folders []folder
	var visit func(path string, depth int, seen []os.FileInfo)
	visit = func(path string, depth int, seen []os.FileInfo) {
		fi, err := os.Stat(path)
		if err != nil {
			f.Skipped = append(f.Skipped, fmt.Sprintf("%s: %v", path, err))
			return
		}
		for _, s := range seen {
			if os.SameFile(s, fi) {
				f.Skipped = append(f.Skipped, fmt.Sprintf("%s: a link back to a folder above it (not followed again)", path))
				return
			}
		}
		if depth > maxFolderDepth {
			f.Skipped = append(f.Skipped, fmt.Sprintf("%s: more than %d folders deep", path, maxFolderDepth))
			return
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			f.Skipped = append(f.Skipped, fmt.Sprintf("%s: %v", path, err))
			return
		}
		here := folder{path: path}
		for _, e := range entries {
			p := filepath.Join(path, e.Name())
			efi, err := os.Stat(p)
			switch {
			case err != nil:
				f.Skipped = append(f.Skipped, fmt.Sprintf("%s: a symbolic link to a missing or unreadable file", p))
			case efi.IsDir():
				visit(p, depth+1, append(seen, fi))
			case !efi.Mode().IsRegular():
				f.Skipped = append(f.Skipped, fmt.Sprintf("%s: not a regular file (%s)", p, atomicfile.Kind(efi.Mode())))
			case IsImageFile(e.Name()):
				here.files = append(here.files, e.Name())
			default:
				f.Skipped = append(f.Skipped, fmt.Sprintf("%s: %s", p, notImported(e.Name())))
			}
		}
		folders = append(folders, here)
	}
	visit(root, 0, nil)
	slices.SortFunc(folders, func(a, b folder) int { return strings.Compare(a.path, b.path) })
	var files []string
	for _, d := range folders {
		slices.Sort(d.files)
		for _, name := range d.files {
			files = append(files, filepath.Join(d.path, name))
		}
	}
	return files
}

// notImported says why a file that is not an image LoadFile reads (ImageExtensions) is not
// imported.
func notImported(name string) string {
	if kind, ok := otherImageExtensions[strings.ToLower(filepath.Ext(name))]; ok {
		return kind + " images are not read; convert it to PNG"
	}
	return "not an image idxlabel reads (PNG, JPEG, GIF, BMP, WebP, TIFF)"
}

// FlatImages lists the image files (ImageExtensions) directly in dir, sorted by name: a folder
// of images without class folders, which an import gives one label. Errors: dir cannot be read;
// it holds no image file.
func FlatImages(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries { // os.ReadDir sorts them by name
		if !e.IsDir() && IsImageFile(e.Name()) {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no images (PNG, JPEG, GIF, BMP, WebP, TIFF), in class folders (DIR/<class>/*.png) or in the folder itself", dir)
	}
	return files, nil
}
