#!/usr/bin/env bash
# In a real window: how long the window takes to answer an arrow key while idle and
# while Ctrl+S saves a 60,000-sample gzip pair (built from the real t10k files by bench/mkpair).
# A key's latency is the time from its XTest key press to the first change of the position label
# "sample N of 60,000" at the bottom right of the 1400×900 screen, polled every ~1 ms with
# XGetImage (scripts/keylat.c). Each round deletes a sample (so the save rewrites and renumbers
# everything), presses Ctrl+S and at once sends KEYS Right keys 25 ms apart. It prints every
# key's latency, the first key after Ctrl+S of each round, and the median, 90th percentile and
# maximum over all rounds; then the saved pair must verify. It also prints when the input was
# answered: the time from each key's sending to the moment the grid's TypedKey returned (for an
# arrow: the cursor moved and the redraw asked for), which the app reports when built with
# -tags timing (make build-timing: BINARY is then bin/idxlabel-timing); the rest of the on-screen
# time is the drawing and the display's. A measurement, not a test: it fails only when
# the app dies, a key is lost (no change within 3 s) or the saved pair does not verify.
# Target: every key answered in ≤ 50 ms during the save.
# Usage: scripts/savelat.sh BINARY T10K_IMAGES T10K_LABELS [ROUNDS=3] [KEYS=40]
set -euo pipefail
bin=$(realpath "$1")
t10k_images=$2
t10k_labels=$3
rounds=${4:-3}
keys=${5:-40}
cd "$(dirname "$0")/.."
. scripts/xvfb.sh
work=$(mktemp -d)
start_xvfb
trap 'stop_xvfb; rm -rf "$work"' EXIT

gcc -O2 -o "$work/keylat" scripts/keylat.c -lX11 -l:libXtst.so.6
go run ./bench/mkpair -n 60000 -gz "$t10k_images" "$t10k_labels" "$work/big"
pair=("$work/big-images-idx3-ubyte.gz" "$work/big-labels-idx1-ubyte.gz")

# stats prints n, median, 90th percentile and maximum of the numbers on stdin (nearest rank).
stats() { sort -n | awk '{a[NR]=$1} END {printf "n=%d median %.1f ms, p90 %.1f ms, max %.1f ms", NR, a[int((NR+1)/2)], a[int(NR*0.9+0.999)], a[NR]}'; }
fail() { echo "savelat: $*" >&2; cat "$work/log" >&2; exit 1; }

"$bin" "${pair[@]}" >"$work/log" 2>&1 &
APP_PID=$!
win=$(wait_window) || fail "no window appeared"
sleep 4
xdotool windowfocus "$win"
sleep 0.5
region=(1000 770 400 30) # the position label

"$work/keylat" "${region[@]}" Right 20 40 "$work/sent" >"$work/idle"
echo "idle: $(grep -v timeout "$work/idle" | stats), lost $(grep -c timeout "$work/idle" || true)"
: >"$work/all"
: >"$work/first"
for r in $(seq "$rounds"); do
  xdotool key Delete
  sleep 0.7
  xdotool key ctrl+s
  "$work/keylat" "${region[@]}" Right "$keys" 25 "$work/sent" >"$work/save$r"
  echo "save $r, per key (ms): $(tr '\n' ' ' <"$work/save$r")"
  head -n 1 "$work/save$r" >>"$work/first"
  cat "$work/save$r" >>"$work/all"
  kill -0 "$APP_PID" 2>/dev/null || fail "the app died during save $r"
  sleep 3
done
lost=$(grep -c timeout "$work/all" || true)
echo "first key after Ctrl+S (ms): $(tr '\n' ' ' <"$work/first")"
echo "during the saves: $(grep -v timeout "$work/all" | stats), lost $lost"
# Input answered: each key sent is matched with the first Right the grid handled after it and
# before the next key was sent (keylat sends a key only once the last one showed), or reported
# "unanswered"; the first 20 keys are the idle ones.
grep -o 'key Right handled at [0-9]*' "$work/log" | awk '{print $5}' >"$work/handled"
awk 'NR == FNR { s[++ns] = $1; next } { h[++nh] = $1 }
  END {
    j = 1
    for (i = 1; i <= ns; i++) {
      while (j <= nh && h[j] < s[i]) j++
      if (j <= nh && (i == ns || h[j] < s[i + 1])) { printf "%.1f\n", (h[j] - s[i]) / 1e6; j++ }
      else print "unanswered"
    }
  }' "$work/sent" "$work/handled" >"$work/answered"
unanswered=$(grep -c unanswered "$work/answered" || true)
echo "answered, idle: $(head -n 20 "$work/answered" | grep -v unanswered | stats)"
echo "answered, first key after Ctrl+S (ms): $(for r in $(seq "$rounds"); do sed -n "$((20 + (r - 1) * keys + 1))p" "$work/answered"; done | tr '\n' ' ')"
echo "answered, during the saves: $(tail -n +21 "$work/answered" | grep -v unanswered | stats), unanswered $unanswered"
grep -qi panic "$work/log" && fail "the app panicked"
kill "$APP_PID"
wait "$APP_PID" 2>/dev/null || true
APP_PID=""
echo "verify: $("$bin" verify "${pair[@]}")"
[ "$lost" -eq 0 ] || fail "$lost keys lost"
