package store

import (
	"fmt"
	"time"
)

// How and when each step was made (its provenance): every action carries it, its journal
// record stores it, and the change log (changelog.go) reports it.

// How says how a change was made. Its values are stored in journals (version 2): they are
// never renumbered, and new ones go at the end.
type How uint8

const (
	// HowUnknown: an edit replayed from a journal an older idxlabel wrote, which did not record
	// how (it is written as an empty field).
	HowUnknown           How = iota
	HowManual                // a person set one sample's label (a digit, the class picker)
	HowBatch                 // a person set the label of several samples in one step
	HowSuspectAccepted       // a review of suspects: the suggested label accepted
	HowSuggestedAccepted     // a model's suggested label accepted for an unlabelled sample
	HowAddedDrawn            // a sample drawn in the draw window
	HowAddedImported         // a sample imported from image files
	HowDeleted               // a sample deleted
	howRestore               // a restore (never in the log: it cancels the deletion)
	// HowUndone: a label change the log already held before it began (saved, or reopened with
	// its history after a crash) taken back by an undo; in no journal record (the undo is one).
	HowUndone
	howCount
)

var howNames = [howCount]string{"", "manual", "batch", "suspect-accepted", "suggested-accepted", "added-drawn", "added-imported", "deleted", "", "undone"}

// String returns the name written in the change log's how column ("manual", "suspect-accepted",
// …), "" for HowUnknown.
func (h How) String() string {
	if h < howCount {
		return howNames[h]
	}
	return fmt.Sprintf("How(%d)", h)
}

// relabelHow is the How of SetLabels and Relabel, which do not say: manual for one sample
// named, batch for several.
func relabelHow(n int) How {
	if n == 1 {
		return HowManual
	}
	return HowBatch
}

// labelHow reports whether h describes a label change: manual, batch, suspect-accepted or
// suggested-accepted (a relabel's, and a review decision's).
func labelHow(h How) bool { return h >= HowManual && h <= HowSuggestedAccepted }

// provenanceSize is the bytes of provenance in a version 2 edit record: how u8, when i64.
const provenanceSize = 9

// provenance is how and when an edit was made; every action embeds it, and a save's remap
// (carry.go) copies it.
type provenance struct {
	how  How
	when int64  // Unix time in milliseconds; 0 when unknown
	id   uint64 // names the step in the session's events (0 until it makes one: stepID)
}

func (p *provenance) prov() *provenance { return p }

// madeNow returns the provenance of an edit made now.
func madeNow(how How) provenance { return provenance{how: how, when: time.Now().UnixMilli()} }

// prov appends an edit's provenance: how u8, when i64 (version 2).
func (e enc) prov(p provenance) enc { return e.u8(byte(p.how)).i64(p.when) }
