package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
	"idxlabel/sample"
)

// Save writes the dataset over the files it was opened from (or last saved to); see
// SaveAsContext. It
// first checks that those files are as the dataset read or last wrote them and refuses to
// overwrite changes another program made. Errors: ErrNoPath for a new dataset,
// pairfile.ErrChangedOnDisk (naming the file and what changed), and those of SaveAsContext.
func (d *Dataset) Save(progress func(fraction float64)) error {
	return d.save(context.Background(), "", "", true, progress)
}

// SaveContext is Save, stopped when ctx is cancelled before the files are put in place (see
// SaveAsContext).
func (d *Dataset) SaveContext(ctx context.Context, progress func(fraction float64)) error {
	return d.save(ctx, "", "", true, progress)
}

// SaveAsContext writes the dataset to imagesPath and labelsPath together: deleted samples left
// out, appended samples at the end, labels as edited (every sample deleted: an empty pair,
// N = 0). Images are written in the dtype and shape they were read in (ubyte stays ubyte; other
// dtypes keep their original values, and appended samples are mapped back from display pixels);
// labels in their dtype and columns (QMNIST's other columns kept; appended rows hold zeros
// there). A name ending in ".gz" is written gzip.
//
// Only what changed is written. The image file is left alone (its bytes, inode and links) when
// it is the dataset's own and no sample was appended or deleted: a save that changed only labels
// writes the label file alone. Labels typed on images opened alone get a label file: labelsPath
// when given, otherwise pairfile.LabelsFileFor(imagesPath); samples not labelled yet are stored
// as sample.NoLabel in an int32 file (buildLabels). LastSave says what was written.
//
// Each file written goes to a temporary name in its target's folder, is fsynced, decoded back and
// compared with what was meant, and only then renamed over the target, with a save record on
// disk so that a crash between the renames is finished by the next Open (pairfile.Write). On any
// failure the targets keep their old content and the temporary files are removed. On success the
// dataset is the saved files: samples renumbered, the journal started over against them, and the
// undo history kept, renumbered (carry.go: a saved deletion can no longer be undone, a saved
// append is undone by marking its samples deleted). What changed since the files were opened
// stays visible (State). progress (may be nil) is called with 0–1 as it goes.
//
// When ctx is cancelled while the files are written or verified, the temporary files are
// removed, the targets and the dataset stay as they were (its edits unsaved, the journal kept)
// and ctx's error is returned. Once the renames have begun the save finishes whatever ctx says,
// since a pair half renamed is worse than a save that took longer than asked.
//
// Saving to other files than the dataset's takes the lock of the target pair first (see
// pairfile.LockSuffix) and, on success, keeps it and releases the old pair's.
// Errors: a sample without a label that the label file's dtype cannot store, the images and
// labels named as one file, ErrLabelsFileExists, a *pairfile.LockedError (errors.Is
// pairfile.ErrLocked) when the target pair is open for editing elsewhere, ErrClosed, ctx's, and
// any write, verify or rename error.
func (d *Dataset) SaveAsContext(ctx context.Context, imagesPath, labelsPath string, progress func(fraction float64)) error {
	return d.save(ctx, imagesPath, labelsPath, false, progress)
}

// save is Save (current: the dataset's own files, checked against their stamps) or
// SaveAsContext. It
// holds d.mu only at the start (startSave: the arrays to write are built under the read lock)
// and at the end (rebase): encoding, compression, fsync, verification and the renames run
// without it, so readers (a window's drawing) never wait for the disk. Edits in between fail
// with ErrSaving.
func (d *Dataset) save(ctx context.Context, imagesPath, labelsPath string, current bool, progress func(float64)) error {
	if progress == nil {
		progress = func(float64) {}
	}
	job, err := d.startSave(imagesPath, labelsPath, current)
	if err != nil {
		return err
	}
	progress(0.1)
	// The change log's rows are made before the files are written and appended once they are
	// in place (pairfile.Write keeps them beside its record meanwhile), so that a save cut off
	// anywhere leaves the log complete when the pair opens again.
	rows, rowsErr := changeRows(job.log)
	err = pairfile.Write(ctx, job.files, pairfile.RecordPath(job.imagesPath, job.labelsPath), job.journals, rows, progress)
	if err == nil && job.images != nil {
		job.images = job.images.settle() // a copy it makes is made before rebase takes the write lock
	}
	ch, err := d.finishSave(job, err)
	if err != nil {
		return err
	}
	pairfile.UnmarkUnsaved(job.oldImages, job.oldJournal) // the journal is gone: so is its mark
	d.keepClassNames()
	d.keepSources(job.sources)
	d.keepMarks()
	d.log.logged(job.log, rows, rowsErr) // a failure is ChangesFileError's, not the save's
	if err := d.settleEditedNames(); err != nil {
		return err
	}
	progress(1)
	d.notify(ch)
	return nil
}

