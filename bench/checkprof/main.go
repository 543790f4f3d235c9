// Command checkprof runs the health check (suspect/health.Run, as `idxlabel check` runs it) on
// an IDX pair and says where its time and memory go: at each change of kind or stage it prints
// the wall time, the process's CPU time (user + system), the Go heap in use and the resident
// memory (VmRSS, and the peak so far, VmHWM); with -cpuprofile a CPU profile of the whole run,
// with -memprofile PREFIX a heap profile (PREFIX-N-kind-stage.pprof) at each change, the heap
// as the stage before it left it.
//
// Usage: checkprof [-kinds duplicate,outlier] [-cpuprofile FILE] [-memprofile PREFIX]
// [-folds 3] [-seeds 2] [-epochs 0] IMAGES LABELS
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"idxlabel/store"
	"idxlabel/suspect"
	"idxlabel/suspect/health"
)

func main() {
	kinds := flag.String("kinds", "duplicate,outlier", "the kinds to run")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	memprofile := flag.String("memprofile", "", "write a heap profile at each stage, named PREFIX-N-kind-stage.pprof")
	folds := flag.Int("folds", 3, "CNN folds")
	seeds := flag.Int("seeds", 2, "CNN seeds")
	epochs := flag.Int("epochs", 0, "CNN epochs (0: the default)")
	flag.Parse()
	if flag.NArg() != 2 {
		log.Fatal("usage: checkprof [-kinds K] [-cpuprofile F] [-memprofile P] IMAGES LABELS")
	}
	ks, err := health.ParseKinds(*kinds)
	if err != nil {
		log.Fatal(err)
	}
	start := time.Now()
	ds, err := store.Open(flag.Arg(0), flag.Arg(1), store.Options{ReadOnly: true})
	if err != nil {
		log.Fatal(err)
	}
	defer ds.Close()
	set := ds.Snapshot()
	line("open", start)
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
		// Ctrl+C (or kill -INT) ends the run with the profile so far written.
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, os.Interrupt)
		go func() {
			<-sig
			line("interrupted", start)
			pprof.StopCPUProfile()
			os.Exit(1)
		}()
	}
	last, n, tenth := "", 0, -1
	progress := func(p health.Progress) {
		at := string(p.Kind) + "-" + p.Stage
		if p.CNN != nil && int(10*p.Done) != tenth { // the scan: a line per 10% of it
			tenth = int(10 * p.Done)
			line(fmt.Sprintf("%s %d%% (fold %d/%d)", at, 10*tenth, p.CNN.Fold, p.CNN.Folds), start)
		}
		if at == last {
			return
		}
		last = at
		n++
		if p.CNN == nil {
			line(at, start)
		}
		if *memprofile != "" {
			f, err := os.Create(fmt.Sprintf("%s-%02d-%s.pprof", *memprofile, n, strings.ReplaceAll(at, " ", "_")))
			if err != nil {
				log.Fatal(err)
			}
			if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
				log.Fatal(err)
			}
			f.Close()
		}
	}
	res, err := health.Run(context.Background(), set, nil, health.Options{Kinds: ks, Top: 100,
		CNN: suspect.CNNOptions{Folds: *folds, Seeds: *seeds, Epochs: *epochs, Seed: 1}}, progress, nil)
	if err != nil {
		log.Fatal(err)
	}
	line("done", start)
	for _, k := range res.Kinds {
		fmt.Printf("%s: %d flagged\n", k, res.Flagged[k])
	}
	if res.Scan != nil {
		fmt.Printf("scan: out-of-fold error %.2f%% (networks alone %.2f%%)\n", 100*res.Scan.Error, 100*res.Scan.CNNError)
	}
}

// line prints the time since start, the CPU time, the Go heap in use and the resident memory.
func line(stage string, start time.Time) {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rss, hwm := status("VmRSS:"), status("VmHWM:")
	fmt.Printf("%7.1f s wall %7.1f s CPU  heap %6.0f MB  RSS %6.0f MB  peak %6.0f MB  %s\n",
		time.Since(start).Seconds(), cpu.Seconds(), float64(ms.HeapInuse)/(1<<20), rss/1024, hwm/1024, stage)
}

// status returns a /proc/self/status field in kB (0 when absent).
func status(field string) float64 {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, field) {
			var kb float64
			fmt.Sscan(strings.TrimSpace(strings.TrimPrefix(l, field)), &kb)
			return kb
		}
	}
	return 0
}
