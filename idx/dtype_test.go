package idx

import "testing"

// IntRange is the range an integer dtype stores exactly: both ends survive SetInt and Int, and
// one past either end does not (it wraps); floats have no integer range.
func TestIntRange(t *testing.T) {
	for _, dt := range DTypes {
		lo, hi, ok := dt.IntRange()
		if ok != dt.IsInteger() {
			t.Fatalf("%s: ok %v, IsInteger %v", dt, ok, dt.IsInteger())
		}
		if !ok {
			continue
		}
		a, err := New(dt, 4)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range []int64{lo, hi} {
			if a.SetInt(i, v); a.Int(i) != v {
				t.Errorf("%s: %d stored as %d", dt, v, a.Int(i))
			}
		}
		if dt == Int32 {
			continue // int64 values beyond int32 are not the point: an int32 holds every label
		}
		for i, v := range []int64{lo - 1, hi + 1} {
			if a.SetInt(2+i, v); a.Int(2+i) == v {
				t.Errorf("%s: %d, outside %d–%d, stored unchanged", dt, v, lo, hi)
			}
		}
	}
}