// saveJob is a save between startSave and finishSave.
type saveJob struct {
	imagesPath, labelsPath string
	// images and labels are what to write; nil when that file is not written: images a save
	// leaves untouched (no sample added or deleted, and the same image file), labels of a
	// dataset without any. images are rows of the dataset's buffers (planImages), not a copy.
	images     *baseImages
	labels     *idx.Array
	journals   []string             // the journals the save makes obsolete
	oldImages  string               // the image file the dataset had (its unsaved-edits marker goes with the journal)
	oldJournal string               // reopened if the save fails
	oldSize    int64                // its intact records' length (journal.Journal.Size); -1: it was not open
	locks      pairfile.Locks       // the target pair's locks the dataset did not hold yet
	files      []pairfile.File      // the files the job writes, images first
	sources    []string             // the saved samples' sources (keepSources), set by finishSave
	written    []pairfile.SavedFile // what each of files replaces (LastSave)
	notes      []string             // for the person (LastSave)
	log        *logJob              // what the save appends to the change log (sessionLog.plan)
}

// startSave checks that the dataset can be saved, builds the arrays to write, takes the target
// pair's lock and closes the journal (Windows cannot remove an open file), and marks the
// dataset saving. Errors: ErrClosed, ErrReadOnly, ErrNoPath, ErrSaving, pairfile.ErrChangedOnDisk,
// ErrRecoveryPending, ErrLabelsFileExists, and a *LockedError.
//
// What to write (the kept samples' rows of the dataset's own buffers, no copy of the image
// data; the appended samples' raw data when the dtype is not ubyte; a new label array) is built
// under the read lock, with the dataset already marked saving so that no edit can change it
// meanwhile: a window's drawing and reading go on while it is built. The write lock is held only for the checks and for the lock and journal steps around
// that. A call that wants the write lock meanwhile (an edit, which then fails with ErrSaving)
// waits for the build, and so do reads that come after it (Go's RWMutex lets no new reader past
// a waiting writer); Close waits for the whole save. The window makes no such call while it
// saves.
func (d *Dataset) startSave(imagesPath, labelsPath string, current bool) (*saveJob, error) {
	imagesPath, labelsPath, err := d.claimSave(imagesPath, labelsPath, current)
	if err != nil {
		return nil, err
	}
	target := pairfile.Key(imagesPath, labelsPath)
	d.mu.RLock()
	images, labels, err := d.build(imagesPath, labelsPath)
	d.mu.RUnlock()
	d.mu.Lock()
	defer d.mu.Unlock()
	var locks pairfile.Locks
	if err == nil {
		locks, err = d.locks.Relock(imagesPath, labelsPath)
	}
	if err != nil {
		d.endSaving()
		return nil, err
	}
	job := &saveJob{imagesPath: imagesPath, labelsPath: labelsPath, images: images, labels: labels, locks: locks, oldSize: -1, oldImages: d.imagesPath}
	job.log = d.log.plan(&d.model, imagesPath, labelsPath)
	job.oldJournal = d.journalFile()
	if d.journal != nil {
		job.oldJournal, job.oldSize = d.journal.Path(), d.journal.Size()
		d.journal.Close()
		d.journal = nil
	}
	var files []pairfile.File
	if job.images != nil {
		files = append(files, pairfile.File{Path: job.imagesPath, Data: job.images})
	}
	if job.labels != nil {
		files = append(files, pairfile.File{Path: job.labelsPath, Data: job.labels})
	}
	for _, f := range files {
		w := pairfile.DescribeWrite(f.Path)
		f.Create = w.Created // nothing there now: the save must not replace a file made meanwhile
		job.files, job.written = append(job.files, f), append(job.written, w)
	}
	job.journals = []string{job.oldJournal}
	if tj := pairfile.JournalFile(imagesPath, labelsPath); !pairfile.SamePath(tj, job.oldJournal) {
		// The target's own journal was written by another session of the target pair (its lock is
		// ours now, so no one writes it): it holds edits this save did not make. Moved aside,
		// never deleted.
		if moved := keepAside(tj, "kept"); moved != "" {
			job.notes = append(job.notes, fmt.Sprintf("%s held edits of an earlier session of %s; it was kept as %s.", filepath.Base(tj), filepath.Base(target), moved))
		}
	}
	return job, nil
}

