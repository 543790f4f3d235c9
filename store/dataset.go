package store

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"idxlabel/idx"
	"idxlabel/sample"
	"idxlabel/store/journal"
)

// Transpose says whether samples are stored transposed (EMNIST stores every image transposed).
type Transpose int

const (
	TransposeAuto Transpose = iota // transposed when the image file's name contains "emnist"
	TransposeNo                    // stored as displayed
	TransposeYes                   // stored transposed: display shows the transpose
)

// Options adjust how Open reads a pair.
type Options struct {
	// Height and Width give the sample size in pixels for N×(H·W) image files whose H·W is not a
	// perfect square; 0 infers it.
	Height, Width int
	// Transposed overrides the EMNIST detection (TransposeAuto).
	Transposed Transpose
	// ReadOnly opens the pair for reading only (the command line's info, verify, suspects,
	// export): Open then writes, renames and deletes nothing, and edits and saves fail with
	// ErrReadOnly.
	ReadOnly bool
}

// Sample is one new sample to append: Height×Width display pixels (row-major, 0 = background,
// 255 = ink, as shown, not transposed) and its label.
type Sample struct {
	Pixels []byte
	Label  int
}

// ErrNoPath: Save was called on a dataset that has no files yet (a new dataset): use SaveAs.
var ErrNoPath = errors.New("the dataset has no files yet: choose where to save it")

// ErrSaving: an edit was attempted while a save is writing the files; it can be made again
// when the save is done.
var ErrSaving = errors.New("saving: edits wait until the save is done")

// ErrReadOnly: an edit or save was attempted on a dataset opened with Options.ReadOnly.
var ErrReadOnly = errors.New("the dataset is open read-only")

// ErrClosed: an edit or save was attempted after Close.
var ErrClosed = errors.New("the dataset was closed: open the files again to edit them")

// ErrRecoveryPending: an edit was attempted while a journal found at Open awaits a decision
// (ReplayJournal or DiscardJournal).
var ErrRecoveryPending = errors.New("a journal of unsaved edits was found: replay or discard it first")

// Dataset is a pair of IDX files opened for editing, or a new dataset. Its methods are safe for
// concurrent use; edits are serialized, and Save blocks edits while it runs.
type Dataset struct {
	mu sync.RWMutex

	imagesPath, labelsPath string
	readOnly               bool
	h, w                   int
	transposed             bool

	// The samples of the files (the base), unchanged until a save.
	baseN       int
	imageHeader idx.Header // as read; Dims[0] is baseN
	imageData   []byte     // raw data as read (any dtype), baseN × H·W elements
	vmap        valueMap   // stored value ↔ display pixel
	pixels      []byte     // baseN×H×W display pixels; aliases imageData for ubyte
	labelHeader idx.Header // as read; Type 0 when the dataset has no label file
	labelData   []byte     // raw label data as read (QMNIST's extra columns live here)
	orig        []int32    // baseN labels in the files (as read or last saved), sample.NoLabel when unlabelled
	// ownLabels: the label file's dtype is idxlabel's to choose at each save (newLabelType): a
	// new dataset, images opened alone, or a label file holding sample.NoLabel (which only idxlabel
	// writes). Otherwise a save keeps the dtype of the person's file.
	ownLabels bool

	// baseRows, when not nil, holds the base's images instead of imageData and pixels (nil
	// then): rows of the buffers a save wrote its image file from (baseimages.go).
	baseRows *baseImages

	// What the files held when they were opened, renumbered through every save since: the
	// first len(opened) samples existed then, with these labels; the others were added since.
	// State's Edited and Added, and the Edited and Added filters, compare with it, so a save
	// does not hide what changed.
	opened []int32

	// The current state: one entry per sample, base then appended.
	labels   []int32
	deleted  []bool
	reviewed []bool // decided in a review of suspects (Decide); kept through a save, renumbered
	added    []byte // (Len()-baseN)×H×W display pixels of appended samples; bytes handed out are never written again (see appendSamples.revert)

	declared  []int          // classes of a new dataset, or those present when the files were read (0–9 for an empty label file)
	names     map[int]string // class names (EMNIST mapping, classes.txt, or given)
	namesPath string
	// namesEdited: SetClassNames changed the names since the last save (classnames.go).
	namesEdited bool

	undo, redo []action
	// clean is the depth of the undo stack at which the samples are as the files hold them
	// (0 when opened, len(undo) after a save); -1 when that state can no longer be reached
	// (an edit replaced the redo steps leading to it). See Dirty.
	clean int
	// carry is the history record (history.go) that the journal begun after a save must start
	// with, nil when the save left no history or it has been written.
	carry       []byte
	journal     *journal.Journal
	journalPath string // where the journal goes; "" = beside the label (or image) file
	recovery    *Recovery
	gen         uint64        // see Gen
	saving      bool          // a save is writing the files: edits fail with ErrSaving
	saveEnd     chan struct{} // closed when the save in progress ends (Close waits for it)
	notices     []string

	subs    map[int]func(Change)
	nextSub int
	tally   tally // counts kept up to date as edits happen (tally.go)

	log sessionLog // the change log of the edits saved in this session (changelog.go)

	locks  pairLocks // the pair's locks while it is open for editing (lock.go); none without files
	stamps []stamp   // the files as they were read or last saved (stamp.go)
	// lastSave is what the last successful save wrote (LastSave).
	lastSave SaveReport
	closed   bool // Close was called: edits and saves fail with ErrClosed
}

