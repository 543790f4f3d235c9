package similar

import (
	"time"

	"idxlabel/suspect/similar"
)

// Drawing is List.Query for a list of the samples like a drawing (not a sample of the dataset).
const Drawing = -1

// List is the samples like a query, most similar first, with the similarity of each.
type List struct {
	// Query is the sample asked about (a sample number; listed first, similarity 1), or Drawing.
	Query int
	// Drawn is the drawing asked about, H×W display pixels (nil when Query is a sample).
	Drawn []byte
	H, W  int
	// Order is the samples shown, most similar first (sample numbers).
	Order []int
	// Of is each listed sample's similarity to the query (similar.Match: the cosine of the two
	// samples' vectors, or for a near-copy its pixel similarity) and whether it is a near-copy.
	Of map[int]similar.Match
	// Space is what the samples were compared by; From says where the features came from, for
	// the status bar ("the window's CNN scan", "pixel descriptors: no CNN scan yet").
	Space similar.Space
	From  string
	Took  time.Duration // the query's time (and the index's build when it was built for it)
}

// newList makes the list of matches of the index built b (snapshot positions), the query q
// first when it is a sample. O(k).
func newList(q query, b *built, matches []similar.Match, space similar.Space, took time.Duration) *List {
	l := &List{Query: q.sample, Drawn: q.px, H: q.h, W: q.w, Of: make(map[int]similar.Match, len(matches)+1), Space: space, From: b.from, Took: took}
	if space == similar.Pixels && b.space == similar.CNN {
		l.From = "pixel descriptors: a kept scan has no network to place a drawing among its features"
	}
	if q.sample >= 0 {
		l.Order = append(l.Order, q.sample)
		l.Of[q.sample] = similar.Match{Index: q.sample, Similarity: 1}
	}
	for _, m := range matches {
		i := b.snap.Number(m.Index)
		m.Index = i
		l.Order = append(l.Order, i)
		l.Of[i] = m
	}
	return l
}

// Renumbered returns the list as it stands after a save that renumbered the samples (to maps
// each old number to the new one, -1 for a deleted sample, now gone): the same order and
// similarities without the deleted samples (a query deleted so stays a drawing's list). O(k).
func (l *List) Renumbered(to []int) *List {
	at := func(i int) (int, bool) {
		if i < 0 || i >= len(to) || to[i] < 0 {
			return 0, false
		}
		return to[i], true
	}
	out := *l
	out.Order, out.Of = nil, make(map[int]similar.Match, len(l.Of))
	if k, ok := at(l.Query); ok {
		out.Query = k
	} else {
		out.Query = Drawing
	}
	for _, i := range l.Order {
		if k, ok := at(i); ok {
			m := l.Of[i]
			m.Index = k
			out.Order = append(out.Order, k)
			out.Of[k] = m
		}
	}
	return &out
}