// claimSave checks that the dataset can be saved and marks it saving, so that edits fail with
// ErrSaving from now on; it returns the paths to save to (the dataset's own for Save). Errors:
// ErrClosed, ErrReadOnly, ErrSaving, ErrRecoveryPending, ErrNoPath, pairfile.ErrChangedOnDisk,
// and a label file whose accepted-marks file is one of the dataset's files.
func (d *Dataset) claimSave(imagesPath, labelsPath string, current bool) (string, string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.takesEdits(); err != nil {
		return "", "", err
	}
	switch {
	case current && d.imagesPath == "":
		return "", "", ErrNoPath
	case current:
		imagesPath, labelsPath = d.imagesPath, d.labelsPath
	}
	if labelsPath == "" && d.anyLabelled() {
		// Labels typed on images that had none: they get a label file of their own, named as
		// MNIST names its pairs, beside the images.
		labelsPath = pairfile.LabelsFileFor(imagesPath)
		if _, err := os.Lstat(labelsPath); err == nil {
			return "", "", fmt.Errorf("%s: %w", labelsPath, ErrLabelsFileExists)
		}
	}
	if pairfile.SamePath(imagesPath, labelsPath) {
		return "", "", fmt.Errorf("%s: the images and the labels cannot be saved to one file", imagesPath)
	}
	// The save writes the marks beside its label file (keepMarks): never over a file it reads.
	for _, s := range sideMarks(&d.model) {
		if m := s.kind.File(labelsPath); m != "" && (pairfile.SameFile(m, d.imagesPath) || pairfile.SameFile(m, d.labelsPath)) {
			return "", "", fmt.Errorf("%s: its marks file %s is a file of the dataset's pair, which the save would replace; save to another name", labelsPath, m)
		}
	}
	for _, p := range []string{imagesPath, labelsPath} {
		if n := len(filepath.Base(p)); n > MaxSaveName {
			return "", "", fmt.Errorf("%s: the name is %d bytes long, above the %d a save can use (its temporary, backup and record files beside it add to the name): %w", p, n, MaxSaveName, ErrNameTooLong)
		}
	}
	if current {
		if err := d.checkStamps(d.replaces(imagesPath, labelsPath)...); err != nil {
			return "", "", err
		}
	}
	d.saving, d.saveEnd = true, make(chan struct{})
	return imagesPath, labelsPath, nil
}

// MaxSaveName is the longest file name (bytes) a save writes: the files it makes beside its
// targets ("." + name + ".idxlabel-tmp-" and up to 12 digits, ".idxlabel-backup") must fit the
// 255 bytes most file systems allow for a name.
const MaxSaveName = 255 - len("..idxlabel-tmp-") - 12

// ErrNameTooLong: a file to save has a name longer than MaxSaveName.
var ErrNameTooLong = errors.New("file name too long to save")

// ErrLabelsFileExists: a save of labels typed on images opened alone found a file already at
// the name their label file gets (LabelsFileFor): a file the dataset did not open is never
// replaced by Save. SaveAsContext with a label file named by the caller is the way on.
var ErrLabelsFileExists = errors.New("a file of the name the new label file gets already exists")

// replaces returns which of the files a save to imagesPath and labelsPath writes (d.mu held):
// the image file only when it is another file or its samples changed (see build).
func (d *Dataset) replaces(imagesPath, labelsPath string) []string {
	var out []string
	if !d.imagesUnchanged() || !pairfile.SamePath(imagesPath, d.imagesPath) {
		out = append(out, imagesPath)
	}
	if labelsPath != "" {
		out = append(out, labelsPath)
	}
	return out
}

// endSaving marks the save in progress ended and wakes a Close waiting for it (d.mu held).
func (d *Dataset) endSaving() {
	d.saving = false
	close(d.saveEnd)
}