// Open reads an image file and, unless labelsPath is "", its label file, as a pair. Images are
// N×H×W (or N×(H·W), N×H×W×1) of any IDX dtype; labels are 1-D integers, or N×K integers with the
// class in column 0 (QMNIST's N×8 int32). The paths are kept absolute and cleaned, so nothing
// depends on the working directory afterwards. It first takes the pair's lock for editing,
// held by this Dataset until Close (see LockSuffix). Before reading, it finishes a save of this
// pair that was cut off between its renames (Notices says so; a save record that is damaged or
// names files that are not this pair's is moved aside unused, and Notices says that too) and
// removes stale temporary files of earlier saves; after reading, it looks for a journal of
// unsaved edits (Recovery). With opts.ReadOnly it does none of that: no lock is taken, nothing
// on disk is created, changed or removed, an interrupted save is shown as saved without being
// finished, and edits fail with ErrReadOnly. Errors: a *LockedError (errors.Is ErrLocked) when
// another process or Dataset has the pair open for editing, the idx errors of either file
// (naming it), a label file that is not integer or not 1-D/2-D, counts that differ (naming both
// files and counts), or a rename that fails while finishing an interrupted save.
func Open(imagesPath, labelsPath string, opts Options) (_ *Dataset, err error) {
	imagesPath = absClean(imagesPath)
	if labelsPath != "" {
		labelsPath = absClean(labelsPath)
	}
	d := &Dataset{imagesPath: imagesPath, labelsPath: labelsPath, readOnly: opts.ReadOnly, subs: map[int]func(Change){}}
	if !opts.ReadOnly {
		if err := d.takeLock(); err != nil {
			return nil, err
		}
		defer func() {
			if err != nil {
				d.locks.release()
			}
		}()
	}
	readImages, readLabels := imagesPath, labelsPath
	if opts.ReadOnly {
		var note string
		readImages, readLabels, note = interruptedSaveView(d.statePath(ManifestSuffix), imagesPath, labelsPath)
		if note != "" {
			d.notices = append(d.notices, note)
		}
	} else {
		note, keep, err := finishInterruptedSave(d.statePath(ManifestSuffix), []string{imagesPath, labelsPath})
		if err != nil {
			return nil, err
		}
		if note != "" {
			d.notices = append(d.notices, note)
		}
		removeStale(imagesPath, keep)
		if labelsPath != "" {
			removeStale(labelsPath, keep)
		}
	}
	if !opts.ReadOnly { // a read-only dataset never saves: its stamps are never checked
		d.stamps = takeStamps(imagesPath, labelsPath)
	}
	images, err := idx.ReadFileLimit(readImages, idx.MaxData())
	if err != nil {
		return nil, err
	}
	var labels *idx.Array
	if labelsPath != "" {
		if labels, err = idx.ReadFileLimit(readLabels, idx.MaxData()); err != nil {
			return nil, err
		}
	}
	if err := d.setBase(images, labels, opts); err != nil {
		return nil, err
	}
	if labelsPath != "" {
		names, p, err := FindClassNames(labelsPath)
		if err != nil {
			d.notices = append(d.notices, err.Error())
		}
		d.names, d.namesPath = names, p
	}
	if opts.ReadOnly {
		return d, nil
	}
	if err := d.findJournal(); err != nil {
		return nil, err
	}
	return d, nil
}

