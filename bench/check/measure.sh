#!/bin/sh
# Times the health check's kinds one benchmark per process (suspect/health's Benchmark*), each
# under /usr/bin/time for its wall time and peak RSS (the RSS includes the pixels: 7.8 MB at
# 10,000 samples, 47 MB at 60,000, 784 MB at 1,000,000; and at 1,000,000 the 60,000-sample
# source it is tiled from). Runs in the shared measurement lock. The MNIST folder defaults to
# ../shared/data/mnist (or $IDXLABEL_MNIST).
# Usage: bench/check/measure.sh [BENCHMARK_REGEXP]   (default: every benchmark but the CNN ones)
set -eu
pattern=${1:-'Duplicates|Leak|Outliers|DescriptorsAndIndex'}
go test -c -o /tmp/check-bench.test ./suspect/health
for b in $(/tmp/check-bench.test -test.list "Benchmark.*" | grep -E "$pattern"); do
  flock /tmp/idxlabel-measure.lock /usr/bin/time -f "$b: wall %e s, user %U s, max RSS %M KB" \
    /tmp/check-bench.test -test.run '^$' -test.bench "^$b\$" -test.benchtime 1x 2>&1 | grep -E "^Benchmark|wall"
done
