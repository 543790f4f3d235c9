package annotate

import "math"

// Kappa is a chance-corrected agreement: κ = (Observed − Expected)/(1 − Expected), 1 for
// perfect agreement, 0 for what chance alone gives, negative for less.
type Kappa struct {
	N        int     // the samples it was computed over
	Observed float64 // the agreement observed (p_o; Fleiss: P̄)
	Expected float64 // the agreement chance would give with the annotators' class frequencies (p_e; Fleiss: P̄_e)
	// Value is κ; NaN when undefined: no sample (N = 0), or Expected = 1 (every label one
	// class, so agreement cannot exceed chance).
	Value float64
}

// kappa fills in Value from Observed and Expected.
func (k Kappa) kappa() Kappa {
	k.Value = math.NaN()
	if k.N > 0 && k.Expected < 1 {
		k.Value = (k.Observed - k.Expected) / (1 - k.Expected)
	}
	return k
}

// Cohen returns Cohen's κ of two annotators' labels of the same samples (NoLabel: none), over
// the samples both labelled: p_o the share of them given one class, p_e = Σ_c (a_c/n)(b_c/n)
// with a_c, b_c how often each gave class c there (Cohen 1960). Errors: the columns differ in
// length (*CountError).
func Cohen(a, b []int32) (Kappa, error) {
	p, err := NewPanel([]Column{{Name: "the first labels", Labels: a}, {Name: "the second labels", Labels: b}})
	if err != nil {
		return Kappa{}, err
	}
	return p.Cohen(0, 1), nil
}

// Cohen returns Cohen's κ between annotators a and b (see the function Cohen). O(N + C).
func (p *Panel) Cohen(a, b int) Kappa {
	na := make([]int64, len(p.classes))
	nb := make([]int64, len(p.classes))
	var n, agree int64
	for i := range p.n {
		x, y := p.codes[i*p.k+a], p.codes[i*p.k+b]
		if x < 0 || y < 0 {
			continue
		}
		n++
		na[x]++
		nb[y]++
		if x == y {
			agree++
		}
	}
	k := Kappa{N: int(n)}
	if n > 0 {
		k.Observed = float64(agree) / float64(n)
		for c := range na {
			k.Expected += float64(na[c]) / float64(n) * float64(nb[c]) / float64(n)
		}
	}
	return k.kappa()
}

// Summary is what a panel's labels say of its annotators' agreement.
type Summary struct {
	N          int   // samples
	Labelled   []int // per annotator, the samples it labelled
	Unlabelled int   // samples no annotator labelled
	// Compared counts the samples labelled by two or more annotators; Agreeing those of them
	// given one class by every annotator who labelled them.
	Compared, Agreeing int
	// Raw is Agreeing/Compared, the raw agreement (NaN when Compared is 0). For two annotators
	// it is Cohen's p_o.
	Raw float64
	// Cohen is Cohen's κ of the first two annotators (the one κ for two; see Panel.Cohen for
	// any pair of more).
	Cohen Kappa
	// Fleiss is Fleiss' κ over the samples every annotator labelled (Fleiss 1971: P̄ the mean
	// over them of Σ_j n_j(n_j − 1)/(k(k − 1)), P̄_e = Σ_j p_j² with p_j the share of their
	// labels of class j). With two annotators it is Scott's π, not Cohen's κ.
	Fleiss Kappa
	// Classes holds each class given, increasing; nil when more than MaxClassFigures were given.
	Classes []ClassAgreement
}

// ClassAgreement is one class's agreement over the samples labelled by two or more annotators.
type ClassAgreement struct {
	Class int32
	Given int64 // how many labels of the class were given to those samples
	// Agreement is the class's specific agreement: of the ordered pairs of annotators (a, b)
	// of one sample where a said Class, the share where b said it too, Σ n_c(n_c−1) / Σ n_c(m−1)
	// over the samples (n_c annotators said Class, m labelled it). NaN when no such pair.
	Agreement float64
	// Confused is the other class most often given to one sample together with Class (the
	// smaller on a tie; NoLabel when it never was), and ConfusedPairs how many annotator pairs
	// did so, Σ n_c·n_Confused over the samples.
	Confused      int32
	ConfusedPairs int64
}