// FromArrays makes a dataset of arrays already in memory (a generated demo, an import) as if
// they had been read from files: images N×H×W (any dtype), labels N integers or nil. It has no
// files until SaveAs; edits are journaled to journalPath. Errors: as for Open (shapes, counts).
func FromArrays(images, labels *idx.Array, names map[int]string, journalPath string, opts Options) (*Dataset, error) {
	d := &Dataset{journalPath: journalPath, names: names, subs: map[int]func(Change){}}
	if err := d.setBase(images, labels, opts); err != nil {
		return nil, err
	}
	return d, nil
}

// setBase makes images and labels (nil: unlabelled) the dataset's base, checking their shapes.
func (d *Dataset) setBase(images, labels *idx.Array, opts Options) error {
	s, err := CheckPair(d.imagesPath, images, d.labelsPath, labels, opts.Height, opts.Width)
	if err != nil {
		return err
	}
	d.h, d.w = s.H, s.W
	d.baseN = images.Dims[0]
	d.imageHeader = images.Header
	d.imageData = images.Data
	d.vmap = newValueMap(images)
	d.pixels = d.vmap.displayPixels(images)
	switch opts.Transposed {
	case TransposeYes:
		d.transposed = true
	case TransposeAuto:
		d.transposed = strings.Contains(strings.ToLower(filepath.Base(d.imagesPath)), "emnist")
	}
	d.orig = make([]int32, d.baseN)
	if labels == nil {
		for i := range d.orig {
			d.orig[i] = sample.NoLabel
		}
	} else if err := d.checkLabels(labels); err != nil {
		return err
	}
	d.ownLabels = labels == nil || labels.Rank() == 1 && slices.Contains(d.orig, sample.NoLabel)
	d.labels = slices.Clone(d.orig)
	d.opened = slices.Clone(d.orig)
	d.deleted = make([]bool, d.baseN)
	d.reviewed = make([]bool, d.baseN)
	d.declared = d.presentClasses()
	if labels != nil && d.baseN == 0 {
		d.declared = defaultClasses() // an empty label file: the classes of a new dataset
	}
	return nil
}

// defaultClasses returns the classes of a dataset that names none: MNIST's digits 0–9.
func defaultClasses() []int { return []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9} }

