package suggest

import (
	"context"
	"fmt"
	"sync"
	"time"

	"idxlabel/internal/numfmt"
	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/activelearn"
	"idxlabel/suspect/scancache"
)

// keptSpace is the Suggested list's method by default: the labelling space of the dataset's
// pixels (activelearn.Space: features learnt without labels), read from the file kept beside
// the images (scancache.SpaceSuffix) or computed once and kept there, then used by every round
// whatever the labels: the asks and the first suggestions (label spreading, a fraction of a
// second per 10,000 samples) and the refined ones (networks fine-tuned from the space's, seconds).
//
// One space is held in memory, under its key (the pixels and the seed, scancache.SpaceKeyOf):
// finding it again costs a pass over the pixels a round (O(N), about 1 s per 1,000,000 MNIST
// samples), in the round's goroutine. Rounds run one at a time; the mutex only keeps the race
// detector's view of that honest.
type keptSpace struct {
	mu    sync.Mutex
	key   scancache.Key
	space *activelearn.Space
}

// place says where a round finds and keeps the space: the file (path; "" for a dataset never
// saved: computed, not kept), whether it may be written (not for a read-only open), and where
// the estimate made before a first computation goes (note, called on the round's goroutine with
// "about 25 s, an estimate" and the number of samples).
type place struct {
	path  string
	write bool
	note  func(about string, n int)
}

// of returns the space of d's pixels with opts (its seed): the one held when its key matches,
// else the one kept at p.path, else a new one (saying first, through p.note, about how long it
// will take on this machine now, by suspect.CalibrateCNN's measure), kept at p.path. Errors:
// activelearn.NewSpace's, or the context's error when cancelled.
func (k *keptSpace) of(ctx context.Context, d sample.Set, opts activelearn.Options, p place) (*activelearn.Space, error) {
	seed := opts.Seed
	if seed == 0 {
		seed = 1
	}
	key := scancache.SpaceKeyOf(d, seed)
	k.mu.Lock()
	s := k.space
	hit := s != nil && k.key == key
	k.mu.Unlock()
	if hit {
		return s, nil
	}
	sp := scancache.Spaces{Path: p.path, Read: true, Write: p.write && p.path != "",
		Starting: func(ctx context.Context, d sample.Set) {
			if rate, err := suspect.CalibrateCNN(ctx); err == nil && p.note != nil {
				p.note("about "+spokenDuration(activelearn.EstimateSpace(d.N, rate))+", an estimate", d.N)
			}
		}}
	s, _, err := sp.Space(ctx, d, activelearn.Options{Seed: seed, Workers: opts.Workers, Progress: opts.Progress})
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	k.key, k.space = key, s
	k.mu.Unlock()
	return s, nil
}

// SpaceNote is what the window says before the features of n samples are first learnt from
// their pixels (about: "about 25 s, an estimate"; kept: whether the space will be kept beside the
// images): "Learning features of 10,000 samples from their pixels (about 25 s, an estimate), once:
// they are kept beside the images. Tools → Stop Training cancels."
func SpaceNote(n int, about string, kept bool) string {
	once := "once: they are kept beside the images"
	if !kept {
		once = "not kept: the dataset has no file it may write beside"
	}
	return numfmt.Sprintf("Learning features of %d samples from their pixels", n) +
		fmt.Sprintf(" (%s), %s. Tools → Stop Training cancels.", about, once)
}

// prepare finds the space of d's pixels for a round (of), the default Prepare.
func (k *keptSpace) prepare(ctx context.Context, d sample.Set, opts activelearn.Options, at place) error {
	_, err := k.of(ctx, d, opts, at)
	return err
}

// held returns the space prepare found, when it is of d's size. Errors: none found.
func (k *keptSpace) held(d sample.Set) (*activelearn.Space, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.space == nil || k.space.N() != d.N {
		return nil, fmt.Errorf("no labelling space for these %d samples", d.N)
	}
	return k.space, nil
}

// ask is Space.Ask on the space prepare found (the default AskFor).
func (k *keptSpace) ask(ctx context.Context, d sample.Set, n int, opts activelearn.Options) ([]int, error) {
	s, err := k.held(d)
	if err != nil {
		return nil, err
	}
	return s.Ask(ctx, d.Labels, n, opts)
}

// first is Space.Suggest (label spreading) on the space prepare found (the default FirstFor).
func (k *keptSpace) first(ctx context.Context, d sample.Set, opts activelearn.Options) ([]activelearn.Suggestion, error) {
	s, err := k.held(d)
	if err != nil {
		return nil, err
	}
	r, err := s.Suggest(ctx, d.Labels, opts)
	if err != nil {
		return nil, err
	}
	return r.List, nil
}

// refine is Space.Refine on the space prepare found (the default SuggestFor).
func (k *keptSpace) refine(ctx context.Context, d sample.Set, opts activelearn.Options) ([]activelearn.Suggestion, error) {
	s, err := k.held(d)
	if err != nil {
		return nil, err
	}
	r, err := s.Refine(ctx, d, d.Labels, opts)
	if err != nil {
		return nil, err
	}
	return r.List, nil
}

// spokenDuration writes d as the status bar says an estimate: "40 s", "2 min 20 s" (to the
// second), "1 h 5 min" (to the minute).
func spokenDuration(d time.Duration) string {
	d = d.Round(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d/time.Second))
	case d < time.Hour:
		if sec := int(d % time.Minute / time.Second); sec != 0 {
			return fmt.Sprintf("%d min %d s", int(d/time.Minute), sec)
		}
		return fmt.Sprintf("%d min", int(d/time.Minute))
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%d h %d min", int(d/time.Hour), int(d%time.Hour/time.Minute))
}
