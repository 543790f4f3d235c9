#!/bin/sh
# Measures the suspect scans as issue 12 asks: t10k with both methods (time, out-of-fold and
# leave-one-out error, contact sheets of the top 100), t10k with 100 planted label errors (how
# many each method ranks in its top 100 and 200, and how many suggestions restore the label),
# and 60,000 samples built from t10k (CNN, default epochs). Each run is timed by /usr/bin/time:
# wall and user seconds, peak RSS. Run from the repository; the MNIST folder defaults to
# ../shared/data/mnist (or $IDXLABEL_MNIST); sheets go to $OUT (default /tmp).
set -eu
M=${IDXLABEL_MNIST:-../shared/data/mnist}
OUT=${OUT:-/tmp}
go build -o "$OUT/suspects-bench" ./bench/suspects
run() {
  echo "== $*"
  /usr/bin/time -f "wall %e s, user %U s, sys %S s, max RSS %M KB" "$OUT/suspects-bench" "$@" \
    "$M/t10k-images-idx3-ubyte.gz" "$M/t10k-labels-idx1-ubyte.gz" 2>&1 | grep -v '^  '
}
run -method both -sheet "$OUT/suspects-top100.png"
run -method both -plant 100
run -method cnn -n 60000
