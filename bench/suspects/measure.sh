#!/bin/sh
# Measures the label-error scan: wall and CPU seconds, peak RSS, out-of-fold error, and planted
# label errors found (100 flips in t10k: how many rank in the top 100 and 200; 300 in the real
# 60,000-sample training set: top 300, 400 and 600), for two scan seeds and two planted sets
# (seeds chosen before looking at any result), then the t10k scan unplanted with a contact sheet
# of its top 100, 120,000 samples tiled from the training set (growth), the kNN scan, and the
# suggestion model's calibration (go test -bench Calibration). Every run holds the shared
# measurement lock. Run from the repository; the MNIST folder defaults to ../shared/data/mnist
# (or $IDXLABEL_MNIST); sheets and profiles go to $OUT (default /tmp).
set -eu
M=${IDXLABEL_MNIST:-../shared/data/mnist}
OUT=${OUT:-/tmp}
LOCK=/tmp/idxlabel-measure.lock
go build -o "$OUT/suspects-bench" ./bench/suspects
run() { # run IMAGES LABELS FLAGS…
  img=$1 lab=$2
  shift 2
  echo "== $(basename "$img") $*  (load: $(cut -d' ' -f1-3 /proc/loadavg))"
  flock "$LOCK" /usr/bin/time -f "wall %e s, user %U s, sys %S s, max RSS %M KB" "$OUT/suspects-bench" "$@" \
    "$M/$img" "$M/$lab" 2>&1 | grep -v '^  '
}
T10K="t10k-images-idx3-ubyte.gz t10k-labels-idx1-ubyte.gz"
TRAIN="train-images-idx3-ubyte.gz train-labels-idx1-ubyte.gz"
for s in "7 11" "8 12"; do
  set -- $s
  run $T10K -seed "$1" -plant 100 -plantseed "$2" -at 100,200 -top 10 -cpuprofile "$OUT/suspects-t10k-$1.prof"
  run $TRAIN -seed "$1" -plant 300 -plantseed "$2" -at 300,400,600 -top 10 -cpuprofile "$OUT/suspects-60k-$1.prof"
done
run $T10K -seed 7 -top 100 -sheet "$OUT/suspects-top100.png"
run $TRAIN -seed 7 -n 120000 -top 10 -cpuprofile "$OUT/suspects-120k.prof"
run $T10K -method knn -plant 100 -plantseed 11 -top 10
echo "== calibration of the suggestion model (t10k, 2,000 held-out digits, 4 draws)"
flock "$LOCK" go test -run '^$' -bench Calibration -benchtime 1x ./suspect | grep -E '^Benchmark'
