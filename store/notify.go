package store

// ChangeKind says what an edit changed.
type ChangeKind int

const (
	Relabelled     ChangeKind = iota // the labels of Indices changed
	Appended                         // Indices were appended at the end
	Truncated                        // Indices were removed from the end (an append undone)
	DeletedChanged                   // Indices were deleted or restored
	Reset                            // anything may have changed: samples renumbered (save), journal replayed
)

// Change is one notification: what changed and which samples.
type Change struct {
	Kind    ChangeKind
	Indices []int // the samples concerned; nil for Reset
}

// Subscribe registers f to be called after every change, on the goroutine that made it, with
// no lock held (f may call the Dataset's methods). It returns a function that unsubscribes f.
// f must not block; a UI hands the change to its own thread (fyne.Do).
func (d *Dataset) Subscribe(f func(Change)) (cancel func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	id := d.nextSub
	d.nextSub++
	d.subs[id] = f
	return func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		delete(d.subs, id)
	}
}

func (d *Dataset) notify(c Change) {
	d.mu.RLock()
	subs := make([]func(Change), 0, len(d.subs))
	for _, f := range d.subs {
		subs = append(subs, f)
	}
	d.mu.RUnlock()
	for _, f := range subs {
		f(c)
	}
}
