package store

import (
	"fmt"
	"hash/crc32"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// Transpose says whether samples are stored transposed (EMNIST stores every image transposed).
type Transpose int

const (
	TransposeAuto Transpose = iota // transposed when the image file's name contains "emnist"
	TransposeNo                    // stored as displayed
	TransposeYes                   // stored transposed: display shows the transpose
)

// model is the samples a person edits and what their edits do to them, in memory: the base
// read from the files (or given), the current labels, deletion marks, review marks and
// appended samples, the class names, the undo and redo stacks, the counts kept up to date
// (tally) and the subscribers told of each change. It writes no file and keeps no journal: the
// session around it (Dataset) journals each step before handing it to the model to apply
// (perform, performStep), and saves, recovers and locks. Its steps (actions) know their own
// journal encoding (records.go, history.go), so the model can be rebuilt from a journal's
// bytes, but it never reads or writes the journal file.
//
// mu guards every field of the model and of the Dataset that embeds it (but for what has a lock
// of its own: the tally's first count, the change log file's appends): one lock for both, so
// that a step's journal record and its application happen under one critical section. The
// exported methods take mu themselves and are safe for concurrent use; the unexported ones run
// with mu held, as each says.
type model struct {
	mu sync.RWMutex

	h, w       int
	transposed bool

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

	// streamedCRC, when not nil, is the CRC-32C of the base's image data, which was streamed
	// and not kept (a pair opened only to judge a journal: open's judging): imageData, pixels and
	// baseRows are nil then, and imageCRC answers it.
	streamedCRC *uint32

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
	reviewed []bool // decided in a review (Decide); kept through a save, renumbered, and beside the label file (accepted.go)
	// accepted: the sample's label is an accepted suggestion (a pseudo-label: the last step that
	// set it was made as HowSuggestedAccepted), not one a person gave (accepted.go).
	accepted []bool
	added    []byte // (Len()-baseN)×H×W display pixels of appended samples; bytes handed out are never written again (see appendSamples.revert)
	// sources: where each sample came from (Source), one a sample when any has one, nil when
	// none has: read from the pair's sources file, given to Append, renumbered by a save.
	sources []string

	declared []int          // classes of a new dataset, or those present when the files were read (0–9 for an empty label file)
	names    map[int]string // class names (EMNIST mapping, classes.txt, or given)
	// namesEdited: SetClassNames changed the names since the last save (classnames.go).
	namesEdited bool

	undo, redo []action
	// clean is the depth of the undo stack at which the samples are as the files hold them
	// (0 when opened, len(undo) after a save); -1 when that state can no longer be reached
	// (an edit replaced the redo steps leading to it). See Dirty.
	clean int
	gen   uint64 // see Gen

	subs    map[int]func(Change)
	nextSub int
	tally   tally // counts kept up to date as edits happen (tally.go)
}

// action is one step on the undo or redo stack. apply and revert run with m.mu held; remap
// carries it through a save (carry.go) and history encodes it for the journal begun after one
// (history.go).
type action interface {
	apply(m *model) Change
	revert(m *model) Change
	String() string
	remap(r renumbering, applied bool) action
	history(e enc) enc
	// kind is the type of the journal record of an edit like it (a saved append's is an
	// append's): the Hows that describe it are that type's (checkHow).
	kind() byte
	// named returns the sample numbers it names (stepFits checks them against the samples).
	named() []int32
	// labelsSet returns every label it sets or restores when done or undone (sample.NoLabel
	// among them when it restores the lack of a label): a new label file's dtype must hold them.
	labelsSet() []int32
	// logEvents adds to ev the change log events it makes on the samples as they are now:
	// applied, or, when inverse, just reverted by an undo (changelog.go).
	logEvents(m *model, ev eventSink, inverse bool)
	// undoneStays reports whether undoing it keeps its samples, marked deleted (a saved
	// append's): the change log then adds its undoing even when it holds the step.
	undoneStays() bool
	// appends returns how many samples it appends at the end when done (an unsaved append's).
	appends() int
	// reviews returns the samples it marks reviewed while it is done (a review decision's).
	reviews() []int32
}

// edit is an action a person makes (not one a save turned into another): record is its journal
// payload (records.go).
type edit interface {
	action
	record() []byte
}

// eventSink is what a step tells the change log of what it did (action.logEvents): each call
// one sample, numbered as the model numbers it now (changelog.go gathers them).
type eventSink interface {
	label(i int, from, to int32)           // the step changes sample i's label from → to (to → from when undone)
	add(i int, label int32, source string) // sample i is added with label, from source ("" for none)
	remove(i int, label int32)             // sample i, of label, is deleted, or its addition undone
	restore(i int)                         // sample i's deletion is cancelled
}

// tally keeps the figures a window shows after every key (Counters, Counts and the classes
// present) up to date as edits happen, so that reading them costs the same on 300 samples as on
// 1,000,000: an edit of k samples updates it in O(k), a read costs O(classes).
//
// It is filled from the samples on its first read (O(N)), and again after a change it does not
// follow sample by sample (a save's or a replay's Reset). It remembers the label and the deleted
// mark it counted for each sample (5 bytes a sample), so that a change, which model.changed
// hands it after the samples have changed, can take back what each changed sample counted
// before. Writes come from changed, with m.mu held for writing; reads hold m.mu for reading, and
// a read that fills it must not race with another read, hence its own mutex.
type tally struct {
	mu    sync.Mutex
	valid bool
	label []int32 // the label counted for each sample
	del   []bool  // whether it was counted as deleted
	live  map[int32]int
	all   map[int32]int // by label, deleted samples included: the classes present
	// Samples marked deleted; samples of the files as opened whose label differs from it
	// (State.Edited); samples of the files as last saved whose label differs (Relabelled).
	deleted, edited, relabelled int
	net                         netMemo // differsFromFiles' look at the steps, for one generation
}

// setBase makes images and labels (nil: unlabelled) the model's base, checking their shapes
// (height and width as Options has them); imagesPath and labelsPath name them in errors ("" for
// arrays not read from files), and an image file whose name says EMNIST is taken as transposed
// when transpose is TransposeAuto.
func (m *model) setBase(imagesPath, labelsPath string, images, labels *idx.Array, height, width int, transpose Transpose) error {
	s, err := pairfile.CheckPair(imagesPath, images, labelsPath, labels, height, width)
	if err != nil {
		return err
	}
	m.h, m.w = s.H, s.W
	m.baseN = images.Dims[0]
	m.imageHeader = images.Header
	m.imageData = images.Data
	m.vmap = newValueMap(images)
	m.pixels = m.vmap.displayPixels(images)
	switch transpose {
	case TransposeYes:
		m.transposed = true
	case TransposeAuto:
		m.transposed = strings.Contains(strings.ToLower(filepath.Base(imagesPath)), "emnist")
	}
	m.orig = make([]int32, m.baseN)
	if labels == nil {
		for i := range m.orig {
			m.orig[i] = sample.NoLabel
		}
	} else if err := m.checkLabels(labels); err != nil {
		return err
	}
	m.ownLabels = labels == nil || labels.Rank() == 1 && slices.Contains(m.orig, sample.NoLabel)
	m.labels = slices.Clone(m.orig)
	m.opened = slices.Clone(m.orig)
	m.deleted = make([]bool, m.baseN)
	m.reviewed = make([]bool, m.baseN)
	m.accepted = make([]bool, m.baseN)
	m.declared = m.presentClasses()
	if labels != nil && m.baseN == 0 {
		m.declared = defaultClasses() // an empty label file: the classes of a new dataset
	}
	return nil
}

// defaultClasses returns the classes of a dataset that names none: MNIST's digits 0–9.
func defaultClasses() []int { return []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9} }

