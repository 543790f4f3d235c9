// Command suggest measures labelling from scratch through the command line: starting from a
// set with no labels, it runs rounds of `idxlabel suggest --ask N`, answers each with the true
// labels (written into an int32 label file, −2147483648 for the samples not yet labelled), and
// after the rounds listed in -at runs `idxlabel suggest` (and with -fast `suggest --fast`) and
// scores its suggestions against the truth: the share right, the mean confidence and the
// expected calibration error (10 bins). The images are copied into a temporary folder first,
// so the features the first call learns and keeps beside them (IMAGES.idxlabel-space) go there
// and every later call reads them. Each call's wall time, CPU time and peak RSS are printed.
//
// With -accept P, after the last scoring it accepts every suggestion at confidence P or more
// (their labels written into the label file, their rows into a CSV for --accepted), runs
// `suggest --accepted` and scores the rest: the calibration after an accept. With -protocol
// TEST_IMAGES TEST_LABELS (the semi-supervised papers' protocol) it then trains one network
// (package cnn, ScanCNN's recipe, 12 epochs) on every sample with its label typed or suggested,
// and one on the true labels, and prints their errors on the test pair. With -baseline it also
// scores the path the window took before (random labels, suspect.TrainModel, Model.Suggest) at
// the same numbers of labels.
//
// Usage: go run ./bench/suggest [-bin bin/idxlabel] [-asks 20,20,20,20,20] [-at LIST] [-seed 1]
// [-n 0] [-fast] [-accept P] [-protocol TEST_IMAGES,TEST_LABELS] [-baseline] IMAGES LABELS
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
	"slices"
	"strconv"
	"strings"
	"time"

	"idxlabel/fixture/mnisttest"
	"idxlabel/idx"
	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/cnn"
)

func main() {
	bin := flag.String("bin", "bin/idxlabel", "the idxlabel program")
	asks := flag.String("asks", "20,20,20,20,20", "the --ask N of each round, in order")
	at := flag.String("at", "", "score the suggestions after the rounds that reach these numbers of labels (default: after the last round)")
	seed := flag.Uint64("seed", 1, "--seed of every call")
	n := flag.Int("n", 0, "use the first n samples (0: all)")
	baseline := flag.Bool("baseline", false, "also score random labels + suspect.TrainModel at the same numbers of labels")
	fast := flag.Bool("fast", false, "also score suggest --fast (the first suggestions)")
	accept := flag.Float64("accept", -1, "after the last scoring, accept the suggestions at this confidence or more and score suggest --accepted on the rest")
	protocol := flag.String("protocol", "", "TEST_IMAGES,TEST_LABELS: train a network on the labels typed and suggested, and one on the truth, and print their errors there")
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
	// The images (or the first n) get a file of their own in the temporary folder: the space
	// the first call keeps beside them goes there, never beside the originals.
	sub, err := idx.New(images.Type, append([]int{*n}, images.Dims[1:]...)...)
	if err != nil {
		log.Fatal(err)
	}
	copy(sub.Data, images.Data[:*n*dim])
	imgPath := filepath.Join(dir, "bench-images-idx3-ubyte")
	if err := idx.WriteFile(imgPath, sub); err != nil {
		log.Fatal(err)
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
	var last [][]string // the last scored suggestions
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
			if *fast {
				out, u := run(*bin, "suggest", "--fast", "--seed", strconv.FormatUint(*seed, 10), imgPath, labPath)
				acc, conf, ece, m := score(readCSV(out), given, truth, nil)
				fmt.Printf("FAST labels=%d seed=%d: %.2f%% right of %d, mean confidence %.2f%%, ECE %.3f; %s\n", total, *seed, 100*acc, m, 100*conf, ece, u)
			}
			out, u := run(*bin, "suggest", "--seed", strconv.FormatUint(*seed, 10), imgPath, labPath)
			rows := readCSV(out)
			acc, conf, ece, m := score(rows, given, truth, nil)
			fmt.Printf("SCORE labels=%d seed=%d: %.2f%% right of %d, mean confidence %.2f%%, ECE %.3f; %s\n", total, *seed, 100*acc, m, 100*conf, ece, u)
			last = rows
			if *baseline {
				a := baselineScore(images, truth, dim, total, *seed)
				fmt.Printf("BASELINE labels=%d seed=%d (random labels, suspect.TrainModel): %.2f%% right\n", total, *seed, 100*a)
			}
		}
	}
	if *protocol != "" && last != nil {
		protocolErrors(*protocol, images, dim, last, given, truth, *seed)
	}
	if *accept >= 0 && last != nil {
		afterAccept(*bin, imgPath, labPath, dir, *seed, *accept, last, given, truth)
	}
}