// presentClasses returns the distinct labels of the samples, sorted (sample.NoLabel left out). Open
// declares them, so a class keeps its place in the histogram when its last sample is relabelled.
func (d *Dataset) presentClasses() []int {
	var small [256]bool
	set := map[int]bool{}
	for _, l := range d.labels {
		switch {
		case l >= 0 && l < 256:
			small[l] = true
		case l != sample.NoLabel:
			set[int(l)] = true
		}
	}
	for c, ok := range small {
		if ok {
			set[c] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// checkLabels takes the labels of a label array that CheckPair has accepted.
func (d *Dataset) checkLabels(labels *idx.Array) error {
	d.labelHeader, d.labelData = labels.Header, labels.Data
	stride := labels.Stride()
	for i := range d.orig {
		d.orig[i] = int32(labels.Int(i * stride))
	}
	return nil
}

// New returns an empty dataset of height×width samples (28×28 for MNIST) with ubyte images and
// labels, declared classes (0–9 when classes is nil) and optional class names. It has no files
// until SaveAs; its journal is written to journalPath (a per-user folder the caller chooses) so
// unsaved work survives a crash, and OpenJournal restores it. Errors: a size below 1 pixel or
// above MaxSide.
func New(height, width int, classes []int, names map[int]string, journalPath string) (*Dataset, error) {
	if height < 1 || width < 1 || height > MaxSide || width > MaxSide {
		return nil, fmt.Errorf("sample size %d×%d: height and width must be 1–%d pixels", height, width, MaxSide)
	}
	if classes == nil {
		classes = defaultClasses()
	}
	d := &Dataset{
		h: height, w: width,
		imageHeader: idx.Header{Type: idx.UByte, Dims: []int{0, height, width}},
		labelHeader: idx.Header{Type: idx.UByte, Dims: []int{0}},
		ownLabels:   true,
		vmap:        valueMap{identity: true, lo: 0, hi: 255},
		declared:    slices.Sorted(slices.Values(classes)),
		names:       names,
		subs:        map[int]func(Change){},
	}
	d.journalPath = journalPath
	return d, nil
}

// statePath returns the path of a per-pair state file (journal, save manifest): beside the
// label file, or beside the image file when there is none; "" for a dataset without files.
func (d *Dataset) statePath(suffix string) string {
	if key := pairKey(d.imagesPath, d.labelsPath); key != "" {
		return key + suffix
	}
	return ""
}

// pairKey is the file a pair's own files are named after (its journal, save record, change log
// and first lock): the label file, or the image file when there is none ("" for neither).
func pairKey(images, labels string) string {
	if labels != "" {
		return labels
	}
	return images
}

// Len returns the number of samples, deleted ones included: base then appended.
func (d *Dataset) Len() int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return len(d.labels)
}

// ReadOnly reports whether the dataset was opened with Options.ReadOnly: its edits and saves fail
// with ErrReadOnly. It is set when the dataset is opened and never changes.
func (d *Dataset) ReadOnly() bool { return d.readOnly }

// Size returns the height and width of every sample in pixels (as displayed).
func (d *Dataset) Size() (height, width int) {
	if d.transposed {
		return d.w, d.h
	}
	return d.h, d.w
}

// Transposed reports whether samples are stored transposed (EMNIST): a viewer shows the
// transpose of Pixels.
func (d *Dataset) Transposed() bool { return d.transposed }

// Paths returns the image and label file the dataset was opened from or last saved to ("" when
// it has none).
func (d *Dataset) Paths() (images, labels string) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.imagesPath, d.labelsPath
}

// HasLabels reports whether the dataset has a label file (or, for a new dataset, labels). A save
// of images opened alone with a new label file gives it one.
func (d *Dataset) HasLabels() bool {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.hasLabels()
}

// hasLabels is HasLabels with d.mu held.
func (d *Dataset) hasLabels() bool { return d.labelHeader.Type != 0 }

// Reading a sample that does not exist is a programming error: Pixels, Label, OriginalLabel and
// State panic with a message naming the index and Len, never returning stale data. A reader
// whose index may have been taken before an edit removed samples (an undone append, a save)
// uses the checked forms PixelsAt and StateAt, which say whether the sample exists.

// Pixels returns sample i's H·W display pixels (0 = background, 255 = ink) in stored order:
// row-major, or column-major when Transposed. It is a view into the dataset's buffer, not a copy;
// it must not be modified and stays valid (unchanged) for as long as the caller holds it, through
// any later edit, undo or save. It panics if i is not in 0…Len()-1.
func (d *Dataset) Pixels(i int) []byte {
	d.mu.RLock()
	defer d.mu.RUnlock()
	d.mustExist(i, "Pixels")
	return d.pixelsLocked(i)
}

// PixelsAt is Pixels for readers that may race with an edit: ok is false (and px nil) when
// sample i does not exist now.
func (d *Dataset) PixelsAt(i int) (px []byte, ok bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if i < 0 || i >= len(d.labels) {
		return nil, false
	}
	return d.pixelsLocked(i), true
}

// mustExist panics unless sample i exists (d.mu held).
func (d *Dataset) mustExist(i int, method string) {
	if i < 0 || i >= len(d.labels) {
		panic(fmt.Sprintf("store: %s(%d): no such sample, the dataset has %d (use the checked forms PixelsAt, StateAt when the length may have changed)", method, i, len(d.labels)))
	}
}

// pixelsLocked returns sample i's pixels; i exists (d.mu held).
func (d *Dataset) pixelsLocked(i int) []byte {
	n := d.h * d.w
	if i < d.baseN {
		return d.basePixels(i)
	}
	j := i - d.baseN
	return d.added[j*n : (j+1)*n : (j+1)*n]
}

// Label returns sample i's current label, sample.NoLabel when it has none. It panics if i is not in
// 0…Len()-1.
func (d *Dataset) Label(i int) int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	d.mustExist(i, "Label")
	return int(d.labels[i])
}

