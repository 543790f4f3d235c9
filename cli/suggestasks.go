package cli

import (
	"errors"
	"fmt"
	"io"

	"idxlabel/sample"
	"idxlabel/suspect/activelearn"
	"idxlabel/suspect/scancache"
)

// The refined suggestions' ranking of the least sure samples (activelearn.Suggestions.Unsure),
// kept beside the images by `suggest` (keepAsks) for the `suggest --ask` after it on the same
// labels (keptAsks): the asks rank by the networks without training one (an ask stays a
// fraction of a second).

// keepAsks keeps sugg's ranking (when it has one) at the images' path plus
// scancache.AsksSuffix, under the key of the space (space, scancache.SpaceKeyOf) and data's
// labels and opts.Accepted. A file that cannot be written is said on w and nothing more.
func keepAsks(w io.Writer, images string, space scancache.Key, data sample.Set, opts activelearn.Options, sugg *activelearn.Suggestions) {
	if sugg.Unsure == nil {
		return
	}
	key := scancache.AsksKeyOf(space, data.Labels, opts.Accepted)
	if err := scancache.StoreAsks(images+scancache.AsksSuffix, key, sugg.Classes, sugg.Unsure); err != nil {
		fmt.Fprintf(w, "idxlabel: suggest: the ranking for the next --ask was not kept: %v\n", err)
	}
}

// keptAsks returns the ranking keepAsks kept for data's labels and opts.Accepted (nil when
// there is none for them, when read is false, or when the file is damaged or not a regular
// file: said on w, naming it) and how the asks will rank the least sure samples, for the
// summary line.
func keptAsks(w io.Writer, images string, space scancache.Key, data sample.Set, opts activelearn.Options, read bool) (*activelearn.Suggestions, string) {
	const spread = "the least sure ranked by label spreading; a suggest first ranks them by the networks"
	if !read {
		return nil, spread
	}
	path := images + scancache.AsksSuffix
	classes, unsure, err := scancache.LoadAsks(path, scancache.AsksKeyOf(space, data.Labels, opts.Accepted), data.N)
	if err != nil {
		if !errors.Is(err, scancache.ErrMiss) {
			fmt.Fprintf(w, "idxlabel: suggest: %v; ranking by label spreading instead\n", err)
		}
		return nil, spread
	}
	return &activelearn.Suggestions{Classes: classes, Unsure: unsure}, "the least sure ranked by the suggestions of the last suggest, kept in " + path
}