// protocolErrors is the semi-supervised papers' protocol: a network (package cnn, ScanCNN's
// recipe: label smoothing 0.1, 12 epochs of batches of 64 under the one-cycle schedule, the
// random warps) trained on every sample with its typed label or its suggested one (rows), and
// one trained on the true labels, each scored on the test pair named in spec
// ("IMAGES,LABELS").
func protocolErrors(spec string, images *idx.Array, dim int, rows [][]string, given, truth []int, seed uint64) {
	files := strings.Split(spec, ",")
	if len(files) != 2 {
		log.Fatalf("-protocol %q: TEST_IMAGES,TEST_LABELS", spec)
	}
	testImages, testLabels, err := mnisttest.ReadPair(files[0], files[1])
	if err != nil {
		log.Fatal(err)
	}
	full := slices.Clone(given)
	for _, row := range rows[1:] {
		i, _ := strconv.Atoi(row[0])
		full[i], _ = strconv.Atoi(row[1])
	}
	right := 0
	for i, l := range full {
		if l == truth[i] {
			right++
		}
	}
	fmt.Printf("PROTOCOL: %d training samples labelled, %.2f%% of them right\n", len(full), 100*float64(right)/float64(len(full)))
	nt := testImages.Dims[0]
	test := make([]int, nt)
	for i := range test {
		test[i] = i
	}
	for _, c := range []struct {
		name   string
		labels []int
	}{{"labels typed and suggested", full}, {"the true labels", truth}} {
		px := func(i int) []byte { return images.Data[i*dim : (i+1)*dim] }
		all := make([]int, len(c.labels))
		for i := range all {
			all[i] = i
		}
		start := time.Now()
		net, err := cnn.Train(context.Background(), cnn.Samples{Pixels: px, Labels: c.labels}, all, 10, cnn.Config{Epochs: 12, LabelSmoothing: 0.1},
			rand.New(rand.NewPCG(seed, 0x9a9e)), nil)
		if err != nil {
			log.Fatal(err)
		}
		probs := make([]float32, nt*10)
		tpx := func(i int) []byte { return testImages.Data[i*784 : (i+1)*784] }
		if err := net.Probabilities(context.Background(), cnn.Samples{Pixels: tpx}, test, probs); err != nil {
			log.Fatal(err)
		}
		wrong := 0
		for i := range nt {
			b := 0
			for k := range 10 {
				if probs[i*10+k] > probs[i*10+b] {
					b = k
				}
			}
			if b != int(testLabels.Int(i*labelStride(testLabels))) {
				wrong++
			}
		}
		fmt.Printf("PROTOCOL: a network trained on %s: %.2f%% error on the %d test samples (%.0f s)\n", c.name, 100*float64(wrong)/float64(nt), nt, time.Since(start).Seconds())
	}
}

