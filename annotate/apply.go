package annotate

import (
	"fmt"
	"strconv"
)

// Reason says whether an errata row was applied, and why not.
type Reason uint8

const (
	Applied      Reason = iota // the sample's label was Old: it becomes New
	NotFound                   // no sample has the row's pixels (another dataset, a sample deleted)
	Ambiguous                  // the row's index holds other pixels and several samples have the row's
	LabelDiffers               // the sample's label is neither the row's old nor its new label
	AlreadyNew                 // the sample already has the row's new label
	Repeated                   // an earlier row of the file corrected the same sample
	DoesNotFit                 // the new label does not fit the label file's dtype
)

// String names the reason in a few words ("label changed"), for counts and column headers.
func (r Reason) String() string {
	switch r {
	case Applied:
		return "applied"
	case NotFound:
		return "pixels not found"
	case Ambiguous:
		return "pixels at several samples"
	case LabelDiffers:
		return "label changed since"
	case AlreadyNew:
		return "already corrected"
	case Repeated:
		return "sample corrected twice"
	case DoesNotFit:
		return "new label does not fit the dtype"
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// Outcome is what Apply did with one errata row.
type Outcome struct {
	Row    Row
	Reason Reason
	// At is the sample the row names in these images: its index when the pixels there hash to
	// the row's sha256, else the one sample whose pixels do; −1 when none was found.
	At int
	// Moved reports that At differs from the row's index: the sample was found by its pixels
	// (the images were shifted by a deletion or an addition before it).
	Moved bool
	// Label is the sample's label when the row was refused because of it (LabelDiffers).
	Label int32
	// Count is how many samples have the row's pixels (Ambiguous), or the line of the earlier
	// row (Repeated; 0 for a row made in memory).
	Count int
}

// Applied reports whether the row was applied: the sample At takes the row's new label.
func (o Outcome) Applied() bool { return o.Reason == Applied }

// String says what happened to the row, for a person: "sample 120: its label is 5, not the
// row's old label 3".
func (o Outcome) String() string {
	r := o.Row
	at := fmt.Sprintf("sample %d", o.At)
	if o.Moved {
		at = fmt.Sprintf("sample %d (found by its pixels; the row says %d)", o.At, r.Index)
	}
	switch o.Reason {
	case Applied:
		return fmt.Sprintf("%s: %s → %s", at, labelText(r.Old), labelText(r.New))
	case NotFound:
		return fmt.Sprintf("sample %d: no sample of these images has its pixels (sha256 %s…): another dataset, or the sample was deleted", r.Index, r.SHA256.String()[:12])
	case Ambiguous:
		return fmt.Sprintf("sample %d: other pixels there, and %d samples have the row's pixels: which one is meant cannot be told", r.Index, o.Count)
	case LabelDiffers:
		return fmt.Sprintf("%s: its label is %s, not the row's old label %s: changed since the errata were made", at, labelText(o.Label), labelText(r.Old))
	case AlreadyNew:
		return fmt.Sprintf("%s: already labelled %s, the row's new label", at, labelText(r.New))
	case Repeated:
		if o.Count == 0 {
			return fmt.Sprintf("%s: corrected by an earlier row already", at)
		}
		return fmt.Sprintf("%s: corrected by line %d already", at, o.Count)
	case DoesNotFit:
		return fmt.Sprintf("%s: the new label %s does not fit the label file's dtype", at, labelText(r.New))
	}
	return at
}

// labelText is a label for a message: its number, or "none".
func labelText(l int32) string {
	if l == NoLabel {
		return "none"
	}
	return strconv.Itoa(int(l))
}

// Apply matches each of e's rows to the images whose samples' digests are samples and labelled
// labels (one a sample), and says what it would do (Outcome, one a row, in the file's order);
// it changes nothing: the caller sets labels[o.At] = o.Row.New for every applied outcome (a
// window as one undoable step). A row applies only where the sample's pixels hash to its
// sha256 and its label is the row's old label: the sample at the row's index when its digest
// matches, else the one sample with that digest (a deletion or an addition shifted it); fits,
// when not nil, says whether the label file can hold a new label. Memory: O(rows).
func Apply(e *Errata, samples []Digest, labels []int32, fits func(int32) bool) []Outcome {
	type where struct{ first, count int }
	found := make(map[Digest]where, len(e.Rows))
	for _, r := range e.Rows {
		found[r.SHA256] = where{-1, 0}
	}
	for i, d := range samples {
		if w, ok := found[d]; ok {
			if w.count == 0 {
				w.first = i
			}
			w.count++
			found[d] = w
		}
	}
	done := map[int]int{} // sample → line of the row applied to it
	out := make([]Outcome, len(e.Rows))
	for k, r := range e.Rows {
		o := Outcome{Row: r, At: -1}
		switch w := found[r.SHA256]; {
		case r.Index < len(samples) && samples[r.Index] == r.SHA256:
			o.At = r.Index
		case w.count == 1:
			o.At, o.Moved = w.first, true
		case w.count == 0:
			o.Reason = NotFound
		default:
			o.Reason, o.Count = Ambiguous, w.count
		}
		if o.At >= 0 {
			l := labels[o.At]
			switch line, twice := done[o.At]; {
			case twice:
				o.Reason, o.Count = Repeated, line
			case l == r.New:
				o.Reason = AlreadyNew
			case l != r.Old:
				o.Reason, o.Label = LabelDiffers, l
			case fits != nil && !fits(r.New):
				o.Reason = DoesNotFit
			default:
				done[o.At] = r.Line
			}
		}
		out[k] = o
	}
	return out
}
