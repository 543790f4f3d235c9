#!/bin/sh
# Measures the 2-D map and the confusion matrix as issue 21 asks, on the real MNIST files: t10k
# (scan + map, agreement against 2-D PCA baselines), train+t10k (70,000: scan + map, time and
# peak RSS), 1,000,000 samples tiled from the 70,000-sample scan's features (a pool laid out,
# the rest placed), then the go benchmarks of one map frame, the lasso and the confusion matrix.
# Each run is timed by /usr/bin/time (wall, user seconds, peak RSS). Take the shared lock
# around it on a shared machine: flock /tmp/idxlabel-measure.lock bench/map/measure.sh
# The MNIST folder defaults to ../shared/data/mnist (or $IDXLABEL_MNIST); outputs (CSV, PNG,
# the saved scan) go to $OUT (default /tmp).
set -eu
M=${IDXLABEL_MNIST:-../shared/data/mnist}
OUT=${OUT:-/tmp}
go build -o "$OUT/map-bench" ./bench/map
T="$M/t10k-images-idx3-ubyte.gz $M/t10k-labels-idx1-ubyte.gz"
A="$M/train-images-idx3-ubyte.gz $M/train-labels-idx1-ubyte.gz $T"
run() {
  echo "== $*"
  /usr/bin/time -f "wall %e s, user %U s, max RSS %M KB" "$OUT/map-bench" "$@"
}
# shellcheck disable=SC2086 # the file lists split on purpose
run -csv "$OUT/t10k" -png "$OUT/t10k" $T
# shellcheck disable=SC2086
run -save "$OUT/map-70k" -csv "$OUT/70k" -png "$OUT/70k" $A
# shellcheck disable=SC2086
run -load "$OUT/map-70k" -n 1000000 $A
go test -run '^$' -bench . -benchmem ./plot ./suspect/confusion ./suspect/embed
