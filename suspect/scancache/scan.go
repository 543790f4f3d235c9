package scancache

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"idxlabel/sample"
	"idxlabel/suspect"
)

// Result rebuilds a scan's result from e for samples labelled labels now (N labels,
// sample.NoLabel for none): its Classes, Probs and Features are e's (not copied), its Suspects and
// Unlabelled are e's probabilities scored against labels (suspect.Rescore) and Error is the
// share of labelled samples whose suggestion is not their label, as suspect.ScanCNN computes it.
// What the networks themselves gave is not kept: Model is nil (no prediction for a sample the
// scan did not see), SeedErrors is nil and CNNError is −1 (unknown). Errors: Rescore's
// (suspect.ErrNewClass: a label the scan had no column for; scan again).
func (e *Entry) Result(labels []int) (*suspect.CNNResult, error) {
	suspects, unlabelled, err := suspect.Rescore(e.Classes, e.Probs, labels)
	if err != nil {
		return nil, err
	}
	res := &suspect.CNNResult{Suspects: suspects, Unlabelled: unlabelled, CNNError: -1,
		Classes: e.Classes, Probs: e.Probs, Features: e.Features}
	wrong := 0
	for _, s := range suspects {
		if s.Suggested != s.Label {
			wrong++
		}
	}
	if len(suspects) > 0 {
		res.Error = float64(wrong) / float64(len(suspects))
	}
	return res, nil
}

// Scanner puts the cache file Path in front of suspect.ScanCNN: a scan whose key (KeyOf: the
// pixels and the settings) is stored there is rebuilt from it (Entry.Result) instead of run; any
// other scan runs, and its outputs are stored there after (atomically, replacing the entry
// before), unless the folder is read-only by its permission bits (a shared dataset's, left
// alone even by root). A cache that cannot be read or written never stops a scan: Note hears
// why.
type Scanner struct {
	Path  string // the cache file (an image file's path + Suffix); "" scans without a cache
	Read  bool   // use an entry stored at Path (false: always scan, as with check --no-cache)
	Write bool   // store the outputs of a scan that ran at Path (false: a read-only open)
	// Note (may be nil) hears, as a sentence naming the file, why the cache was not used or not
	// written: a damaged file, a class added since, a failed write. A miss says nothing.
	Note func(string)
	// Starting (may be nil) is called just before a scan runs (not on a hit), with Scan's
	// context and the samples it scans: where a caller says how long it will take
	// (suspect.EstimateCNN).
	Starting func(ctx context.Context, d sample.Set, opts suspect.CNNOptions)
}

// Outcome says where a Scan's result came from.
type Outcome struct {
	Cached bool  // rebuilt from the cache (Entry.Result: no Model)
	Key    Key   // the scan's key
	Load   error // why a stored entry was not used (nil for a hit or a plain miss)
	Store  error // why the scan's outputs were not stored (nil when stored or not asked)
}

// Scan returns the CNN scan of d with opts, from the cache when it holds one for d's pixels
// and opts, else by suspect.ScanCNN (progress as there). Cost of a hit: one pass over the
// pixels (KeyOf) and one read of the file, 4·N·(classes + cnn.Features) bytes, held twice while
// it is checked. Errors: suspect.ScanCNN's, or the context's error; a cache's errors are
// reported in the Outcome and by Note, never returned.
func (s Scanner) Scan(ctx context.Context, d sample.Set, opts suspect.CNNOptions, progress func(suspect.Progress)) (*suspect.CNNResult, Outcome, error) {
	var out Outcome
	note := func(err error) {
		if s.Note != nil && err != nil {
			s.Note(err.Error())
		}
	}
	var pixels Digest
	if s.Path != "" && (s.Read || s.Write) {
		pixels = PixelsOf(d)
		out.Key = keyFrom(pixels, d, opts)
	}
	if s.Path != "" && s.Read {
		e, err := Load(s.Path, out.Key, d.N)
		if err == nil {
			var res *suspect.CNNResult
			if res, err = e.Result(d.Labels); err == nil {
				out.Cached = true
				return res, out, ctx.Err()
			}
			err = fmt.Errorf("%s: the cached scan is not used: %w", s.Path, err)
		}
		if !errors.Is(err, ErrMiss) {
			out.Load = err
			note(err)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, out, err
	}
	if s.Starting != nil {
		s.Starting(ctx, d, opts)
	}
	res, err := suspect.ScanCNN(ctx, d, opts, progress)
	if err != nil {
		return nil, out, err
	}
	if s.Path != "" && s.Write {
		err := readOnlyFolder(filepath.Dir(s.Path))
		if err == nil {
			e := FromResult(res)
			e.Pixels = pixels
			err = Store(s.Path, out.Key, e)
		}
		if err != nil {
			out.Store = fmt.Errorf("the scan was not kept for next time: %w", err)
			note(out.Store)
		}
	}
	return res, out, nil
}

// readOnlyFolder returns an error naming dir when its permission bits let no one write in it (a
// shared dataset's folder): the cache leaves it alone even when the system would let this user
// (root) write there. A folder that cannot be read is left to Store's own error.
func readOnlyFolder(dir string) error {
	if fi, err := os.Stat(dir); err == nil && fi.IsDir() && fi.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%s: the folder is read-only (%v)", dir, fi.Mode().Perm())
	}
	return nil
}
