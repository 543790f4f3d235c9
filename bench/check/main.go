// Command check measures the health check's quality on real MNIST: for each seed, t10k with
// planted cases (30 non-digits, 40 copies of its own digits, 40 copies of training digits and
// 100 flipped labels: fixture/planted) checked against the training set with the default CNN
// scan, it prints how many planted cases each kind finds (outliers in the top 50 and 100,
// copies and leaks paired with their sources, flipped labels in the top 100 and 200) and what
// else it lists; with -natural it checks the real files without plants (the natural findings:
// false positives, or real defects of MNIST) and the training set within for duplicates.
//
// Usage: go run ./bench/check [-seeds 101,102,103] [-folds 5] [-epochs 0] [-natural] [-mnist DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"idxlabel/fixture/mnisttest"
	"idxlabel/fixture/planted"
	"idxlabel/idx"
	"idxlabel/sample"
	"idxlabel/suspect"
	"idxlabel/suspect/health"
)

func main() {
	seeds := flag.String("seeds", "101,102,103", "planting seeds (comma-separated); each also seeds the CNN")
	folds := flag.Int("folds", 0, "CNN folds (0: the default)")
	epochs := flag.Int("epochs", 0, "CNN epochs (0: the default)")
	natural := flag.Bool("natural", false, "check the real files without plants instead")
	dir := flag.String("mnist", os.Getenv("IDXLABEL_MNIST"), "the MNIST folder (default ../shared/data/mnist)")
	flag.Parse()
	if *dir == "" {
		*dir = "../shared/data/mnist"
	}
	read := func(images, labels string) (*idx.Array, *idx.Array) {
		im, lb, err := mnisttest.ReadPair(*dir+"/"+images, *dir+"/"+labels)
		if err != nil {
			log.Fatal(err)
		}
		return im, lb
	}
	test, testLabels := read(mnisttest.TestImages, mnisttest.TestLabels)
	train, trainLabels := read(mnisttest.TrainImages, mnisttest.TrainLabels)
	trainData := data(train.Data, ints(trainLabels.Data))
	if *natural {
		runNatural(data(test.Data, ints(testLabels.Data)), trainData, *folds, *epochs)
		return
	}
	for _, f := range strings.Split(*seeds, ",") {
		seed, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			log.Fatal(err)
		}
		p := planted.Plant(rand.New(rand.NewPCG(seed, 2049)), test.Data, testLabels.Data, 10000, train.Data, trainLabels.Data, 60000,
			planted.Plan{Outliers: 30, Duplicates: 40, Leaks: 40, Flips: 100})
		start := time.Now()
		res, err := health.Run(context.Background(), data(p.Pixels, p.Labels), &trainData,
			health.Options{CNN: suspect.CNNOptions{Seed: seed, Folds: *folds, Epochs: *epochs}}, nil, nil)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("seed %d: %.1f s, out-of-fold error %.2f%%\n", seed, time.Since(start).Seconds(), 100*res.Scan.Error)
		report(res, p)
	}
}

// report prints what each kind found of the planted cases.
func report(res *health.Result, p *planted.Set) {
	top := func(k health.Kind, n int, in func(int) bool) int {
		c := 0
		for _, f := range res.Findings[k][:min(n, len(res.Findings[k]))] {
			if in(f.Index) {
				c++
			}
		}
		return c
	}
	isOutlier := func(i int) bool { _, ok := p.Outliers[i]; return ok }
	var missed []string
	order := res.Findings[health.Outlier]
	for i, kind := range p.Outliers {
		r := slices.IndexFunc(order, func(f health.Finding) bool { return f.Index == i })
		if r >= 50 {
			missed = append(missed, fmt.Sprintf("%s@%d", kind, r+1))
		}
	}
	slices.Sort(missed)
	flaggedPlanted := 0
	for _, f := range order {
		if f.Score >= health.FlagOutlier && isOutlier(f.Index) {
			flaggedPlanted++
		}
	}
	fmt.Printf("  outlier: %d/30 in the top 50, %d/30 in the top 100; flagged %d (%d planted); below 50: %v\n",
		top(health.Outlier, 50, isOutlier), top(health.Outlier, 100, isOutlier), res.Flagged[health.Outlier], flaggedPlanted, missed)
	pairs := map[[2]int]bool{}
	for _, f := range res.Findings[health.Duplicate] {
		pairs[[2]int{f.Index, f.Other}] = true
	}
	dup := 0
	for at, src := range p.Duplicates {
		if pairs[[2]int{min(at, src), max(at, src)}] {
			dup++
		}
	}
	fmt.Printf("  duplicate: %d/%d planted copies paired with their source; %d pairs listed\n", dup, len(p.Duplicates), len(res.Findings[health.Duplicate]))
	leaks := map[int]int{}
	for _, f := range res.Findings[health.Leak] {
		leaks[f.Index] = f.Other
	}
	leak := 0
	for at, src := range p.Leaks {
		if o, ok := leaks[at]; ok && o == src {
			leak++
		}
	}
	fmt.Printf("  leak: %d/%d planted leaks paired with their source; %d listed\n", leak, len(p.Leaks), len(res.Findings[health.Leak]))
	isFlip := func(i int) bool { _, ok := p.Flips[i]; return ok }
	fmt.Printf("  label: %d/100 flipped labels in the top 100, %d in the top 200; flagged %d\n",
		top(health.Label, 100, isFlip), top(health.Label, 200, isFlip), res.Flagged[health.Label])
}

// runNatural checks the real t10k against the training set, and the training set within for
// duplicates, and prints what each kind lists.
func runNatural(test, train sample.Set, folds, epochs int) {
	start := time.Now()
	res, err := health.Run(context.Background(), test, &train, health.Options{CNN: suspect.CNNOptions{Folds: folds, Epochs: epochs}}, nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("t10k against the training set: %.1f s, out-of-fold error %.2f%%\n", time.Since(start).Seconds(), 100*res.Scan.Error)
	for _, k := range res.Kinds {
		fmt.Printf("  %s: %d flagged", k, res.Flagged[k])
		if k == health.Duplicate || k == health.Leak {
			for _, f := range res.Findings[k] {
				fmt.Printf(" %d~%d(%.4f)", f.Index, f.Other, f.Score)
			}
		}
		fmt.Println()
	}
	start = time.Now()
	res, err = health.Run(context.Background(), train, nil, health.Options{Kinds: []health.Kind{health.Duplicate}}, nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("training set within: %.1f s: %d duplicate pairs:", time.Since(start).Seconds(), res.Flagged[health.Duplicate])
	for _, f := range res.Findings[health.Duplicate] {
		fmt.Printf(" %d~%d(%.4f)", f.Index, f.Other, f.Score)
	}
	fmt.Println()
}

func ints(b []byte) []int {
	out := make([]int, len(b))
	for i, v := range b {
		out[i] = int(v)
	}
	return out
}

func data(px []byte, labels []int) sample.Set {
	return sample.Set{N: len(labels), H: 28, W: 28, Pixels: func(i int) []byte { return px[i*784 : (i+1)*784] }, Labels: labels}
}
