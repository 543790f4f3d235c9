// Command suggest measures labelling from scratch through the command line: starting from a
// set with no labels, it runs rounds of `idxlabel suggest --ask N`, answers each with the true
// labels (written into an int32 label file, −2147483648 for the samples not yet labelled), and
// after the rounds listed in -at runs `idxlabel suggest` and scores its suggestions against the
// truth: the share right, the mean confidence and the expected calibration error (10 bins).
// Each call's wall time, CPU time and peak RSS are printed. With -baseline it also scores the
// path the window took before (random labels, suspect.TrainModel, Model.Suggest) at the same
// numbers of labels.
//
// Usage: go run ./bench/suggest [-bin bin/idxlabel] [-asks 20,20,20,20,20] [-at LIST] [-seed 1]
// [-n 0] [-baseline] IMAGES LABELS
package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/csv"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
	"idxlabel/sample"
	"idxlabel/suspect"
)

func main() {
	bin := flag.String("bin", "bin/idxlabel", "the idxlabel program")
	asks := flag.String("asks", "20,20,20,20,20", "the --ask N of each round, in order")
	at := flag.String("at", "", "score the suggestions after the rounds that reach these numbers of labels (default: after the last round)")
	seed := flag.Uint64("seed", 1, "--seed of every call")
	n := flag.Int("n", 0, "use the first n samples (0: all)")
	baseline := flag.Bool("baseline", false, "also score random labels + suspect.TrainModel at the same numbers of labels")
	flag.Parse()
	if flag.NArg() != 2 {
		log.Fatal("usage: suggest [flags] IMAGES LABELS (-h lists the flags)")
	}
	images, labels, err := mnisttest.ReadPair(flag.Arg(0), flag.Arg(1))
	if err != nil {
		log.Fatal(err)
	}
	dim := images.Len() / images.Dims[0]
	if *n <= 0 || *n > images.Dims[0] {
		*n = images.Dims[0]
	}
	truth := make([]int, *n)
	for i := range truth {
		truth[i] = int(labels.Int(i * labelStride(labels)))
	}
	dir, err := os.MkdirTemp("", "suggest-bench-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	imgPath := flag.Arg(0)
	if *n != images.Dims[0] { // a subset: its own image file
		sub, err := idx.New(images.Type, append([]int{*n}, images.Dims[1:]...)...)
		if err != nil {
			log.Fatal(err)
		}
		copy(sub.Data, images.Data[:*n*dim])
		imgPath = filepath.Join(dir, "sub-images-idx3-ubyte")
		if err := idx.WriteFile(imgPath, sub); err != nil {
			log.Fatal(err)
		}
	}
	labPath := filepath.Join(dir, "typed-labels-idx1-int")
	given := make([]int, *n)
	for i := range given {
		given[i] = sample.NoLabel
	}
	var rounds, cuts []int
	for _, f := range strings.Split(*asks, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			log.Fatalf("-asks: %q is not a positive number", f)
		}
		rounds = append(rounds, v)
	}
	if *at != "" {
		for _, f := range strings.Split(*at, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || v < 1 {
				log.Fatalf("-at: %q is not a positive number", f)
			}
			cuts = append(cuts, v)
		}
	}
	total := 0
	for r, k := range rounds {
		if err := writeLabels(labPath, given); err != nil {
			log.Fatal(err)
		}
		out, u := run(*bin, "suggest", "--ask", strconv.Itoa(k), "--seed", strconv.FormatUint(*seed, 10), imgPath, labPath)
		rows := readCSV(out)
		if len(rows) == 0 || rows[0][0] != "index" {
			log.Fatalf("--ask printed no index header: %q", out)
		}
		classes := map[int]bool{}
		for _, row := range rows[1:] {
			i, err := strconv.Atoi(row[0])
			if err != nil || i < 0 || i >= *n || given[i] != sample.NoLabel {
				log.Fatalf("--ask printed %q: not an unlabelled sample", row[0])
			}
			given[i] = truth[i]
			total++
		}
		for _, l := range given {
			if l != sample.NoLabel {
				classes[l] = true
			}
		}
		fmt.Printf("round %d: asked %d (%d labels, %d classes) %s\n", r+1, len(rows)-1, total, len(classes), u)
		if (len(cuts) == 0 && r == len(rounds)-1) || contains(cuts, total) {
			if err := writeLabels(labPath, given); err != nil {
				log.Fatal(err)
			}
			out, u := run(*bin, "suggest", "--seed", strconv.FormatUint(*seed, 10), imgPath, labPath)
			acc, conf, ece, m := score(readCSV(out), given, truth)
			fmt.Printf("SCORE labels=%d seed=%d: %.2f%% right of %d, mean confidence %.2f%%, ECE %.3f; %s\n", total, *seed, 100*acc, m, 100*conf, ece, u)
			if *baseline {
				a := baselineScore(images, truth, dim, total, *seed)
				fmt.Printf("BASELINE labels=%d seed=%d (random labels, suspect.TrainModel): %.2f%% right\n", total, *seed, 100*a)
			}
		}
	}
}

