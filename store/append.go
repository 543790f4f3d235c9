package store

import (
	"errors"
	"fmt"
	"slices"

	"idxlabel/internal/numfmt"
	"idxlabel/pairfile"
	"idxlabel/sample"
)

// An append adds samples at the end (Append, AppendAs): drawn or imported, as one undoable step.
// A save writes them into the files, and the append on the undo stack becomes a saved append
// (savedAppend, below): its samples are samples of the files now, so undoing it marks them
// deleted (the next save removes them) and redoing it restores them. A saved append is made
// only by a save, never journaled as an edit; its How is its append's.
//
// Journal record (records.go): recAppend, provenance, n u32, pixels per sample u32, n × label
// i32, n × pixels (stored order), then, when a sample has a source, n × source (length u16, UTF-8
// bytes: see sourceBlock); a record without them (drawn samples, or an older idxlabel's) is the
// same as before sources were kept; then, when a sample carries a mark, the marks block
// (appendmarks.go).
// History steps (history.go): hAppend, provenance, then as the record without sources, or
// hAppendSources, the same followed by the sources, or hAppendMarked, the same followed by the
// marks (on the redo stack only: an append on the undo stack is a saved one); hSavedAppend,
// provenance, n u32, n × (index u32, label added with i32).
const (
	recAppend      byte = 3
	hAppend        byte = 5
	hSavedAppend   byte = 4
	hAppendSources byte = 6
)

func init() {
	register(editKind{decode: decodeAppend, how: addHow}, map[byte]func(*model, *dec, bool) (action, error){
		hAppend:        func(m *model, r *dec, redo bool) (action, error) { return historyAppend(m, r, redo, false, false) },
		hAppendSources: func(m *model, r *dec, redo bool) (action, error) { return historyAppend(m, r, redo, true, false) },
		hAppendMarked:  func(m *model, r *dec, redo bool) (action, error) { return historyAppend(m, r, redo, true, true) },
		hSavedAppend:   historySavedAppend,
	}, recAppend)
}

// addHow reports whether h describes samples added: drawn or imported.
func addHow(h How) bool { return h == HowAddedDrawn || h == HowAddedImported }

// Sample is one new sample to append: Height×Width display pixels (row-major, 0 = background,
// 255 = ink, as shown, not transposed), its label, and its source: the file it was imported
// from, a slash-separated path relative to the folder imported ("" for a drawn sample); and the
// marks the pair it was read from kept for it (appendmarks.go): Accepted, its label is an
// accepted suggestion (a pseudo-label; ignored without a label), and Reviewed, a review decided
// it.
type Sample struct {
	Pixels   []byte
	Label    int
	Source   string
	Accepted bool
	Reviewed bool
}

// appendSamples adds samples at the end; pixels are in stored order, sources cleaned
// (pairfile.CleanSource), nil when none of them has one; marks are the samples' marks
// (appendmarks.go), nil when none has one. first is where the samples went when it was last
// applied.
type appendSamples struct {
	provenance
	labels  []int32
	pixels  []byte
	sources []string
	marks   []byte
	first   int
}

// newAppend returns the step that appends samples (display pixels, stored transposed when the
// model is) at the end. Errors: a sample with the wrong number of pixels, a label the dtype
// cannot hold.
func newAppend(m *model, how How, samples []Sample) (edit, error) {
	n := m.h * m.w
	a := &appendSamples{provenance: madeNow(how), labels: make([]int32, len(samples)), pixels: make([]byte, 0, n*len(samples))}
	h, w := m.Size()
	for k, s := range samples {
		if len(s.Pixels) != n {
			return nil, fmt.Errorf("sample %d has %d pixels; this dataset's samples are %d×%d = %d", k, len(s.Pixels), m.h, m.w, n)
		}
		if err := m.checkLabel(s.Label); err != nil {
			return nil, err
		}
		a.labels[k] = int32(s.Label)
		a.pixels = sample.AppendStored(a.pixels, s.Pixels, h, w, m.transposed)
		if s.Source != "" {
			if a.sources == nil {
				a.sources = make([]string, len(samples))
			}
			a.sources[k] = pairfile.CleanSource(s.Source)
		}
	}
	a.marks = sampleMarks(samples)
	return a, nil
}

func (a *appendSamples) apply(m *model) Change {
	a.first = len(m.labels)
	m.labels = append(m.labels, a.labels...)
	m.deleted = append(m.deleted, make([]bool, len(a.labels))...)
	m.reviewed = append(m.reviewed, make([]bool, len(a.labels))...)
	m.accepted = append(m.accepted, make([]bool, len(a.labels))...)
	m.added = append(m.added, a.pixels...)
	if a.sources != nil || m.sources != nil {
		if m.sources == nil {
			m.sources = make([]string, a.first, len(m.labels))
		}
		if a.sources != nil {
			m.sources = append(m.sources, a.sources...)
		} else {
			m.sources = append(m.sources, make([]string, len(a.labels))...)
		}
	}
	a.setMarks(m)
	return Change{Kind: Appended, Indices: span(a.first, len(m.labels))}
}

