package store

import (
	"errors"
	"fmt"
	"slices"

	"idxlabel/idx"
	"idxlabel/pairfile"
	"idxlabel/pairfile/journal"
)

// Open reads an image file and, unless labelsPath is "", its label file, as a pair. Images are
// N×H×W (or N×(H·W), N×H×W×1) of any IDX dtype; labels are 1-D integers, or N×K integers with the
// class in column 0 (QMNIST's N×8 int32). The paths are kept absolute and cleaned, so nothing
// depends on the working directory afterwards. It first takes the pair's lock for editing,
// held by this Dataset until Close (see pairfile.LockSuffix). Before reading, it finishes a save of this
// pair that was cut off between its renames (Notices says so; a save record that is damaged or
// names files that are not this pair's is moved aside unused, and Notices says that too) and
// removes stale temporary files of earlier saves; after reading, it looks for a journal of
// unsaved edits (Recovery). With opts.ReadOnly it does none of that: no lock is taken, nothing
// on disk is created, changed or removed, an interrupted save is shown as saved without being
// finished, and edits fail with ErrReadOnly. Errors: a *LockedError (errors.Is ErrLocked) when
// another process or Dataset has the pair open for editing, the idx errors of either file
// (naming it), a label file that is not integer or not 1-D/2-D, counts that differ (naming both
// files and counts), or a rename that fails while finishing an interrupted save.
func Open(imagesPath, labelsPath string, opts Options) (*Dataset, error) {
	return open(imagesPath, labelsPath, opts, false)
}

