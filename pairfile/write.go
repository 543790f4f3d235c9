package pairfile

import (
	"bytes"
	"context"
	"fmt"
	"io"

	"idxlabel/idx"
	"idxlabel/internal/yield"
)

// WritePair writes an image array and a label array (labels may be nil: images only) to their
// paths as one operation (Write): temporary files, fsync, decoded back and compared, then
// renamed with a save record so that a crash between the renames is finished when the pair is
// next opened. On any failure the targets keep their old content and the accepted marks beside
// them; once both are in place those marks are removed (Replaced). A ".gz" name is written
// gzip. Both paths must be outputs of c not written yet; the claim's locks are held
// throughout. Errors: ErrNotClaimed, and any write, verify or rename error.
func (c *Claim) WritePair(imagesPath, labelsPath string, images, labels *idx.Array) error {
	files := []File{{Path: imagesPath, Data: images}}
	if labels != nil {
		files = append(files, File{Path: labelsPath, Data: labels})
	}
	return c.Write(context.Background(), files, nil)
}

// Write writes a pair under c as one operation (Write): files are the image file and, when
// there is one, the label file, in that order, both outputs of c not written yet; the save
// record goes beside the label file (RecordPath). When ctx is cancelled before the files are put
// in place, nothing is replaced. Once every file is in place the accepted marks beside them are
// removed (Replaced); on an error they stay as they were. Errors: ErrNotClaimed, more than two
// files, and those of Write.
func (c *Claim) Write(ctx context.Context, files []File, progress func(float64)) error {
	if len(files) == 0 || len(files) > 2 {
		return fmt.Errorf("a pair is one or two files, not %d", len(files))
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	if err := c.take(paths...); err != nil {
		return err
	}
	labels := ""
	if len(files) == 2 {
		labels = files[1].Path
	}
	if err := Write(ctx, files, RecordPath(files[0].Path, labels), nil, nil, progress); err != nil {
		return err
	}
	c.Replaced(paths...)
	return nil
}

// CommitPair puts the written files of one pair in place as one operation, as WritePair does:
// images and labels are IDX files already written in full to temporary names beside their
// targets (idx.CreateFunc, idx.WritePending), and are renamed over imagesPath and labelsPath
// with a save record, so that a crash between the renames is finished when the pair is next
// opened for editing (FinishInterrupted). It is
// for a writer that streams a pair too large to hold (a command-line merge or split). Both
// targets must be outputs of c not written yet; the claim's locks are held throughout. Once both
// are in place the accepted marks beside them are removed (Replaced). On any failure the
// targets keep their old content (and their marks) and the temporary files are removed. Errors:
// ErrNotClaimed (the temporary files removed), a rename or save-record error naming the target.
func (c *Claim) CommitPair(imagesPath, labelsPath string, images, labels *idx.Pending) error {
	if err := c.take(imagesPath, labelsPath); err != nil {
		images.Abort()
		labels.Abort()
		return err
	}
	if err := commitAll([]*idx.Pending{images, labels}, []bool{false, false}, RecordPath(imagesPath, labelsPath), nil, nil); err != nil {
		return err
	}
	c.Replaced(imagesPath, labelsPath)
	return nil
}

// WritePair writes a pair as Claim.WritePair does, replacing what is there, under a claim of
// its own: ClaimOutputs of the two paths with force (nothing is an input), released when it is
// done. It is for programs that make a pair to a path they chose (a benchmark's generator, a
// test). Errors: those of ClaimOutputs (a *LockedError when a pair either file belongs to is
// open for editing elsewhere, an *UnsavedEditsError when its journal holds unsaved edits) and
// of Claim.WritePair.
func WritePair(imagesPath, labelsPath string, images, labels *idx.Array) error {
	outputs := []string{imagesPath}
	if labels != nil {
		outputs = append(outputs, labelsPath)
	}
	c, err := ClaimOutputs(nil, outputs, true, nil)
	if err != nil {
		return err
	}
	defer c.Release()
	return c.WritePair(imagesPath, labelsPath, images, labels)
}

// File is one file of a paired write: its path and what to write there (an array, or rows of a
// dataset's buffers: any idx.Source).
type File struct {
	Path string
	Data idx.Source
	// Create: no file was at Path when the save began, so none may be replaced when it ends
	// (one made meanwhile by another program stays, and the write fails).
	Create bool
}

// Write writes files as one operation, the paired atomic commit: each to a temporary name
// beside its target (a ".gz" name gzip), fsynced, decoded back and compared with what was meant
// a MiB at a time (no second copy of the data), then all renamed over their targets with the
// save record at record (RecordPath) so that a crash between the renames is finished when the
// pair is next opened (FinishInterrupted). journals are the journals the write makes obsolete,
// removed once every file is in place. rows (may be nil) are appended to their change log once
// every file is in place, kept on disk from before the first rename so that a crash anywhere
// neither loses them nor appends them for a write that did not happen (commitAll); when they
// could not be, rows.Err says why and the write is not failed for it (rows whose append failed
// are held beside record for the next opening: holdRows). With no files it writes nothing but
// the rows. On any failure (a failed rename undoes the renames made: undoCommit), or when
// ctx is cancelled before the renames begin, the targets keep their old content and the
// temporary files are removed; once the renames have begun the write finishes whatever ctx says.
// progress (may be nil) is called with 0.1–0.95 as it goes. The caller holds the files' locks:
// a writer through its Claim (Claim.WritePair), a dataset saving its own pair through the locks
// it holds while open (Locks). Errors: ctx's, and any write, verify or rename error, naming
// the file.
func Write(ctx context.Context, files []File, record string, journals []string, rows *ChangeRows, progress func(float64)) error {
	if progress == nil {
		progress = func(float64) {}
	}
	if len(files) == 0 {
		if err := ctx.Err(); err != nil || rows == nil {
			return err
		}
		// Nothing to put in place: the rows go now (held for the next opening if they cannot).
		if err := AppendRows(rows); err != nil {
			rows.Err = holdRows(record, rows, false, err)
		} else {
			dropHeldWithin(record, rows)
		}
		return nil
	}
	var pending []*idx.Pending
	abort := func() {
		for _, p := range pending {
			p.Abort()
		}
	}
	for k, f := range files {
		p, err := idx.WriteSourceContext(ctx, f.Path, f.Data)
		if err != nil {
			abort()
			return err
		}
		pending = append(pending, p)
		progress(0.1 + 0.5*float64(k+1)/float64(len(files)))
	}
	for k, p := range pending {
		if err := ctx.Err(); err != nil {
			abort()
			return err
		}
		if err := verify(p.Temp, files[k].Data); err != nil {
			abort()
			return fmt.Errorf("%s: the file written did not read back as written, nothing was replaced: %w", files[k].Path, err)
		}
	}
	if err := ctx.Err(); err != nil {
		abort()
		return err
	}
	progress(0.8)
	creates := make([]bool, len(files))
	for k, f := range files {
		creates[k] = f.Create
	}
	if err := commitAll(pending, creates, record, journals, rows); err != nil {
		return err
	}
	progress(0.95)
	return nil
}

// verify decodes the file at path as a stream and compares it with want, a MiB at a time, so
// it holds no second copy of the data (idx.FileReader also checks that nothing follows it).
func verify(path string, want idx.Source) error {
	f, err := idx.OpenFile(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := want.SourceHeader()
	differs := fmt.Errorf("decoded %s differs from the %s written", f.Header, h)
	if f.Header.String() != h.String() {
		return differs
	}
	c := &compareWriter{r: f, buf: make([]byte, 1<<20), differs: differs}
	if err := want.WriteData(c); err != nil {
		return err
	}
	if n, err := f.Read(c.buf[:1]); n > 0 {
		return differs
	} else if err != io.EOF {
		return err
	}
	return nil
}

// compareWriter compares the bytes written to it with those read from r, a buffer at a time,
// failing with differs at the first difference or when r ends first.
type compareWriter struct {
	r       io.Reader
	buf     []byte
	differs error
	y       yield.Yielder
}

func (c *compareWriter) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n := min(len(p)-done, len(c.buf))
		if _, err := io.ReadFull(c.r, c.buf[:n]); err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return done, c.differs
			}
			return done, err
		}
		if !bytes.Equal(c.buf[:n], p[done:done+n]) {
			return done, c.differs
		}
		done += n
		c.y.Add(n)
	}
	return done, nil
}