// revert removes the samples from the end, and their marks with them. Their pixels stay in
// m.added's old buffer for anyone who holds them (Pixels, Snapshot): the capacity is clipped, so
// the next append copies to a new buffer instead of writing over them.
func (a *appendSamples) revert(m *model) Change {
	n := len(m.labels) - len(a.labels)
	m.labels = m.labels[:n]
	m.deleted = m.deleted[:n]
	m.reviewed = m.reviewed[:n]
	m.accepted = m.accepted[:n]
	k := len(m.added) - len(a.pixels)
	m.added = m.added[:k:k]
	if m.sources != nil {
		m.sources = m.sources[:n]
	}
	return Change{Kind: Truncated, Indices: span(n, n+len(a.labels))}
}

func (a *appendSamples) String() string { return appendName(a.labels) }

// appendName describes an append of samples with these labels, before and after a save.
func appendName(labels []int32) string {
	if len(labels) == 1 {
		return "Add a sample labelled " + labelText(labels[0])
	}
	return numfmt.Sprintf("Add %d samples", len(labels))
}

func (a *appendSamples) kind() byte         { return recAppend }
func (a *appendSamples) named() []int32     { return nil }
func (a *appendSamples) labelsSet() []int32 { return a.labels }

func (a *appendSamples) undoneStays() bool { return false }
func (a *appendSamples) appends() int      { return len(a.labels) }
func (a *appendSamples) reviews() []int32  { return nil }

func (a *appendSamples) record() []byte {
	n := len(a.labels)
	e := make(enc, 0, 9+provenanceSize+4*n+len(a.pixels)).u8(recAppend).prov(a.provenance).u32(uint32(n)).u32(uint32(len(a.pixels) / max(n, 1)))
	for _, l := range a.labels {
		e = e.i32(l)
	}
	return a.marksBlock(e.bytes(a.pixels))
}

func (a *appendSamples) history(e enc) enc {
	n := len(a.labels)
	kind := hAppend
	switch {
	case a.marks != nil:
		kind = hAppendMarked
	case a.sources != nil:
		kind = hAppendSources
	}
	e = e.u8(kind).prov(a.provenance).u32(uint32(n)).u32(uint32(len(a.pixels) / max(n, 1)))
	for _, l := range a.labels {
		e = e.i32(l)
	}
	return a.marksBlock(e.bytes(a.pixels))
}

// sourceBlock appends the samples' sources to a record (none when sources is nil): each a length
// u16 and its bytes, cleaned and so at most pairfile.MaxSource bytes.
func sourceBlock(e enc, sources []string) enc {
	for _, s := range sources {
		e = e.u16(uint16(len(s))).bytes([]byte(s))
	}
	return e
}

// readSources reads n sources written by sourceBlock (unless r.err is set already): each at most
// pairfile.MaxSource bytes, kept as CleanSource makes them (a record is untrusted); nil when
// none has one.
func readSources(r *dec, n int) []string {
	out := make([]string, n)
	any := false
	for k := range n {
		l := int(r.u16())
		if r.err == nil && l > pairfile.MaxSource {
			r.err = fmt.Errorf("a source of %d bytes, more than %d", l, pairfile.MaxSource)
		}
		out[k] = pairfile.CleanSource(string(r.take(l)))
		any = any || out[k] != ""
	}
	if r.err != nil || !any {
		return nil
	}
	return out
}

// remap of an append: on the undo stack its samples are in the saved files now (a savedAppend
// of those kept); on the redo stack it appends at the end when redone, as before.
func (a *appendSamples) remap(r renumbering, applied bool) action {
	if !applied {
		return a
	}
	saved := &savedAppend{provenance: a.provenance, idx: make([]int32, len(a.labels)), labels: a.labels}
	for k := range saved.idx {
		saved.idx[k] = int32(a.first + k)
	}
	return saved.remap(r, true)
}

// logEvents: the samples added, with their sources; undone, they are gone.
func (a *appendSamples) logEvents(_ *model, ev eventSink, inverse bool) {
	for k, l := range a.labels {
		if inverse {
			ev.remove(a.first+k, l)
		} else {
			ev.add(a.first+k, l, a.source(k))
		}
	}
}

// source returns the source of its k-th sample, "" for none.
func (a *appendSamples) source(k int) string {
	if a.sources == nil {
		return ""
	}
	return a.sources[k]
}

