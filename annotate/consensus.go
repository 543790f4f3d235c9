package annotate

import "fmt"

// Vote is one sample's consensus: the label chosen (NoLabel for none), how many annotators gave
// that label, and how many labelled the sample at all. When Label is NoLabel, Votes is the most
// annotators who gave any one class (a tie of 2 against 2 reads 2 of 4).
type Vote struct {
	Label      int32
	Votes      int32
	Annotators int32
}

// Majority returns each sample's majority label: the class more than half of the annotators
// who labelled the sample gave it; NoLabel when no class has that many (a tie, a spread, or no
// label at all). O(N·k·log k) time, 12 bytes a sample.
func (p *Panel) Majority() []Vote {
	out := make([]Vote, p.n)
	scratch := make([]int32, 0, p.k)
	buf := make([]run, 0, p.k)
	for i := range p.n {
		var m int
		buf, m = p.runs(i, scratch, buf)
		v, code, ok := majority(buf, m)
		if ok {
			v.Label = p.classes[code]
		}
		out[i] = v
	}
	return out
}

// MajorityOf returns the majority of one sample's labels (one an annotator, NoLabel for none,
// in any order) by Majority's rule: the class more than half of the annotators who labelled it
// gave it, NoLabel when none has that many. O(k log k) time for k labels; labels is not changed.
func MajorityOf(labels []int32) Vote {
	given := make([]int32, 0, len(labels))
	for _, l := range labels {
		if l != NoLabel {
			given = append(given, l)
		}
	}
	v, l, ok := majority(runsOf(given, nil), len(given))
	if ok {
		v.Label = l
	}
	return v
}

// majority is the majority rule over one sample's runs (each class given and how many gave it;
// m annotators labelled it): the vote (its Label NoLabel, for the caller to fill) and the code
// of the class more than half gave (ok false: none).
func majority(runs []run, m int) (v Vote, code int32, ok bool) {
	v = Vote{Label: NoLabel, Annotators: int32(m)}
	for _, r := range runs {
		if r.count > v.Votes {
			v.Votes = r.count
			if 2*int(r.count) > m {
				code, ok = r.code, true
			}
		}
	}
	return v, code, ok
}

// votesFor returns how many annotators gave sample i the class code c.
func (p *Panel) votesFor(i int, c int32) (votes, annotators int32) {
	for _, x := range p.row(i) {
		if x >= 0 {
			annotators++
			if x == c {
				votes++
			}
		}
	}
	return votes, annotators
}

// Confusion is the table of two annotators' labels over the samples both labelled: Counts[r·C+c]
// samples were given Classes[r] by the first and Classes[c] by the second (C = len(Classes)).
type Confusion struct {
	Classes []int32
	Counts  []int64
}

// MaxConfusionClasses is the most classes Confusion tabulates (its table holds C² counts).
const MaxConfusionClasses = 4096

// Confusion returns the table of annotators a's (rows) and b's (columns) labels. O(N + C²).
// Errors: more than MaxConfusionClasses classes.
func (p *Panel) Confusion(a, b int) (*Confusion, error) {
	C := len(p.classes)
	if C > MaxConfusionClasses {
		return nil, fmt.Errorf("annotate: %d classes; a confusion table holds at most %d", C, MaxConfusionClasses)
	}
	m := &Confusion{Classes: p.classes, Counts: make([]int64, C*C)}
	for i := range p.n {
		x, y := p.codes[i*p.k+a], p.codes[i*p.k+b]
		if x >= 0 && y >= 0 {
			m.Counts[int(x)*C+int(y)]++
		}
	}
	return m, nil
}

// Cell returns the samples annotator a labelled x and annotator b labelled y (a cell of
// Confusion(a, b); NoLabel for either matches the samples that annotator left unlabelled),
// increasing. O(N).
func (p *Panel) Cell(a, b int, x, y int32) []int {
	var out []int
	for i := range p.n {
		if p.Label(i, a) == x && p.Label(i, b) == y {
			out = append(out, i)
		}
	}
	return out
}