// afterAccept accepts the suggestions rows at confidence p or more (their labels into given and
// the label file, their rows into a CSV for --accepted), runs suggest --accepted and scores
// the rest, beside the part below p of the suggestions before.
func afterAccept(bin, imgPath, labPath, dir string, seed uint64, p float64, rows [][]string, given, truth []int) {
	var acc []byte
	acc = append(acc, "index\n"...)
	accepted := 0
	for _, row := range rows[1:] {
		c, _ := strconv.ParseFloat(row[2], 64)
		if c < p {
			continue
		}
		i, _ := strconv.Atoi(row[0])
		given[i], _ = strconv.Atoi(row[1])
		acc = append(acc, row[0]+"\n"...)
		accepted++
	}
	before, beforeConf, beforeECE, m := score(rows, nil, truth, func(c float64) bool { return c < p })
	fmt.Printf("BEFORE accept at %.2f: the %d below it: %.2f%% right, mean confidence %.2f%%, ECE %.3f (a calibrated model of these confidences: %.3f)\n",
		p, m, 100*before, 100*beforeConf, beforeECE, eceFloor(rows, func(c float64) bool { return c < p }))
	accPath := filepath.Join(dir, "accepted.csv")
	if err := os.WriteFile(accPath, acc, 0o644); err != nil {
		log.Fatal(err)
	}
	if err := writeLabels(labPath, given); err != nil {
		log.Fatal(err)
	}
	right := 0
	for i, l := range given {
		if l != sample.NoLabel && l == truth[i] {
			right++
		}
	}
	out, u := run(bin, "suggest", "--accepted", accPath, "--seed", strconv.FormatUint(seed, 10), imgPath, labPath)
	rest := readCSV(out)
	a, conf, ece, m := score(rest, given, truth, nil)
	fmt.Printf("AFTER accepting %d at %.2f (labels now %d, %.2f%% of them right): %.2f%% right of the %d left, mean confidence %.2f%%, ECE %.3f (a calibrated model of these confidences: %.3f); %s\n",
		accepted, p, len(given)-m, 100*float64(right)/float64(len(given)-m), 100*a, m, 100*conf, ece, eceFloor(rest, nil), u)
}

// eceFloor returns the mean ECE (10 bins) a perfectly calibrated model with the confidences of
// rows (those keep accepts; nil: all) would show, its outcomes drawn 200 times (each right with
// the probability its confidence says): the sampling noise below which no model's ECE on these
// samples can be told from 0.
func eceFloor(rows [][]string, keep func(float64) bool) float64 {
	var conf []float64
	for _, row := range rows[1:] {
		c, _ := strconv.ParseFloat(row[2], 64)
		if keep == nil || keep(c) {
			conf = append(conf, c)
		}
	}
	if len(conf) == 0 {
		return 0
	}
	rng := rand.New(rand.NewPCG(7, 7))
	var sum float64
	const draws = 200
	for range draws {
		var bins [10][3]float64
		for _, c := range conf {
			b := min(9, int(c*10))
			bins[b][0]++
			bins[b][1] += c
			if rng.Float64() < c {
				bins[b][2]++
			}
		}
		for _, b := range bins {
			if b[0] > 0 {
				sum += math.Abs(b[1]-b[2]) / float64(len(conf))
			}
		}
	}
	return sum / draws
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

// score checks the suggestions (header index,suggested,confidence; with given, every sample
// unlabelled there once, most confident first) and returns, over the rows keep accepts (nil:
// all), the share right, the mean confidence, the expected calibration error over 10 bins, and
// the number scored.
func score(rows [][]string, given, truth []int, keep func(confidence float64) bool) (acc, conf, ece float64, m int) {
	if len(rows) == 0 || strings.Join(rows[0], ",") != "index,suggested,confidence" {
		log.Fatal("suggest printed no index,suggested,confidence header")
	}
	seen := make([]bool, len(truth))
	var bins [10][3]float64
	last := math.Inf(1)
	right := 0
	for _, row := range rows[1:] {
		i, err1 := strconv.Atoi(row[0])
		s, err2 := strconv.Atoi(row[1])
		c, err3 := strconv.ParseFloat(row[2], 64)
		if err1 != nil || err2 != nil || err3 != nil || i < 0 || i >= len(truth) || seen[i] || given != nil && given[i] != sample.NoLabel || !(c >= 0 && c <= 1) {
			log.Fatalf("suggest printed a bad row %q", row)
		}
		if c > last {
			log.Fatalf("suggest's rows are not most confident first at %q", row)
		}
		last = c
		seen[i] = true
		if keep != nil && !keep(c) {
			continue
		}
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
	return float64(right) / float64(max(m, 1)), conf / float64(max(m, 1)), ece, m
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