// decodeAppend decodes an append record's body: at least one sample, of the dataset's size,
// every label fitting the dtype, then the sources and the marks, when there, and nothing after.
func decodeAppend(m *model, _ byte, r *dec) (action, error) {
	n := r.count(4)
	if r.err == nil && n == 0 {
		return nil, errNoSample
	}
	pps := int(r.u32())
	if r.err == nil && pps != m.h*m.w {
		return nil, fmt.Errorf("appended samples of %d pixels in a dataset of %d×%d", pps, m.h, m.w)
	}
	a := &appendSamples{labels: make([]int32, n)}
	for k := range n {
		a.labels[k] = r.i32()
		if r.err == nil {
			if err := m.checkLabel(int(a.labels[k])); err != nil {
				return nil, fmt.Errorf("appended sample %d: %w", k, err)
			}
		}
	}
	a.pixels = slices.Clone(r.takeElems(n, pps))
	if r.err == nil && len(r.b) != 0 {
		a.sources = readSources(r, n)
		if r.err == nil && len(r.b) != 0 {
			a.marks = readAppendMarks(r, n)
		}
		if r.err == nil && len(r.b) != 0 {
			r.err = errors.New("extra bytes after the appended samples' marks")
		}
	}
	return a, r.err
}

// historyAppend decodes an append step of a history record, with its samples' sources when
// sources and their marks when marks: only on the redo stack (an append on the undo stack is a
// saved one), at least one sample, of the dataset's size, every label fitting the dtype.
func historyAppend(m *model, r *dec, redo, sources, marks bool) (action, error) {
	if !redo {
		return nil, errors.New("an unsaved append on the undo stack")
	}
	n := r.count(4)
	if r.err == nil && n == 0 {
		r.err = errNoSample
	}
	pps := int(r.u32())
	if r.err == nil && pps != m.h*m.w {
		return nil, fmt.Errorf("appended samples of %d pixels in a dataset of %d×%d", pps, m.h, m.w)
	}
	b := &appendSamples{labels: make([]int32, n)}
	for k := range n {
		b.labels[k] = r.i32()
		historyLabel(m, r, b.labels[k], false)
	}
	b.pixels = slices.Clone(r.takeElems(n, pps))
	if sources {
		b.sources = readSources(r, n)
	}
	if marks {
		b.marks = readAppendMarks(r, n)
	}
	return b, r.err
}

// savedAppend is an append that a save wrote into the files; labels are the labels its samples
// were added with (for its name).
type savedAppend struct {
	provenance
	idx    []int32
	labels []int32
}

func (a *savedAppend) apply(m *model) Change {
	for _, i := range a.idx {
		m.deleted[i] = false
	}
	return Change{Kind: DeletedChanged, Indices: ints(a.idx)}
}

func (a *savedAppend) revert(m *model) Change {
	for _, i := range a.idx {
		m.deleted[i] = true
	}
	return Change{Kind: DeletedChanged, Indices: ints(a.idx)}
}

func (a *savedAppend) String() string { return appendName(a.labels) }

func (a *savedAppend) kind() byte         { return recAppend }
func (a *savedAppend) named() []int32     { return a.idx }
func (a *savedAppend) labelsSet() []int32 { return a.labels }

func (a *savedAppend) undoneStays() bool { return true }
func (a *savedAppend) appends() int      { return 0 }
func (a *savedAppend) reviews() []int32  { return nil }

func (a *savedAppend) history(e enc) enc {
	e = e.u8(hSavedAppend).prov(a.provenance).u32(uint32(len(a.idx)))
	for k, i := range a.idx {
		e = e.u32(uint32(i)).i32(a.labels[k])
	}
	return e
}

func (a *savedAppend) remap(r renumbering, _ bool) action {
	b := &savedAppend{provenance: a.provenance}
	for k, i := range a.idx {
		if j, ok := r.at(i); ok {
			b.idx, b.labels = append(b.idx, j), append(b.labels, a.labels[k])
		}
	}
	if len(b.idx) == 0 {
		return nil
	}
	return b
}

// logEvents: undone, its samples are marked deleted (and stay: changelog.go); redone, restored.
func (a *savedAppend) logEvents(m *model, ev eventSink, inverse bool) {
	for k, i := range a.idx {
		if inverse {
			ev.remove(int(i), m.labels[i])
		} else {
			ev.add(int(i), a.labels[k], m.sourceOf(int(i)))
		}
	}
}

// historySavedAppend decodes a saved append step of a history record: labels fitting the dtype,
// at least one sample, none twice.
func historySavedAppend(m *model, r *dec, _ bool) (action, error) {
	n := r.count(8)
	b := &savedAppend{idx: make([]int32, n), labels: make([]int32, n)}
	for k := range n {
		b.idx[k], b.labels[k] = r.i32(), r.i32()
		historyLabel(m, r, b.labels[k], false)
	}
	historySamples(r, b.idx)
	return b, r.err
}
