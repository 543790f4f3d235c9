#!/usr/bin/env bash
# GUI figures in a real window under Xvfb: resident memory (VmRSS) and time to the first window
# for the demo (the baseline: an almost empty dataset), the real t10k pair, a 60,000-sample
# pair and a 1,000,000-sample pair (built from t10k by bench/mkpair).
# The time to the first tiles is what the app prints when built with -tags timing (ui/timing.go);
# this script builds that binary, bin/idxlabel-timing.
# Usage: bench/gui.sh   (needs the real MNIST files)
set -euo pipefail
cd "$(dirname "$0")/.."
mnist=${IDXLABEL_MNIST:-../shared/data/mnist}
bin=bin/idxlabel-timing
go build -tags "$(scripts/tags.sh),timing" -o "$bin" .
work=$(mktemp -d)
. scripts/xvfb.sh
start_xvfb
trap 'stop_xvfb; rm -rf "$work"' EXIT

go run ./bench/mkpair -n 60000 -gz "$mnist/t10k-images-idx3-ubyte.gz" "$mnist/t10k-labels-idx1-ubyte.gz" "$work/p60k"
go run ./bench/mkpair -n 1000000 "$mnist/t10k-images-idx3-ubyte.gz" "$mnist/t10k-labels-idx1-ubyte.gz" "$work/p1m"

measure() { # name args...
  local name=$1; shift
  local start end rss
  start=$(date +%s.%N)
  "$bin" "$@" >"$work/log" 2>&1 &
  APP_PID=$!
  wait_window >/dev/null
  end=$(date +%s.%N)
  sleep 4
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$APP_PID/status")
  tiles=$(sed -n 's/.*first tiles of [0-9]* samples after \([0-9]*\) ms.*/\1/p' "$work/log")
  printf "%-22s window after %5.2f s, first tiles after %5s ms   RSS %7.1f MB\n" "$name" "$(echo "$end - $start" | bc)" "$tiles" "$(echo "$rss / 1024" | bc -l)"
  kill "$APP_PID"; wait "$APP_PID" 2>/dev/null || true
  APP_PID=""
}
measure "demo (300 samples)"
cp "$mnist/t10k-images-idx3-ubyte.gz" "$mnist/t10k-labels-idx1-ubyte.gz" "$work/" # never open the shared files for editing
measure "t10k (10,000, gz)" "$work/t10k-images-idx3-ubyte.gz"
measure "60,000 (gz)" "$work/p60k-images-idx3-ubyte.gz"
measure "1,000,000 (raw)" "$work/p1m-images-idx3-ubyte"
