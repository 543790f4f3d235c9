package builder

import (
	"bytes"
	"compress/gzip"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
)

// forgedImages writes an image file whose header declares n samples of side×side ubyte pixels
// and whose data is body (far less than that), gzip-compressed when gz.
func forgedImages(t *testing.T, path string, n, side int, body []byte, gz bool) {
	t.Helper()
	b := idx.AppendHeader(nil, idx.Header{Type: idx.UByte, Dims: []int{n, side, side}})
	b = append(b, body...)
	if gz {
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(b)
		w.Close()
		b = z.Bytes()
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A header that declares more data than its file holds costs no memory of that size: a plain
// file claiming 160 MB in 1,000 bytes and a small gzip file claiming the same are refused when
// opened, naming the file and the size declared; a gzip file whose claim is within what its
// size could hold (10 MB in 30 KB) gets as far as the write, which holds only the records it
// really read. Each is tried as merge, split and subset, shuffled and not, and every failure
// leaves the folder as it was. Before, a shuffled part allocated the size the header declared
// before reading a byte (160 MB here; 400 GB killed the process: "fatal error: runtime: out of
// memory").
func TestForgedHeadersCostNoMemory(t *testing.T) {
	dir := t.TempDir()
	labels, _ := idx.New(idx.UByte, 40)
	for i := range 40 {
		labels.Data[i] = byte(i % 4)
	}
	lp := filepath.Join(dir, "labels")
	if err := idx.WriteFile(lp, labels); err != nil {
		t.Fatal(err)
	}
	noise := make([]byte, 30000)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = byte(r.Uint32())
	}
	cases := []struct {
		name     string
		side     int
		body     []byte
		gz       bool
		openFail bool // refused by Open; else by Write
	}{
		{"plain", 2000, make([]byte, 1000), false, true},
		{"gzip", 2000, make([]byte, 1000), true, true},
		{"gzip-within-bound", 500, noise, true, false},
	}
	const most = 4 << 20 // far below the 10–160 MB declared
	for _, tc := range cases {
		ip := filepath.Join(dir, tc.name+"-images")
		forgedImages(t, ip, 40, tc.side, tc.body, tc.gz)
		before := entries(t, dir)
		out := func(tag string) Pair {
			return Pair{filepath.Join(dir, tag+"-i"), filepath.Join(dir, tag+"-l")}
		}
		plans := map[string]func(in *Input) (*Plan, error){
			"merge": func(in *Input) (*Plan, error) { return Merge([]*Input{in}, out("m")) },
			"split": func(in *Input) (*Plan, error) {
				return Split(in, out("a"), out("b"), SplitOptions{Test: 0.5, TestCount: -1, GroupColumn: -1, Shuffle: true})
			},
			"subset": func(in *Input) (*Plan, error) {
				return Subset(in, out("s"), SubsetOptions{Shuffle: true, Seed: 3}, func(string) {})
			},
			"subset-in-order": func(in *Input) (*Plan, error) { return Subset(in, out("s"), SubsetOptions{}, func(string) {}) },
		}
		for what, plan := range plans {
			var err error
			used := mnisttest.Allocated(func() {
				var in *Input
				if in, err = Open(Pair{ip, lp}); err != nil {
					return
				}
				if tc.openFail {
					t.Errorf("%s: opened, though its header declares more than the file holds", tc.name)
				}
				var p *Plan
				if p, err = plan(in); err != nil {
					return
				}
				claim := claimParts(t, p)
				_, err = Write(context.Background(), claim, p, nil)
				claim.Release()
			})
			if err == nil || !strings.Contains(err.Error(), ip) || !strings.Contains(err.Error(), "declares") {
				t.Errorf("%s, %s: error %v, want one naming %s and what its header declares", tc.name, what, err, ip)
			}
			if used > most {
				t.Errorf("%s, %s: %d bytes allocated for a file of %d bytes", tc.name, what, used, len(tc.body))
			}
			if got := entries(t, dir); got != before {
				t.Errorf("%s, %s: the folder holds %q, held %q", tc.name, what, got, before)
			}
		}
	}
}

// A shuffled part holds its records as they arrive and writes them in its own order: every
// record lands where the plan puts it, for records smaller and larger than a block.
func TestShuffledRecordsKeepTheirPlace(t *testing.T) {
	for _, size := range []int{3, 1 << 20, 3 << 20} {
		const n = 7
		r := newRecords(n, size)
		order := []int32{4, 0, 6, 2, 1, 5, 3}
		for _, k := range order {
			r.put(k, bytes.Repeat([]byte{byte(k)}, size))
		}
		for k := range n {
			if got := r.get(k); len(got) != size || got[0] != byte(k) || got[size-1] != byte(k) {
				t.Fatalf("size %d: position %d holds record %d", size, k, got[0])
			}
		}
	}
}
