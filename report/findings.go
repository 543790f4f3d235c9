package report

import (
	"slices"
	"strconv"

	"idxlabel/sample"
	"idxlabel/suspect/health"
)

// Findings turns a health check's result into a Report: each kind run, with its flagged
// count, description and findings (as many as the result kept), the samples' pixels and labels
// taken from s (the checked set, in the order the check saw it: finding k is sample k of s) and
// other (the set a leak was found in; nil when none), and the class histogram of s's labels.
// Class names come from s.ClassName. facts are shown under the title.
func Findings(title string, facts [][2]string, res *health.Result, s sample.Set, other *sample.Set) Report {
	h, w := s.ShownSize()
	r := Report{Title: title, Facts: facts, H: h, W: w}
	label := func(c int) string {
		if c == sample.NoLabel {
			return ""
		}
		return strconv.Itoa(c)
	}
	for _, k := range res.Kinds {
		rk := Kind{Name: string(k), Description: k.Description(), ScoreNote: k.ScoreNote(), Flagged: res.Flagged[k]}
		for _, f := range res.Findings[k] {
			rf := Finding{Index: s.Number(f.Index), Other: -1, Label: label(f.Label), Suggested: label(f.Suggested),
				Score: f.Score, Pixels: s.Shown(f.Index, nil)}
			switch {
			case k == health.Duplicate:
				rf.Other, rf.OtherPixels, rf.OtherLabel = s.Number(f.Other), s.Shown(f.Other, nil), label(s.Labels[f.Other])
			case k == health.Leak && other != nil:
				rf.Other, rf.OtherPixels = other.Number(f.Other), other.Shown(f.Other, nil)
				if other.Labels != nil {
					rf.OtherLabel = label(other.Labels[f.Other])
				}
			}
			rk.Findings = append(rk.Findings, rf)
		}
		r.Kinds = append(r.Kinds, rk)
	}
	counts := map[int]int{}
	var classes []int
	for _, c := range s.Labels {
		if c == sample.NoLabel {
			continue
		}
		if counts[c] == 0 {
			classes = append(classes, c)
		}
		counts[c]++
	}
	slices.Sort(classes)
	for _, c := range classes {
		name := strconv.Itoa(c)
		if s.ClassName != nil {
			if n := s.ClassName(c); n != "" && n != name {
				name += " " + n
			}
		}
		r.Classes = append(r.Classes, ClassCount{Class: name, Count: counts[c]})
	}
	return r
}
