package suspect

import (
	"testing"

	"idxlabel/suspect/nn"
)

// TestVerdictTieIsNoSuspect: a label that is its sample's most probable class, or ties with it,
// below one half, is suggested back and not doubted; a label another class beats is doubted.
func TestVerdictTieIsNoSuspect(t *testing.T) {
	classes := []int{3, 5, 8}
	for _, c := range []struct {
		name    string
		cls     int
		p       []float32
		suggest int
		doubted bool
	}{
		{"label most probable below a half", 1, []float32{0.32, 0.34, 0.34}, 5, false},
		{"label tied with a lower class", 1, []float32{0.34, 0.34, 0.32}, 5, false},
		{"label tied with a higher class", 0, []float32{0.34, 0.32, 0.34}, 3, false},
		{"another class more probable", 1, []float32{0.30, 0.33, 0.37}, 8, true},
		{"label most probable above a half", 2, []float32{0.2, 0.2, 0.6}, 8, false},
	} {
		s := verdict(7, classes[c.cls], c.cls, c.p, classes)
		if s.Suggested != c.suggest || s.Doubted() != c.doubted {
			t.Errorf("%s: suggested %d, doubted %v; want %d, %v", c.name, s.Suggested, s.Doubted(), c.suggest, c.doubted)
		}
		if s.Score < 0.39 && c.name != "label most probable above a half" {
			t.Errorf("%s: score %v, want 1 − p(label)", c.name, s.Score)
		}
	}
}

// TestVoteTieIsNoSuspect: the kNN vote of a sample whose label has the largest share of its
// neighbours, though most disagree, suggests the label back and is not doubted; one whose
// neighbours mostly carry another label is doubted.
func TestVoteTieIsNoSuspect(t *testing.T) {
	// Sample 0 (label 4): neighbours 1–5 labelled 4, 4, 3, 9, 7 at equal distances: 60% disagree,
	// 4 the largest share. Sample 6 (label 4): neighbours labelled 9, 9, 9, 4, 3.
	labels := []int{4, 4, 4, 3, 9, 7, 4, 9, 9, 9}
	rows := [][]int32{{1, 2, 3, 4, 5}, {}, {}, {}, {}, {}, {7, 8, 9, 0, 3}, {}, {}, {}}
	g := &nn.Graph{K: 5}
	for _, r := range rows {
		for m := range 5 {
			j, d := int32(-1), float32(1e38)
			if m < len(r) {
				j, d = r[m], 1
			}
			g.Idx, g.Dist = append(g.Idx, j), append(g.Dist, d)
		}
	}
	of := map[int]Suspect{}
	for _, s := range vote(labels, g) {
		of[s.Index] = s
	}
	if s := of[0]; s.Score < 0.59 || s.Suggested != 4 || s.Doubted() {
		t.Errorf("sample 0: %+v; want score 0.6, suggested 4, not doubted", s)
	}
	if s := of[6]; s.Suggested != 9 || !s.Doubted() {
		t.Errorf("sample 6: %+v; want suggested 9, doubted", s)
	}
}