// OriginalLabel returns sample i's label when the files were opened, whatever saves happened
// since (sample.NoLabel for samples added since and for unlabelled files). It panics if i is not in
// 0…Len()-1.
func (d *Dataset) OriginalLabel(i int) int {
	d.mu.RLock()
	defer d.mu.RUnlock()
	d.mustExist(i, "OriginalLabel")
	if i >= len(d.opened) {
		return sample.NoLabel
	}
	return int(d.opened[i])
}

// State describes one sample for display and filtering. Edited, Added and Original compare with
// the files as they were opened: a save keeps them (see Dataset.opened), until the pair is
// closed.
type State struct {
	Label, Original int  // current label and its label when the files were opened (sample.NoLabel when none)
	Edited          bool // a sample of the files as opened whose label differs from its label then
	Added           bool // appended since the files were opened (saved or not)
	Deleted         bool // marked deleted; removed by the next save
	Unsaved         bool // not in the files as they are now (read or last saved), or with another label there
	Reviewed        bool // a person decided its label in a review (Decide) since the files were opened
}

// State returns sample i's state. It panics if i is not in 0…Len()-1.
func (d *Dataset) State(i int) State {
	d.mu.RLock()
	defer d.mu.RUnlock()
	d.mustExist(i, "State")
	return d.stateLocked(i)
}

// StateAt is State for readers that may race with an edit: ok is false when sample i does not
// exist now.
func (d *Dataset) StateAt(i int) (s State, ok bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if i < 0 || i >= len(d.labels) {
		return State{}, false
	}
	return d.stateLocked(i), true
}

func (d *Dataset) stateLocked(i int) State {
	s := State{Label: int(d.labels[i]), Original: sample.NoLabel, Deleted: d.deleted[i], Added: i >= len(d.opened), Reviewed: d.reviewed[i]}
	s.Unsaved = i >= d.baseN || d.labels[i] != d.orig[i]
	if !s.Added {
		s.Original = int(d.opened[i])
		s.Edited = s.Label != s.Original
	}
	return s
}

// Notices returns messages from Open the user should see (a finished interrupted save, an
// unreadable class-name file), oldest first.
func (d *Dataset) Notices() []string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return slices.Clone(d.notices)
}

// Dirty reports whether the dataset has edits not yet saved: the undo history is not at the
// step the files hold (undoing after a save makes it dirty, redoing back makes it clean), or
// class names set (SetClassNames) and not yet written.
func (d *Dataset) Dirty() bool {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return len(d.undo) != d.clean || d.namesEdited
}

// Close ends the editing session: it closes the journal file and releases the pair's lock, so
// another window or process may open the pair for editing. The journal itself stays on disk
// while edits are unsaved, so they can be recovered; Close does not save. After Close the
// dataset can still be read, but edits and saves fail with ErrClosed. Closing twice is harmless.
// A save in progress is waited for first (its renames and its change of lock happen while the
// pair is still locked; the window never closes during one). Errors: closing the journal or
// unlocking failed.
func (d *Dataset) Close() error {
	d.mu.Lock()
	for d.saving {
		end := d.saveEnd
		d.mu.Unlock()
		<-end
		d.mu.Lock()
	}
	defer d.mu.Unlock()
	d.closed = true
	var err error
	if d.journal != nil {
		err = d.journal.Close()
		d.journal = nil
	}
	if lerr := d.locks.release(); err == nil {
		err = lerr
	}
	d.locks = nil
	return err
}
