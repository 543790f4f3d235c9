package mode

// Emptier is a mode that can say why it shows no sample now: its list not found yet, found
// empty, or empty under the class picked (the health check's kinds).
type Emptier interface {
	// Empty says why the mode shows no sample ("Duplicates: none found"); the controller asks
	// only while the grid shows none.
	Empty(s State) string
}

// Empty returns why m shows no sample now ("" when m cannot say: browsing, whose filter the
// controller names).
func Empty(m Mode, s State) string {
	if e, ok := m.(Emptier); ok {
		return e.Empty(s)
	}
	return ""
}

// NothingShown is what the status bar says of a key or a command (what: "7 typed", "Delete")
// that had no sample to act on, the grid showing none: that it changed nothing, and why ("":
// not said). A key is never dropped without a word, and never applied to a sample the person
// does not see (the one the cursor was on before the mode was entered, or the first a list
// still being found will show).
func NothingShown(what, why string) string {
	text := what + ": no sample is shown here, nothing changed"
	if why != "" {
		text += " (" + why + ")"
	}
	return text
}

// NothingShownKeys is the legend while the grid shows no sample (a list not found yet or found
// empty, a filter that keeps none): the keys that act on a sample (a class typed, Delete, →,
// Enter) change nothing then, and say so (NothingShown), so none is offered as acting; why is
// the reason NothingShown gives ("": not said). Undo still acts.
func NothingShownKeys(why string) []Key {
	does := "here: a key that edits changes nothing"
	if why != "" {
		does = "here (" + why + "): a key that edits changes nothing"
	}
	return []Key{{Keys: "No sample shown", Does: does}, {Keys: "Ctrl+Z", Does: "undo"}}
}
