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

// checkHow refuses a How that does not describe an edit of record type t: a label change is
// manual, batch, suspect-accepted or suggested-accepted; an append added-drawn or
// added-imported; a deletion deleted; a restore has none of its own. HowUnknown fits every type
// (old journals). It is the one rule for the API and for journal records.
func checkHow(t byte, h How) error {
	ok := h == HowUnknown
	switch t {
	case recRelabel, recDecide:
		ok = ok || h >= HowManual && h <= HowSuggestedAccepted
	case recAppend:
		ok = ok || h == HowAddedDrawn || h == HowAddedImported
	case recDelete:
		ok = ok || h == HowDeleted
	case recRestore:
		ok = ok || h == howRestore
	}
	if !ok {
		return fmt.Errorf("how %q does not describe this kind of edit", h)
	}
	return nil
}

// recordType returns the type of the journal record of an edit like a (a saved append's is an
// append's), for checkHow.
func recordType(a action) byte {
	switch a := a.(type) {
	case *relabel:
		return recRelabel
	case *decide:
		return recDecide
	case *appendSamples, *savedAppend:
		return recAppend
	case *setDeleted:
		if a.to {
			return recDelete
		}
		return recRestore
	}
	return 0
}

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

// provOf returns a's provenance (every action has one).
func provOf(a action) *provenance {
	if p, ok := a.(interface{ prov() *provenance }); ok {
		return p.prov()
	}
	return &provenance{}
}
