package report

import (
	"bytes"
	"encoding/csv"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"idxlabel/suspect/confusion"
)

// TestConfusionCSV writes a hand-worked matrix (classes 0–2; counts row 0 = [1 1 0],
// row 1 = [0 2 1], row 2 = [1 0 1]) with and without class names, one name needing quotes.
func TestConfusionCSV(t *testing.T) {
	labels := []int{0, 0, 1, 1, 1, 2, 2}
	pred := []int{0, 1, 1, 1, 2, 0, 2}
	probs := make([]float32, 7*3)
	for i, p := range pred {
		probs[i*3+p] = 1
	}
	m, err := confusion.New(labels, probs, []int{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteConfusionCSV(&b, m, nil); err != nil {
		t.Fatal(err)
	}
	want := "given,0,1,2\n0,1,1,0\n1,0,2,1\n2,1,0,1\n"
	if b.String() != want {
		t.Errorf("numbers:\n%s\nwant\n%s", b.String(), want)
	}
	names := map[int]string{0: "T-shirt/top", 1: `Trouser, "long"`}
	b.Reset()
	if err := WriteConfusionCSV(&b, m, func(c int) string { return names[c] }); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || recs[0][1] != "T-shirt/top" || recs[0][2] != `Trouser, "long"` || recs[0][3] != "2" ||
		recs[2][0] != `Trouser, "long"` || recs[2][2] != "2" {
		t.Errorf("names: %q", recs)
	}
}

func TestMapCSV(t *testing.T) {
	xy := []float32{0, 1.5, -3.25, 1e-7, float32(math.Pi), 12345.678}
	var b bytes.Buffer
	if err := WriteMapCSV(&b, xy); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 4 || lines[0] != "index,x,y" || lines[1] != "0,0,1.5" {
		t.Fatalf("map CSV:\n%s", b.String())
	}
	for i, l := range lines[1:] {
		f := strings.Split(l, ",")
		if f[0] != strconv.Itoa(i) {
			t.Errorf("row %d: index %q", i, f[0])
		}
		for a := range 2 {
			v, err := strconv.ParseFloat(f[1+a], 32)
			if err != nil || float32(v) != xy[2*i+a] {
				t.Errorf("row %d: %q reads back as %v, want %v", i, f[1+a], v, xy[2*i+a])
			}
		}
	}
	if err := WriteMapCSV(&b, xy[:3]); err == nil {
		t.Error("3 coordinates accepted")
	}
	if err := WriteMapCSV(failing{}, xy); !errors.Is(err, errFull) {
		t.Errorf("a failing writer: %v", err)
	}
}

var errFull = errors.New("disk full")

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errFull }

// A nil matrix (no scan ran) is an error, not a panic.
func TestWriteConfusionCSVNil(t *testing.T) {
	var b strings.Builder
	if err := WriteConfusionCSV(&b, nil, nil); err == nil || b.Len() != 0 {
		t.Fatalf("%v, %q", err, b.String())
	}
}