// finishSave ends a save whose writing returned werr: on success the saved arrays become the
// dataset's base (rebase) and the Change to announce is returned; on failure the journal is
// reopened, the target's lock released, and werr returned.
func (d *Dataset) finishSave(job *saveJob, werr error) (Change, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.endSaving()
	if werr != nil {
		// The journal goes on after its last intact record: torn bytes a damaged journal left
		// after it (journal.ErrDamaged) are cut off, not written after.
		if job.oldSize >= 0 {
			if j, jerr := journal.Reopen(job.oldJournal, job.oldSize); jerr == nil {
				d.journal = j
			}
		}
		job.locks.Release()
		return Change{}, werr
	}
	d.locks = d.locks.MoveTo(job.imagesPath, job.labelsPath, job.locks)
	renumber := d.renumber()
	d.log.save(&d.model, renumber, job.log.saved)
	var written []string
	for _, f := range job.files {
		written = append(written, f.Path)
	}
	d.stamps = d.restamp(job.imagesPath, job.labelsPath, written)
	d.lastSave = SaveReport{Files: job.written, Notes: job.notes}
	d.rebase(job.imagesPath, job.labelsPath, job.images, job.labels, renumber)
	job.sources = d.sources // rebase made it anew: no later edit writes into it
	return d.changed(Change{Kind: Reset, Renumber: renumber}), nil
}

// keepSources makes the saved pair's sources file (pairfile.SourcesFile) say where its samples
// came from: written when one of sources (the saved samples', in their order) has one, removed
// when none has, so that a file left by an earlier save never names the samples of another; a
// failure is a note in LastSave's (the pair itself is saved). It writes one line a sample.
func (d *Dataset) keepSources(sources []string) {
	d.mu.RLock()
	path := pairfile.SourcesFile(d.imagesPath, d.labelsPath)
	d.mu.RUnlock()
	var err error
	if sources != nil {
		err = pairfile.WriteSources(path, sources)
	} else {
		err = pairfile.RemoveSources(path)
	}
	if err != nil {
		d.mu.Lock()
		d.lastSave.Notes = append(d.lastSave.Notes, fmt.Sprintf("Where the samples came from could not be written beside %s (%v).", filepath.Base(path), err))
		d.mu.Unlock()
	}
}

// keepClassNames makes the saved pair find the dataset's class names when it is opened again
// (saveClassNames: after a Save As to another name or folder, or a new dataset's first save, the
// names are written beside the label file) and adds its note to LastSave's.
func (d *Dataset) keepClassNames() {
	d.mu.RLock()
	labels, names := d.labelsPath, d.names
	d.mu.RUnlock()
	file, note := pairfile.KeepClassNames(labels, names)
	d.mu.Lock()
	defer d.mu.Unlock()
	if file != "" {
		d.namesPath = file
	}
	if note != "" {
		d.lastSave.Notes = append(d.lastSave.Notes, note)
	}
}

// build assembles what a save to imagesPath and labelsPath writes (d.mu held, the read lock is
// enough): the kept samples' images (planImages: original values for base samples, display
// pixels mapped back for appended ones), nil when the save leaves the image file alone (the same
// file, no sample appended or deleted: see replaces), and their labels, nil when labelsPath is
// "". Errors: labels with no label file to hold them, and those of buildLabels.
func (d *Dataset) build(imagesPath, labelsPath string) (*baseImages, *idx.Array, error) {
	var kept []int
	for i, del := range d.deleted {
		if !del {
			kept = append(kept, i)
		}
	}
	var images *baseImages
	if !d.imagesUnchanged() || !pairfile.SamePath(imagesPath, d.imagesPath) {
		if rows := d.heldRows(); rows > math.MaxUint32 {
			return nil, nil, fmt.Errorf("the dataset holds %d samples' images, more than a save can number (2³²−1); nothing was saved", rows)
		}
		images = d.planImages(kept)
	}
	if labelsPath == "" {
		if d.anyLabelled() {
			return nil, nil, errors.New("this dataset has labels: choose a label file to save them to")
		}
		return images, nil, nil
	}
	labels, err := d.buildLabels(kept)
	return images, labels, err
}

