package store

import (
	"fmt"

	"idxlabel/sample"
)

// Samples appended from another pair (File → Append Dataset…) bring the marks that pair kept
// (Sample.Accepted, Sample.Reviewed): a label that was an accepted suggestion stays a
// pseudo-label, which the next round of suggestions neither learns as a person's label nor holds
// out as truth (accepted.go), and a sample a review decided stays decided. The append step holds
// them (appendSamples.marks) and sets them as it appends its samples, so undoing it takes them
// away with the samples, redoing it gives them back, and a save keeps them beside the label file
// at the samples' new numbers, as any mark.
//
// Journal (version 4 and later): an append record whose samples carry a mark ends with the
// sources block, written even when no sample has a source (n × length 0), then a marks block of
// n bytes, one a sample: markAccepted | markReviewed. The history step of such an append (on the
// redo stack) is hAppendMarked: hAppendSources's fields, then the same n bytes. A record without
// the block (no sample marked, or an earlier version's) appends samples without marks, as
// before.
const (
	markAccepted  byte = 1
	markReviewed  byte = 2
	hAppendMarked byte = 8
)

// sampleMarks returns the marks of samples, one byte each; nil when none is marked. An accepted
// mark on a sample without a label is left out (there is no label to be a suggestion).
func sampleMarks(samples []Sample) []byte {
	var out []byte
	for k, s := range samples {
		var b byte
		if s.Accepted && s.Label != sample.NoLabel {
			b |= markAccepted
		}
		if s.Reviewed {
			b |= markReviewed
		}
		if b != 0 {
			if out == nil {
				out = make([]byte, len(samples))
			}
			out[k] = b
		}
	}
	return out
}

// setMarks marks the samples the append just added (from a.first on, m.mu held) as its marks
// say; the arrays were grown unmarked.
func (a *appendSamples) setMarks(m *model) {
	for k, b := range a.marks {
		i := a.first + k
		m.accepted[i] = b&markAccepted != 0 && a.labels[k] != sample.NoLabel
		m.reviewed[i] = b&markReviewed != 0
	}
}

// marksBlock ends an append's record or history step: nothing without marks; with them, the
// sources block (every source empty when none has one) and then the marks.
func (a *appendSamples) marksBlock(e enc) enc {
	if a.marks == nil {
		return sourceBlock(e, a.sources)
	}
	sources := a.sources
	if sources == nil {
		sources = make([]string, len(a.labels))
	}
	return sourceBlock(e, sources).bytes(a.marks)
}

// readAppendMarks reads the marks block of an append of n samples (unless r.err is set
// already): n bytes, each a combination of markAccepted and markReviewed; nil when none is
// marked. Errors (in r.err): too few bytes, another bit set.
func readAppendMarks(r *dec, n int) []byte {
	b := r.takeElems(n, 1)
	if r.err != nil {
		return nil
	}
	var out []byte
	for k, v := range b {
		if v&^(markAccepted|markReviewed) != 0 {
			r.err = fmt.Errorf("appended sample %d: marks %d, not 0–3", k, v)
			return nil
		}
		if v != 0 && out == nil {
			out = make([]byte, n)
		}
		if out != nil {
			out[k] = v
		}
	}
	return out
}
