package store

// Gen returns the dataset's generation: a number that grows with every change to its samples
// (an edit, undo, redo, replayed record or save). A view records the generation it reflects and
// reads through SampleAt, which refuses reads from an older generation.
func (m *model) Gen() uint64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.gen
}

// changed stamps c with a new generation and brings the counts up to date (m.mu held for
// writing).
func (m *model) changed(c Change) Change {
	m.tally.follow(m, c)
	m.gen++
	c.Gen = m.gen
	return c
}

// SampleAt returns sample i's state and pixels (stored order, as Pixels) read together, only
// if the dataset is still at generation gen: ok is false when anything changed since (the
// reader's index may name another sample now) or i does not exist. Views read this way so that
// a change made by another goroutine (a save renumbering the samples) is never mixed with
// positions computed before it.
func (m *model) SampleAt(gen uint64, i int) (st State, px []byte, ok bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if gen != m.gen || i < 0 || i >= len(m.labels) {
		return State{}, nil, false
	}
	return m.stateLocked(i), m.pixelsLocked(i), true
}

// SourceAt returns where sample i came from (Source), only if the dataset is still at
// generation gen, as SampleAt reads: ok is false when anything changed since or i does not
// exist, so a view reading with an index of the generation it reflects never names another
// sample's file (nor panics, as Source does on an index gone).
func (m *model) SourceAt(gen uint64, i int) (source string, ok bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if gen != m.gen || i < 0 || i >= len(m.labels) {
		return "", false
	}
	return m.sourceOf(i), true
}

// Subscribe registers f to be called after every change, on the goroutine that made it, with
// no lock held (f may call the Dataset's methods). It returns a function that unsubscribes f.
// f must not block; a UI hands the change to its own thread (fyne.Do).
func (m *model) Subscribe(f func(Change)) (cancel func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	id := m.nextSub
	m.nextSub++
	m.subs[id] = f
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		delete(m.subs, id)
	}
}

func (m *model) notify(c Change) {
	m.mu.RLock()
	subs := make([]func(Change), 0, len(m.subs))
	for _, f := range m.subs {
		subs = append(subs, f)
	}
	m.mu.RUnlock()
	for _, f := range subs {
		f(c)
	}
}
