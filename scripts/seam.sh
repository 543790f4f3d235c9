#!/usr/bin/env bash
# Real-window regression tests for the seam between the store and the view,
# each a crash on ffa5917:
#  1. burst: on the demo dataset, draw three digits in the draw window (label 1, Enter), then send
#     Ctrl+Z, Left, Left three times in one burst (xdotool --delay 0) to the main window: the
#     view must follow each undo at once (the old code panicked "index out of range [302] with
#     length 302" in the mosaic).
#  2. bad first file: start on a file that is not IDX, then press Escape, Delete, Ctrl+O, Ctrl+S,
#     Ctrl+Shift+S, Ctrl+G and digits (dialogs closed with Escape): the window has an empty
#     dataset, nothing panics, and Ctrl+Q quits cleanly.
#  3. keys during a save (with the real t10k files): on a 60,000-sample gzip pair built from them,
#     delete a sample, press Ctrl+S and at once ten arrows and a digit: every arrow moves the
#     cursor (no dialog swallows them), the digit relabels the sample the arrows reached (at once,
#     or once the save is done when it is still running: scripts/keysave.sh tests that case on
#     its own), and the saved pair verifies (checked with idxlabel diff after a second save).
# Usage: scripts/seam.sh BINARY [T10K_IMAGES]
set -euo pipefail
bin=$(realpath "$1")
t10k=${2:-}
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state

fail() { echo "seam: $*" >&2; cat "$log" >&2; exit 1; }
alive() { kill -0 "$APP_PID" 2>/dev/null || fail "$1: the app died"; ! grep -qi "panic" "$log" || fail "$1: the app panicked"; }

# 1. The undo-and-arrows burst.
IDXLABEL_TEST_STATE=$state "$bin" >"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
ready "$main"
open_draw || fail "no draw window"
# open_draw found the draw window at DRAW_X, DRAW_Y; its pad spans about (10, 40)–(430, 460) in
# it. One stroke per digit, then its label and Enter.
for _ in 1 2 3; do
  xdotool mousemove $((DRAW_X + 150)) $((DRAW_Y + 120)) mousedown 1
  for y in 180 220 260 300 340 380 400; do xdotool mousemove $((DRAW_X + 150 + (y - 150) / 5)) $((DRAW_Y + y - 30)); sleep 0.02; done
  xdotool mouseup 1
  sleep 0.3
  xdotool key 1 Return
  sleep 0.5
done
xdotool windowfocus --sync "$main"
xdotool key --delay 0 ctrl+z Left Left ctrl+z Left Left ctrl+z Left Left
xdotool key --clearmodifiers End # handled after the burst: the burst is over when it is
at_end "burst" "$state"
alive "burst"
end_app "$log" || fail "the app did not end on SIGTERM"
APP_PID=""
echo "seam: burst ok"

# 2. A bad first file, then every key that used to panic.
bad=$XVFB_CFG/bad-images-idx3-ubyte
echo "this is not an IDX file" >"$bad"
rm -f "$state"
IDXLABEL_TEST_STATE=$state "$bin" "$bad" >"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
until_state "prompt=[^-]" "the bad first file was not refused in a dialog"
xdotool windowfocus --sync "$main"
# The window handles its keys in order: the Ctrl+Q after them quits once they are all handled,
# and a panic on any of them shows in the exit status and the log.
for k in Escape Escape Delete 5 ctrl+z ctrl+a ctrl+o Escape ctrl+s Escape ctrl+shift+s Escape ctrl+g Escape Left Right; do
  xdotool key --clearmodifiers "$k"
done
alive "bad first file, the keys"
xdotool key --clearmodifiers ctrl+q
for _ in $(seq 100); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.1; done
kill -0 "$APP_PID" 2>/dev/null && fail "bad first file: Ctrl+Q did not quit"
status=0
wait "$APP_PID" || status=$?
APP_PID=""
[ "$status" -eq 0 ] || fail "bad first file: exit status $status"
! grep -qi "panic" "$log" || fail "bad first file: the app panicked"
echo "seam: bad first file ok"

# 3. Keys during a save.
if [ -z "$t10k" ] || [ ! -f "$t10k" ]; then
  echo "seam: ${t10k:-no t10k images given} not found; skipping keys during a save"
  exit 0
fi
prefix=$XVFB_CFG/big
t10k=$(realpath "$t10k")
(cd "$(dirname "$0")/.." && go run ./bench/mkpair -n 60000 -gz "$t10k" "${t10k/images-idx3/labels-idx1}" "$prefix")
rm -f "$state"
IDXLABEL_TEST_STATE=$state "$bin" "$prefix-images-idx3-ubyte.gz" "$prefix-labels-idx1-ubyte.gz" >"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
ready "$main"
xdotool key --clearmodifiers Delete
labels=$prefix-labels-idx1-ubyte.gz
inode() { stat -c %i "$labels"; }
# saved OLD waits (up to 120 s) until the label file is no longer inode OLD: a save replaced it.
saved() {
  for _ in $(seq 1200); do [ "$(inode)" != "$1" ] && return 0; sleep 0.1; done
  fail "keys during a save: no save replaced $labels within 120 s"
}
# Ten Right keys at once after Ctrl+S each move the cursor (a modal dialog used to swallow
# them), then a digit relabels the sample they reached: at once, or after the save when it still
# runs (it waits, then is applied to that sample). The save drops deleted sample 0, so the
# cursor rests on sample 10 of the files as opened, sample 9 of the saved ones.
before=$(inode)
xdotool key --clearmodifiers ctrl+s
xdotool key --delay 40 Right Right Right Right Right Right Right Right Right Right 7
saved "$before"
until_state "held=0 " "the keys typed during the save were not applied after it"
alive "keys during a save"
out=$("$bin" verify "$prefix-images-idx3-ubyte.gz" "$labels") || fail "the saved pair does not verify: $out"
case "$out" in *"59999 samples"*) ;; *) fail "the save did not drop the deleted sample: $out" ;; esac
cp "$labels" "$XVFB_CFG/first-save-labels.gz"
# A second save writes the digit.
before=$(inode)
xdotool key --clearmodifiers ctrl+s
saved "$before"
wait_clean "$main"
alive "keys during a save"
status=0
changed=$("$bin" diff "$XVFB_CFG/first-save-labels.gz" "$labels" 2>/dev/null) || status=$?
[ "$status" -eq 1 ] || fail "keys during a save: diff exit $status (the second save changed nothing?)"
case "$changed" in
  "index,a,b"$'\n'"9,"*",7") ;;
  *) fail "keys during a save: the arrows pressed while saving were not all acted on, or the digit went elsewhere; labels changed: $changed" ;;
esac
end_app "$log" || fail "the app did not end on SIGTERM"
APP_PID=""
echo "seam: keys during a save ok ($out)"
