package annotate

import (
	"errors"
	"fmt"
	"slices"

	"idxlabel/sample"
)

// NoLabel is sample.NoLabel as an int32 label: the sample has no label from that annotator.
const NoLabel = int32(sample.NoLabel)

// Column is one annotator's labels of N samples: Labels[i] is sample i's class, NoLabel where
// the annotator gave none. Name names the annotator in messages and CSV headers (the command
// line uses the label file's base name).
type Column struct {
	Name   string
	Labels []int32
}

// ErrTooFew: fewer than two annotators were given; there is nothing to compare.
var ErrTooFew = errors.New("annotate: at least two annotators are needed")

// CountError says that two annotators' columns differ in length: they do not label the same
// samples.
type CountError struct {
	Name, First string // the column that differs and the first column
	N, FirstN   int    // their lengths
}

func (e *CountError) Error() string {
	return fmt.Sprintf("%s has %d labels, %s has %d: annotators must label the same samples", e.Name, e.N, e.First, e.FirstN)
}

// Panel is k annotators' labels of the same N samples, the classes renumbered 0…C−1 in
// increasing order of class (Classes). It is read-only once made and safe for concurrent use.
// It holds N·k int32 (4·N·k bytes) and the C classes; it keeps no reference to the columns it
// was made from.
type Panel struct {
	names   []string
	n, k    int
	classes []int32 // the distinct classes given, increasing
	codes   []int32 // n×k, sample-major: codes[i*k+a] is the index in classes of a's label of i, −1 none
}

// NewPanel makes a Panel of the columns (two or more, all of one length N ≥ 0). Errors:
// ErrTooFew, *CountError. O(N·k) time; labels that are not all within 0…65535 cost a map
// lookup each.
func NewPanel(cols []Column) (*Panel, error) {
	if len(cols) < 2 {
		return nil, ErrTooFew
	}
	n, k := len(cols[0].Labels), len(cols)
	for _, c := range cols[1:] {
		if len(c.Labels) != n {
			return nil, &CountError{Name: c.Name, First: cols[0].Name, N: len(c.Labels), FirstN: n}
		}
	}
	p := &Panel{n: n, k: k, codes: make([]int32, n*k)}
	for _, c := range cols {
		p.names = append(p.names, c.Name)
	}
	// The classes: a table for 0…65535 (every MNIST-like label), a map for the rest.
	const small = 1 << 16
	var seen []bool
	other := map[int32]int32{}
	for _, c := range cols {
		for _, l := range c.Labels {
			switch {
			case l == NoLabel:
			case l >= 0 && l < small:
				if seen == nil {
					seen = make([]bool, small)
				}
				seen[l] = true
			default:
				other[l] = 0
			}
		}
	}
	for l, s := range seen {
		if s {
			p.classes = append(p.classes, int32(l))
		}
	}
	for l := range other {
		p.classes = append(p.classes, l)
	}
	slices.Sort(p.classes)
	var code []int32
	if seen != nil {
		code = make([]int32, small)
	}
	for i, l := range p.classes {
		if l >= 0 && l < small {
			code[l] = int32(i)
		} else {
			other[l] = int32(i)
		}
	}
	for a, c := range cols {
		for i, l := range c.Labels {
			v := int32(-1)
			switch {
			case l == NoLabel:
			case l >= 0 && l < small:
				v = code[l]
			default:
				v = other[l]
			}
			p.codes[i*k+a] = v
		}
	}
	return p, nil
}

// N returns the number of samples.
func (p *Panel) N() int { return p.n }

// K returns the number of annotators.
func (p *Panel) K() int { return p.k }

// Names returns the annotators' names, in the order given (do not modify).
func (p *Panel) Names() []string { return p.names }

// Classes returns the distinct classes the annotators gave, increasing (do not modify).
func (p *Panel) Classes() []int32 { return p.classes }

// Label returns annotator a's label of sample i (NoLabel for none).
func (p *Panel) Label(i, a int) int32 {
	if c := p.codes[i*p.k+a]; c >= 0 {
		return p.classes[c]
	}
	return NoLabel
}

// row returns sample i's k codes.
func (p *Panel) row(i int) []int32 { return p.codes[i*p.k : (i+1)*p.k] }

// Disagrees reports whether the labels given to sample i differ: two annotators gave it two
// different classes. A sample some annotators left unlabelled and the rest labelled alike does
// not disagree.
func (p *Panel) Disagrees(i int) bool {
	first := int32(-1)
	for _, c := range p.row(i) {
		if c < 0 {
			continue
		}
		if first < 0 {
			first = c
		} else if c != first {
			return true
		}
	}
	return false
}

// Disagreements returns the samples whose labels differ (Disagrees), increasing.
func (p *Panel) Disagreements() []int {
	var out []int
	for i := range p.n {
		if p.Disagrees(i) {
			out = append(out, i)
		}
	}
	return out
}

// runs writes sample i's labels, grouped, into buf: one (code, count) per distinct class given,
// by increasing class, and returns it with m, the number of annotators who labelled i. buf
// must have room for k runs.
func (p *Panel) runs(i int, scratch []int32, buf []run) ([]run, int) {
	scratch = scratch[:0]
	for _, c := range p.row(i) {
		if c >= 0 {
			scratch = append(scratch, c)
		}
	}
	return runsOf(scratch, buf), len(scratch)
}

// runsOf sorts codes (in place) and returns each distinct code with how many times it occurs,
// increasing, in buf (reused).
func runsOf(codes []int32, buf []run) []run {
	if len(codes) > 1 {
		slices.Sort(codes)
	}
	buf = buf[:0]
	for _, c := range codes {
		if n := len(buf); n > 0 && buf[n-1].code == c {
			buf[n-1].count++
		} else {
			buf = append(buf, run{c, 1})
		}
	}
	return buf
}

// run is one class given to a sample and how many annotators gave it.
type run struct {
	code  int32
	count int32
}
