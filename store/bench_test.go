package store

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
	"idxlabel/pairfile"
)

// pairs caches the benchmark pairs by size and compression, written once per run.
var pairs = map[string][2]string{}

func benchPair(b *testing.B, n int, gz bool) (string, string) {
	key := strconv.Itoa(n) + strconv.FormatBool(gz)
	if p, ok := pairs[key]; ok {
		return p[0], p[1]
	}
	dir, err := os.MkdirTemp("", "storebench")
	if err != nil {
		b.Fatal(err)
	}
	// The real t10k files, shifted copies past 10,000 (mnisttest.Build): benchmarks measure on
	// real data, and skip without it.
	images, labels := mnisttest.Load(b)
	if n != images.Dims[0] {
		images, labels = mnisttest.Build(b, images, labels, n)
	}
	suffix := ""
	if gz {
		suffix = ".gz"
	}
	ip, lp := filepath.Join(dir, "t10k-images-idx3-ubyte"+suffix), filepath.Join(dir, "t10k-labels-idx1-ubyte"+suffix)
	if err := idx.WriteFile(ip, images); err != nil {
		b.Fatal(err)
	}
	if err := idx.WriteFile(lp, labels); err != nil {
		b.Fatal(err)
	}
	pairs[key] = [2]string{ip, lp}
	return ip, lp
}

func benchOpen(b *testing.B, n int, gz bool) {
	ip, lp := benchPair(b, n, gz)
	b.ResetTimer()
	for b.Loop() {
		d, err := Open(ip, lp, Options{})
		if err != nil {
			b.Fatal(err)
		}
		d.Close()
	}
}

func BenchmarkOpenT10kGzip(b *testing.B) { benchOpen(b, 10000, true) }
func BenchmarkOpen60kGzip(b *testing.B)  { benchOpen(b, 60000, true) }
func BenchmarkOpen60kRaw(b *testing.B)   { benchOpen(b, 60000, false) }

func benchSave(b *testing.B, gz bool) {
	ip, lp := benchPair(b, 60000, gz)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	dir := b.TempDir()
	b.ResetTimer()
	for k := 0; b.Loop(); k++ {
		if err := d.Relabel([]int{0}, (d.Label(0)+1)%10); err != nil {
			b.Fatal(err)
		}
		// Save As to another pair each time, so that both files are written (a Save that
		// changed only labels writes the label file alone: BenchmarkSaveLabelsOnly60kGzip).
		to := filepath.Join(dir, strconv.Itoa(k%2))
		if err := saveAs(d, to+"-images-idx3-ubyte"+filepath.Ext(ip), to+"-labels-idx1-ubyte"+filepath.Ext(lp), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSave60kRaw and BenchmarkSave60kGzip time a whole paired save of 60,000 samples to new
// files: build, write both files to temporary names, fsync, decode back and compare, rename
// (with the backup links and manifest), plus the relabel that makes it dirty.
func BenchmarkSave60kRaw(b *testing.B)  { benchSave(b, false) }
func BenchmarkSave60kGzip(b *testing.B) { benchSave(b, true) }

// BenchmarkRelabel times one relabel of one sample, journal append and fsync included.
func BenchmarkRelabel(b *testing.B) {
	ip, lp := benchPair(b, 60000, true)
	d, err := Open(ip, lp, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer func() { d.DiscardJournal(false); d.Close(); os.Remove(lp + pairfile.JournalSuffix) }()
	i := 0
	for b.Loop() {
		if err := d.Relabel([]int{i % 60000}, (d.Label(i%60000)+1)%10); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// rssBytes reads this process's resident set size from /proc (Linux); 0 elsewhere.
func rssBytes() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			kb, _ := strconv.ParseInt(strings.Fields(l)[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// benchMemory opens an n-sample raw pair and reports the resident memory the open dataset adds
// (after garbage collection, memory returned to the OS), against the pixel data alone.
func benchMemory(b *testing.B, n int) {
	ip, lp := benchPair(b, n, false)
	for b.Loop() {
		runtime.GC()
		debug.FreeOSMemory()
		before := rssBytes()
		d, err := Open(ip, lp, Options{})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		debug.FreeOSMemory()
		grown := rssBytes() - before
		pixels := int64(n) * 784
		b.ReportMetric(float64(grown)/(1<<20), "rss-MB")
		b.ReportMetric(float64(pixels)/(1<<20), "pixels-MB")
		b.ReportMetric(float64(grown-pixels)/float64(n), "overhead-B/sample")
		runtime.KeepAlive(d)
		d.Close()
	}
}

func BenchmarkMemory60k(b *testing.B) { benchMemory(b, 60000) }
func BenchmarkMemory1M(b *testing.B)  { benchMemory(b, 1000000) }