// planImages returns the images of the samples kept (sample numbers, each once, in the order
// to write) as rows of the buffers the dataset holds (d.mu held): base samples as rows of the
// base's segments, appended ones as rows of d.added (ubyte: its bytes are never written again,
// see appendSamples.revert) or, for other dtypes, of a new segment holding their display pixels
// mapped back to the dtype's values (and those values' display pixels, as a reopening would
// show them). Memory: 4 bytes a sample, and that new segment; the base's data is not copied.
func (d *Dataset) planImages(kept []int) *baseImages {
	cur := d.base()
	dims := slices.Clone(d.imageHeader.Dims)
	dims[0] = len(kept)
	p := &baseImages{header: idx.Header{Type: d.imageHeader.Type, Dims: dims}, rawSize: cur.rawSize, pxSize: cur.pxSize}
	p.segs = slices.Clone(cur.segs)
	next := 0
	for _, seg := range cur.segs {
		next += seg.n
	}
	var appended []int
	for _, i := range kept {
		if i >= d.baseN {
			appended = append(appended, i)
		}
	}
	if len(appended) > 0 {
		if d.vmap.identity {
			p.segs = append(p.segs, imageSeg{raw: d.added, px: d.added, first: next, n: len(d.added) / p.pxSize})
		} else {
			hw := p.pxSize
			a := &idx.Array{Header: idx.Header{Type: d.imageHeader.Type, Dims: []int{len(appended), hw}}}
			a.Data = make([]byte, len(appended)*p.rawSize)
			for j, i := range appended {
				for x, px := range d.pixelsLocked(i) {
					a.SetFloat(j*hw+x, d.vmap.stored(px))
				}
			}
			p.segs = append(p.segs, imageSeg{raw: a.Data, px: d.vmap.displayPixels(a), first: next, n: len(appended)})
		}
	}
	p.rows = make([]uint32, len(kept))
	j := 0 // appended samples so far: the j-th is row j of the new segment (other dtypes)
	for k, i := range kept {
		switch {
		case i < d.baseN:
			p.rows[k] = cur.rows[i]
		case d.vmap.identity:
			p.rows[k] = uint32(next + i - d.baseN)
		default:
			p.rows[k] = uint32(next + j)
			j++
		}
	}
	return p
}

// heldRows returns the number of rows planImages counts (d.mu held): every row of the base's
// buffers, used or not, and the appended samples.
func (d *Dataset) heldRows() int {
	n := len(d.labels) - d.baseN
	if d.baseRows == nil {
		return n + d.baseN
	}
	for _, s := range d.baseRows.segs {
		n += s.n
	}
	return n
}

// rebase makes what a save wrote the dataset's base (d.mu held): renumber (see renumber) maps
// every sample to its number in it. images is nil when the save left the image file alone (the
// base's images stay as they are); otherwise its rows (settled by save: baseImages.settle)
// become the base's images without a copy. The review marks, the labels when the files were opened and
// the undo history follow their samples.
func (d *Dataset) rebase(imagesPath, labelsPath string, images *baseImages, labels *idx.Array, renumber []int) {
	d.imagesPath, d.labelsPath = imagesPath, labelsPath
	d.journalPath = ""
	if images != nil {
		d.setBaseImages(images)
	}
	n := d.baseN
	d.orig = make([]int32, n)
	if labels != nil {
		d.labelHeader, d.labelData = labels.Header, labels.Data
		stride := labels.Stride()
		for i := range d.orig {
			d.orig[i] = int32(labels.Int(i * stride))
		}
	} else {
		for i := range d.orig {
			d.orig[i] = sample.NoLabel
		}
	}
	d.labels = slices.Clone(d.orig)
	reviewed, accepted := make([]bool, n), make([]bool, n)
	var opened []int32
	for old, k := range renumber {
		if k >= 0 {
			reviewed[k] = d.reviewed[old] // a review's decisions outlive the save
			accepted[k] = d.accepted[old] // and so do the accepted suggestions
			if old < len(d.opened) {
				opened = append(opened, d.opened[old]) // they stay first, in order
			}
		}
	}
	d.carryHistory(newRenumbering(renumber))
	var sources []string // the kept samples' sources, in their new order
	if d.sources != nil {
		sources = make([]string, n)
		for old, k := range renumber {
			if k >= 0 {
				sources[k] = d.sources[old]
			}
		}
		if !pairfile.HasSources(sources) {
			sources = nil
		}
	}
	d.deleted = make([]bool, n)
	d.reviewed = reviewed
	d.accepted = accepted
	d.opened = opened
	d.added = nil
	d.sources = sources
}

// LastSave returns what the last successful save did (the zero SaveReport before any).
func (d *Dataset) LastSave() SaveReport {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return SaveReport{Files: slices.Clone(d.lastSave.Files), Notes: slices.Clone(d.lastSave.Notes)}
}