// MaxClassFigures is the most classes Summary gives figures of one by one (Summary.Classes):
// the most confused class of each is found in a C×C table of the pairs of classes given to one
// sample (512 KB at this bound). Beyond it Classes is nil and the panel's own figures are
// computed all the same: label files of a million distinct labels would otherwise need a count
// for each of the tens of millions of pairs of classes that meet, and a record per class.
const MaxClassFigures = 256

// Summary returns the panel's agreement figures. O(N·k·log k) time; its memory is O(C), and the
// C×C table of the classes' figures when C ≤ MaxClassFigures.
func (p *Panel) Summary() Summary {
	C := len(p.classes)
	s := Summary{N: p.n, Labelled: make([]int, p.k)}
	perClass := C <= MaxClassFigures
	var same, pairs, given []int64 // per class: Σ n_c(n_c−1), Σ n_c(m−1), Σ n_c
	var met []int64                // C×C: classes given to one sample, pairs of annotators, smaller class first
	if perClass {
		same, pairs, given, met = make([]int64, C), make([]int64, C), make([]int64, C), make([]int64, C*C)
	}
	fleissCount := make([]int64, C) // labels of each class on the samples every annotator labelled
	var fleissP float64             // Σ over those samples of Σ_j n_j(n_j−1)
	scratch := make([]int32, 0, p.k)
	buf := make([]run, 0, p.k)
	for i := range p.n {
		for a, c := range p.row(i) {
			if c >= 0 {
				s.Labelled[a]++
			}
		}
		var m int
		buf, m = p.runs(i, scratch, buf)
		switch {
		case m == 0:
			s.Unlabelled++
			continue
		case m == 1:
			continue
		}
		s.Compared++
		if len(buf) == 1 {
			s.Agreeing++
		}
		var agreeingPairs int64
		for x, r := range buf {
			nc := int64(r.count)
			agreeingPairs += nc * (nc - 1)
			if perClass {
				same[r.code] += nc * (nc - 1)
				pairs[r.code] += nc * int64(m-1)
				given[r.code] += nc
				for _, o := range buf[x+1:] {
					met[int(r.code)*C+int(o.code)] += nc * int64(o.count)
				}
			}
		}
		if m == p.k {
			s.Fleiss.N++
			fleissP += float64(agreeingPairs)
			for _, r := range buf {
				fleissCount[r.code] += int64(r.count)
			}
		}
	}
	s.Raw = math.NaN()
	if s.Compared > 0 {
		s.Raw = float64(s.Agreeing) / float64(s.Compared)
	}
	s.Cohen = p.Cohen(0, 1)
	if s.Fleiss.N > 0 {
		nf := float64(s.Fleiss.N)
		s.Fleiss.Observed = fleissP / (nf * float64(p.k*(p.k-1)))
		for _, c := range fleissCount {
			pj := float64(c) / (nf * float64(p.k))
			s.Fleiss.Expected += pj * pj
		}
	}
	s.Fleiss = s.Fleiss.kappa()
	if !perClass {
		return s
	}
	best := make([]int64, C)
	with := make([]int32, C)
	for i := range with {
		with[i] = -1
	}
	for c := range C {
		for o := range C { // increasing: the smaller class wins a tie
			n := met[min(c, o)*C+max(c, o)]
			if c != o && n > best[c] {
				best[c], with[c] = n, int32(o)
			}
		}
	}
	for c, cls := range p.classes {
		ca := ClassAgreement{Class: cls, Given: given[c], Agreement: math.NaN(), Confused: NoLabel, ConfusedPairs: best[c]}
		if pairs[c] > 0 {
			ca.Agreement = float64(same[c]) / float64(pairs[c])
		}
		if with[c] >= 0 {
			ca.Confused = p.classes[with[c]]
		}
		s.Classes = append(s.Classes, ca)
	}
	return s
}