// presentClasses returns the distinct labels of the samples, sorted (sample.NoLabel left out). Open
// declares them, so a class keeps its place in the histogram when its last sample is relabelled.
func (m *model) presentClasses() []int {
	var small [256]bool
	set := map[int]bool{}
	for _, l := range m.labels {
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
func (m *model) checkLabels(labels *idx.Array) error {
	m.labelHeader, m.labelData = labels.Header, labels.Data
	stride := labels.Stride()
	for i := range m.orig {
		m.orig[i] = int32(labels.Int(i * stride))
	}
	return nil
}

// Len returns the number of samples, deleted ones included: base then appended.
func (m *model) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.labels)
}

// Size returns the height and width of every sample in pixels (as displayed).
func (m *model) Size() (height, width int) {
	if m.transposed {
		return m.w, m.h
	}
	return m.h, m.w
}

// Transposed reports whether samples are stored transposed (EMNIST): a viewer shows the
// transpose of Pixels.
func (m *model) Transposed() bool { return m.transposed }

// HasLabels reports whether the dataset has a label file (or, for a new dataset, labels). A save
// of images opened alone with a new label file gives it one.
func (m *model) HasLabels() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.hasLabels()
}

// hasLabels is HasLabels with m.mu held.
func (m *model) hasLabels() bool { return m.labelHeader.Type != 0 }

// Reading a sample that does not exist is a programming error: Pixels, Label, OriginalLabel and
// State panic with a message naming the index and Len, never returning stale data. A reader
// whose index may have been taken before an edit removed samples (an undone append, a save)
// uses the checked forms PixelsAt and StateAt, which say whether the sample exists.

// Pixels returns sample i's H·W display pixels (0 = background, 255 = ink) in stored order:
// row-major, or column-major when Transposed. It is a view into the dataset's buffer, not a copy;
// it must not be modified and stays valid (unchanged) for as long as the caller holds it, through
// any later edit, undo or save. It panics if i is not in 0…Len()-1.
func (m *model) Pixels(i int) []byte {
	m.mu.RLock()
	defer m.mu.RUnlock()
	m.mustExist(i, "Pixels")
	return m.pixelsLocked(i)
}

