#!/usr/bin/env bash
# Real-window test of the kept CNN scan: the confusion matrix opened after a save that changed
# only labels, and after the app is quit and started again on the same pair, is shown from the
# scan kept in memory and on disk, without scanning again.
# On a copy of the t10k pair, with the short CNN recipe (IDXLABEL_QUICK_CNN=1) and the window's
# scan log (IDXLABEL_TEST_SCANLOG=1: each time the matrix is given its scan, where from and how
# long after it was asked for):
#  1. Ctrl+Shift+M: the scan runs (the status bar gives its estimate first); the matrix shows.
#  2. A digit (relabels the sample at the cursor), Ctrl+S; once saved, Ctrl+M (the map, which
#     adopts the same scan) and Ctrl+Shift+M again: the matrix must be shown without asking for
#     a scan.
#  3. Ctrl+Q, the app started again on the pair, Ctrl+Shift+M: from the disk cache beside the
#     images (t10k-images-idx3-ubyte.gz.idxlabel-scan).
# What passes or fails is where the matrix's scan came from, never how long it took: the times,
# from the key to the matrix's content made (the window's log), are printed with the load, and
# one above the target of a second (a hit reads 5.5 MB and hashes 7.8 MB of pixels) is said,
# not failed: under two CPU-bound processes beside it the reopened matrix took 1,028 ms.
# SCANCACHE_QUICK=0 scans by the default recipe instead (about 2 min on 2 cores).
# Usage: scripts/scancache.sh BINARY [T10K_IMAGES]
set -euo pipefail
bin=$(realpath "$1")
images=${2:-}
if [ -z "$images" ] || [ ! -f "$images" ]; then
  echo "scancache: ${images:-no t10k images given} not found; skipping (it needs the real MNIST files)"
  exit 0
fi
. "$(dirname "$0")/xvfb.sh"
start_xvfb
copy_t10k "$images"
labels=$work/t10k-labels-idx1-ubyte.gz
cp "$labels" "$XVFB_CFG/opened-labels.gz"
cache=$work/t10k-images-idx3-ubyte.gz.idxlabel-scan
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state

fail() {
  echo "scancache: $*" >&2
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/scancache-fail.png 2>/dev/null || true
  echo "scancache: screenshot /tmp/scancache-fail.png; the app's log:" >&2
  cat "$log" >&2
  exit 1
}
# start_app starts the app on the copy, sets APP_PID and MAIN (its window), and waits until the
# window shows its cursor and has the keys.
start_app() {
  rm -f "$state"
  IDXLABEL_QUICK_CNN=${SCANCACHE_QUICK:-1} IDXLABEL_TEST_SCANLOG=1 IDXLABEL_TEST_STATE=$state "$bin" "$work/t10k-images-idx3-ubyte.gz" "$labels" >>"$log" 2>&1 &
  APP_PID=$!
  MAIN=$(wait_window) || fail "no window appeared"
  ready "$MAIN"
}
# wait_line PATTERN N SECONDS: waits (up to SECONDS) for the N-th line of the log matching
# PATTERN; prints it.
wait_line() {
  for _ in $(seq $(($3 * 10))); do
    [ "$(grep -c "$1" "$log" || true)" -ge "$2" ] && break
    sleep 0.1
  done
  grep "$1" "$log" | sed -n "$2p"
}
# matrix N SECONDS: presses Ctrl+Shift+M and waits (up to SECONDS) for the N-th "scan view"
# line of the log (the matrix given its scan); prints that line.
matrix() {
  xdotool key --clearmodifiers ctrl+shift+m
  line=$(wait_line "scan view of" "$1" "$2")
  [ -n "$line" ] || fail "the confusion matrix was not given its scan within $2 s of Ctrl+Shift+M (view $1)"
  echo "$line"
}
ms() { sed -n 's/.*, \([0-9.]*\) ms after.*/\1/p' <<<"$1"; }
from() { sed -n 's/.*(from \(.*\))$/\1/p' <<<"$1"; }
# target says when a time (ms) is above the one-second target: a measurement, not a failure.
target() { python3 -c "import sys; sys.exit(0 if float('$1') < 1000 else 1)" || echo "scancache: note: $2 took $1 ms, above the 1 s target (load $(cut -d' ' -f1-3 /proc/loadavg))"; }

: >"$log"
start_app
first=$(matrix 1 900)
[ "$(from "$first")" = scan ] || fail "the first matrix did not come from a scan: $first"
[ -s "$cache" ] || fail "no scan cache beside the images after the scan"
echo "scancache: first matrix after a scan: $(ms "$first") ms"

before=$(stat -c %i "$labels")
xdotool key --clearmodifiers 7
xdotool key --clearmodifiers ctrl+s
for _ in $(seq "$WAIT_TENTHS"); do [ "$(stat -c %i "$labels")" != "$before" ] && break; sleep 0.1; done
[ "$(stat -c %i "$labels")" != "$before" ] || fail "the save did not replace the label file"
wait_clean "$MAIN"
# Away to the map (it adopts the same scan: no scan), then back to the matrix.
xdotool key --clearmodifiers ctrl+m
away=$(wait_line "scan view of" 2 600)
[ -n "$away" ] || fail "the map was not given its scan after Ctrl+M"
[ "$(from "$away")" != scan ] || fail "the map after a labels-only save scanned again: $away"
xdotool key --clearmodifiers ctrl+shift+m
second=$(wait_line 'mode "Confusion matrix" shown' 1 600)
[ -n "$second" ] || fail "the matrix was not shown without a scan after Ctrl+Shift+M after the save"
[ "$(grep -c "scan view of" "$log")" -eq 2 ] || fail "the matrix after a labels-only save asked for a scan"
target "$(ms "$second")" "the matrix after the save"
echo "scancache: matrix after a labels-only save: $(ms "$second") ms (the scan kept in memory; load $(cut -d' ' -f1-3 /proc/loadavg))"

quit_app || fail "no clean quit"
start_app
third=$(matrix 3 60)
[ "$(from "$third")" = "disk cache" ] || fail "the matrix after reopening did not come from the disk cache: $third"
target "$(ms "$third")" "the matrix after reopening"
echo "scancache: matrix after reopening the app: $(ms "$third") ms (from the disk cache; load $(cut -d' ' -f1-3 /proc/loadavg))"
quit_app || fail "no clean quit"
if grep -qi "panic\|fatal" "$log"; then fail "the app's log holds a panic"; fi

python3 - "$XVFB_CFG/opened-labels.gz" "$labels" <<'PY'
import gzip, sys
a, b = gzip.open(sys.argv[1]).read()[8:], gzip.open(sys.argv[2]).read()[8:]
changed = [i for i in range(len(a)) if a[i] != b[i]]
if len(a) != len(b) or len(changed) > 1:
    sys.exit("scancache: the saved labels differ from those opened at %d samples (one relabelled expected)" % len(changed))
print("scancache: ok: %d label changed and saved; the matrix was shown from memory after the save and from the disk cache after reopening" % len(changed))
PY