// labelStride is the number of values per sample in a label file (QMNIST's N×8: column 0).
func labelStride(a *idx.Array) int {
	if len(a.Dims) == 2 {
		return a.Dims[1]
	}
	return 1
}

// writeLabels writes labels as an int32 IDX label file (sample.NoLabel for none).
func writeLabels(path string, labels []int) error {
	a, err := idx.New(idx.Int32, len(labels))
	if err != nil {
		return err
	}
	for i, l := range labels {
		binary.BigEndian.PutUint32(a.Data[4*i:], uint32(int32(l)))
	}
	return idx.WriteFile(path, a)
}

// usage is one call's cost.
type usage struct {
	wall, cpu time.Duration
	rssMB     float64
}

func (u usage) String() string {
	return fmt.Sprintf("[wall %.1f s, CPU %.1f s, peak RSS %.0f MB]", u.wall.Seconds(), u.cpu.Seconds(), u.rssMB)
}

// run runs the program and returns its stdout and cost; it exits on failure.
func run(bin string, args ...string) ([]byte, usage) {
	cmd := exec.Command(bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		log.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, errb.String())
	}
	u := usage{wall: time.Since(start), cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), rssMB: maxRSS(cmd.ProcessState)}
	return out.Bytes(), u
}

func readCSV(b []byte) [][]string {
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		log.Fatalf("output is not CSV: %v", err)
	}
	return rows
}

// score checks the suggestions (header index,suggested,confidence; every unlabelled sample
// once, most confident first) and returns the share right, the mean confidence, the expected
// calibration error over 10 bins, and the number scored.
func score(rows [][]string, given, truth []int) (acc, conf, ece float64, m int) {
	if len(rows) == 0 || strings.Join(rows[0], ",") != "index,suggested,confidence" {
		log.Fatal("suggest printed no index,suggested,confidence header")
	}
	seen := make([]bool, len(given))
	var bins [10][3]float64
	last := math.Inf(1)
	right := 0
	for _, row := range rows[1:] {
		i, err1 := strconv.Atoi(row[0])
		s, err2 := strconv.Atoi(row[1])
		c, err3 := strconv.ParseFloat(row[2], 64)
		if err1 != nil || err2 != nil || err3 != nil || i < 0 || i >= len(given) || seen[i] || given[i] != sample.NoLabel || !(c >= 0 && c <= 1) {
			log.Fatalf("suggest printed a bad row %q", row)
		}
		if c > last {
			log.Fatalf("suggest's rows are not most confident first at %q", row)
		}
		last = c
		seen[i] = true
		b := min(9, int(c*10))
		bins[b][0]++
		bins[b][1] += c
		if s == truth[i] {
			right++
			bins[b][2]++
		}
		conf += c
		m++
	}
	for i := range given {
		if given[i] == sample.NoLabel && !seen[i] {
			log.Fatalf("suggest left sample %d out", i)
		}
	}
	for _, b := range bins {
		if b[0] > 0 {
			ece += b[0] / float64(m) * math.Abs(b[1]/b[0]-b[2]/b[0])
		}
	}
	return float64(right) / float64(m), conf / float64(m), ece, m
}

// baselineScore labels k random samples, trains suspect.TrainModel on them and returns the share
// of the other samples its suggestions get right.
func baselineScore(images *idx.Array, truth []int, dim, k int, seed uint64) float64 {
	n := len(truth)
	rng := rand.New(rand.NewPCG(seed, 0xba5e))
	labels := make([]int, n)
	for i := range labels {
		labels[i] = sample.NoLabel
	}
	for _, i := range rng.Perm(n)[:k] {
		labels[i] = truth[i]
	}
	h, w := images.Dims[1], images.Dims[2]
	d := sample.Set{N: n, H: h, W: w, Labels: labels, Pixels: func(i int) []byte { return images.Data[i*dim : (i+1)*dim] }}
	m, err := suspect.TrainModel(context.Background(), d, suspect.CNNOptions{Seed: seed}, nil)
	if err != nil {
		log.Fatal(err)
	}
	var rest []int
	for i, l := range labels {
		if l == sample.NoLabel {
			rest = append(rest, i)
		}
	}
	list, err := m.Suggest(context.Background(), d, rest, nil)
	if err != nil {
		log.Fatal(err)
	}
	right := 0
	for _, s := range list {
		if s.Suggested == truth[s.Index] {
			right++
		}
	}
	return float64(right) / float64(len(list))
}

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}
