package numfmt

import "testing"

func TestSprintf(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 samples"}, {999, "999 samples"}, {5923, "5,923 samples"}, {1000000, "1,000,000 samples"}} {
		if got := Sprintf("%d samples", c.n); got != c.want {
			t.Errorf("%d: %q, want %q", c.n, got, c.want)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 samples"}, {1, "1 sample"}, {2, "2 samples"}, {10000, "10,000 samples"}} {
		if got := Plural(c.n, "sample"); got != c.want {
			t.Errorf("%d: %q, want %q", c.n, got, c.want)
		}
	}
}