// open is Open; with judging (opts.ReadOnly too), the pair is opened only to judge a journal of
// it (JournalChangesNothing): the images are streamed, their header and CRC-32C kept and none of
// their data (streamImages; every sample's pixels are then missing), and the sources file, which
// no judgement reads, is not read.
func open(imagesPath, labelsPath string, opts Options, judging bool) (_ *Dataset, err error) {
	imagesPath = pairfile.Abs(imagesPath)
	if labelsPath != "" {
		labelsPath = pairfile.Abs(labelsPath)
	}
	d := &Dataset{imagesPath: imagesPath, labelsPath: labelsPath, readOnly: opts.ReadOnly, model: model{subs: map[int]func(Change){}}}
	readImages, readLabels := imagesPath, labelsPath
	if opts.ReadOnly {
		var note string
		readImages, readLabels, note = pairfile.ReadView(imagesPath, labelsPath)
		if note != "" {
			d.notices = append(d.notices, note)
		}
	} else {
		var notes []string
		if d.locks, notes, err = pairfile.LockPair(imagesPath, labelsPath); err != nil {
			return nil, err
		}
		d.notices = append(d.notices, notes...)
		defer func() {
			if err != nil {
				d.locks.Release()
			}
		}()
		note, err := pairfile.FinishInterrupted(imagesPath, labelsPath)
		if err != nil {
			return nil, err
		}
		if note != "" {
			d.notices = append(d.notices, note)
		}
		d.stamps = pairfile.TakeStamps(imagesPath, labelsPath) // a read-only dataset never saves
	}
	var images *idx.Array
	if judging {
		var crc uint32
		if images, crc, err = streamImages(readImages); err != nil {
			return nil, err
		}
		d.streamedCRC = &crc
	} else if images, err = idx.ReadFileLimit(readImages, idx.MaxData()); err != nil {
		return nil, err
	}
	var labels *idx.Array
	if labelsPath != "" {
		if labels, err = idx.ReadFileLimit(readLabels, idx.MaxData()); err != nil {
			return nil, err
		}
	}
	if err := d.setBase(d.imagesPath, d.labelsPath, images, labels, opts.Height, opts.Width, opts.Transposed); err != nil {
		return nil, err
	}
	if labelsPath != "" {
		names, p, err := pairfile.FindClassNames(labelsPath)
		if err != nil {
			d.notices = append(d.notices, err.Error())
		}
		d.names, d.namesPath = names, p
	}
	// Where the samples came from (pairfile.SourcesFile): a file that does not fit them is left
	// out, said. Nothing in a journal's judgement uses it.
	if !judging {
		if sources, err := pairfile.ReadSources(pairfile.SourcesFile(d.imagesPath, d.labelsPath), d.baseN); err != nil {
			d.notices = append(d.notices, err.Error())
		} else if pairfile.HasSources(sources) {
			d.sources = sources
		}
	}
	// Which labels are accepted suggestions, which samples were reviewed: a file that does not fit the pair is left out, said.
	d.readMarks(labels)
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
// files until SaveAsContext; edits are journaled to journalPath. Errors: as for Open (shapes, counts).
func FromArrays(images, labels *idx.Array, names map[int]string, journalPath string, opts Options) (*Dataset, error) {
	d := &Dataset{sessionJournal: sessionJournal{journalPath: journalPath}, model: model{names: names, subs: map[int]func(Change){}}}
	if err := d.setBase(d.imagesPath, d.labelsPath, images, labels, opts.Height, opts.Width, opts.Transposed); err != nil {
		return nil, err
	}
	return d, nil
}

// New returns an empty dataset of height×width samples (28×28 for MNIST) with ubyte images and
// labels, declared classes (0–9 when classes is nil) and optional class names. It has no files
// until SaveAsContext; its journal is written to journalPath (a per-user folder the caller chooses) so
// unsaved work survives a crash, and OpenJournal restores it. A journalPath is locked
// (pairfile.LockJournal) until Close or the first save, so no other window or process restores or
// writes it meanwhile. Errors: a size below 1 pixel or above pairfile.MaxSide; journalPath held
// by another window or process (a *pairfile.LockedError, errors.Is pairfile.ErrLocked) or its
// lock file not created.
func New(height, width int, classes []int, names map[int]string, journalPath string) (*Dataset, error) {
	if height < 1 || width < 1 || height > pairfile.MaxSide || width > pairfile.MaxSide {
		return nil, fmt.Errorf("sample size %d×%d: height and width must be 1–%d pixels", height, width, pairfile.MaxSide)
	}
	if classes == nil {
		classes = defaultClasses()
	}
	d := &Dataset{model: model{
		h: height, w: width,
		imageHeader: idx.Header{Type: idx.UByte, Dims: []int{0, height, width}},
		labelHeader: idx.Header{Type: idx.UByte, Dims: []int{0}},
		ownLabels:   true,
		vmap:        valueMap{identity: true, lo: 0, hi: 255},
		declared:    slices.Sorted(slices.Values(classes)),
		names:       names,
		subs:        map[int]func(Change){},
	}}
	if journalPath != "" {
		locks, err := pairfile.LockJournal(journalPath)
		if err != nil {
			return nil, err // it names the journal
		}
		d.locks = locks
	}
	d.journalPath = journalPath
	return d, nil
}

// OpenJournal restores a new dataset (one made with New and never saved) from its journal: the
// size and classes from the base record, then every intact edit. The dataset holds the journal's
// lock (New). Errors: the file cannot be read, is not a journal, or journals edits to files
// (open those files instead); the journal is held by another window or process (errors.Is
// pairfile.ErrLocked: it is that window's, being written).
func OpenJournal(path string) (*Dataset, error) {
	c, err := journal.Read(path, idx.MaxData())
	if err != nil {
		return nil, err
	}
	nb, err := parseNewBase(c.Base)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d, err := New(nb.h, nb.w, nb.declared, nb.names, path)
	if errors.Is(err, pairfile.ErrLocked) {
		return nil, err // it names the journal
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d.recovery = &Recovery{Path: path, Edits: len(c.Records), Damaged: c.Damaged, Matches: true, contents: c}
	if _, err := d.ReplayJournal(); err != nil {
		d.mu.Lock()
		if d.journal != nil {
			d.journal.Close() // left where it is, to be offered again
			d.journal = nil
		}
		d.closed = true
		d.locks.Release()
		d.locks = nil
		d.mu.Unlock()
		return nil, err
	}
	return d, nil
}