// PixelsAt is Pixels for readers that may race with an edit: ok is false (and px nil) when
// sample i does not exist now.
func (m *model) PixelsAt(i int) (px []byte, ok bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if i < 0 || i >= len(m.labels) {
		return nil, false
	}
	return m.pixelsLocked(i), true
}

// mustExist panics unless sample i exists (m.mu held).
func (m *model) mustExist(i int, method string) {
	if i < 0 || i >= len(m.labels) {
		panic(fmt.Sprintf("store: %s(%d): no such sample, the dataset has %d (use the checked forms PixelsAt, StateAt when the length may have changed)", method, i, len(m.labels)))
	}
}

// pixelsLocked returns sample i's pixels; i exists (m.mu held).
func (m *model) pixelsLocked(i int) []byte {
	n := m.h * m.w
	switch {
	case i >= m.baseN:
	case m.baseRows != nil:
		return m.baseRows.pixels(i) // a save's rows (baseimages.go)
	default:
		return m.pixels[i*n : (i+1)*n : (i+1)*n]
	}
	j := i - m.baseN
	return m.added[j*n : (j+1)*n : (j+1)*n]
}

// Label returns sample i's current label, sample.NoLabel when it has none. It panics if i is not in
// 0…Len()-1.
func (m *model) Label(i int) int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	m.mustExist(i, "Label")
	return int(m.labels[i])
}

// Source returns where sample i came from: the file it was imported from, a slash-separated path
// relative to the folder imported, as Append was given it or the pair's sources file gives it
// (pairfile.SourcesFile), cleaned for display (pairfile.CleanSource); "" when it has none (a
// drawn sample, a sample of files without a sources file). It panics if i is not in 0…Len()-1.
func (m *model) Source(i int) string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	m.mustExist(i, "Source")
	return m.sourceOf(i)
}

// sourceOf is Source with m.mu held, for an i that exists.
func (m *model) sourceOf(i int) string {
	if m.sources == nil {
		return ""
	}
	return m.sources[i]
}

// OriginalLabel returns sample i's label when the files were opened, whatever saves happened
// since (sample.NoLabel for samples added since and for unlabelled files). It panics if i is not in
// 0…Len()-1.
func (m *model) OriginalLabel(i int) int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	m.mustExist(i, "OriginalLabel")
	if i >= len(m.opened) {
		return sample.NoLabel
	}
	return int(m.opened[i])
}

// Dirty reports whether the dataset has edits not yet saved: the samples differ from the files
// (a label, a deletion, a sample added, an accepted suggestion's or a review's mark) while the
// undo history is away from the step the files hold (undoing after a save makes it dirty,
// redoing back makes it clean), or class names were set (SetClassNames) and not yet written.
// Edits that cancel out (an edit typed back) leave it false (differsFromFiles). O(1) a call
// but after a step that leaves no sample differing (netclean.go).
func (m *model) Dirty() bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.differsFromFiles()
}

// base returns the base's images as a baseImages (m.mu held): m.baseRows, or a view of
// imageData and pixels as one segment in order.
func (m *model) base() *baseImages {
	if m.baseRows != nil {
		return m.baseRows
	}
	b := &baseImages{header: m.imageHeader, rawSize: m.h * m.w * m.imageHeader.Type.Size(), pxSize: m.h * m.w}
	b.segs = []imageSeg{{raw: m.imageData, px: m.pixels, n: m.baseN}}
	b.rows = make([]uint32, m.baseN)
	for k := range b.rows {
		b.rows[k] = uint32(k)
	}
	return b
}

// baseView returns a function giving base sample i's display pixels as the base is now (m.mu
// held): it stays right after a save has made another base, for it holds this one's buffers.
func (m *model) baseView() func(i int) []byte {
	if b := m.baseRows; b != nil {
		return b.pixels
	}
	px, n := m.pixels, m.h*m.w
	return func(i int) []byte { return px[i*n : (i+1)*n : (i+1)*n] }
}

// imageCRC returns the CRC-32C of the base's raw image data in order (m.mu held).
func (m *model) imageCRC() uint32 {
	if m.streamedCRC != nil {
		return *m.streamedCRC
	}
	if m.baseRows != nil {
		return m.baseRows.crc()
	}
	return crc32.Checksum(m.imageData, castagnoli)
}

// setBaseImages makes b the base's images (m.mu held): as imageData and pixels when it is one
// segment's rows in order (as Open makes them), otherwise as baseRows.
func (m *model) setBaseImages(b *baseImages) {
	m.baseN, m.imageHeader = b.Len(), b.header
	if s := b.segs; len(s) == 1 && b.isSpan(s[0].n) {
		m.imageData, m.pixels, m.baseRows = s[0].raw, s[0].px, nil
		return
	}
	if len(b.segs) == 0 { // no sample
		m.imageData, m.pixels, m.baseRows = nil, nil, nil
		return
	}
	m.imageData, m.pixels, m.baseRows = nil, nil, b
}
