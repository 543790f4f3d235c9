#!/usr/bin/env bash
# Real-window regression test (issue 11 §4): after a click on a class in the histogram, the keys
# reach the grid. Runs the built app under Xvfb on a copy of an IDX pair, chooses Show → Not
# deleted and types 8 (sample 0, not an 8, becomes one), clicks class 3's row and types Ctrl+A
# then 8, clicks the tile-size slider and types 5 (the cursor's sample), saves with Ctrl+S, quits
# with Ctrl+Q, and checks the saved labels: no 3s left, the 8s grew by the 3s (one of them now a
# 5, sample 0 one more), the 5s by one.
# With no IMAGES file (the real MNIST files absent) it builds a small pair from generated PNGs
# (ImageMagick) through `idxlabel import`.
# Usage: scripts/focus.sh BINARY [IMAGES]
set -euo pipefail
bin=$(realpath "$1")
images=${2:-}

. "$(dirname "$0")/xvfb.sh"
start_xvfb
work=$XVFB_CFG/data
mkdir -p "$work"
if [ -n "$images" ] && [ -f "$images" ]; then
  labels=${images/images-idx3/labels-idx1}
  cp "$images" "$work/t10k-images-idx3-ubyte.gz"
  cp "$labels" "$work/t10k-labels-idx1-ubyte.gz"
  images=$work/t10k-images-idx3-ubyte.gz labels=$work/t10k-labels-idx1-ubyte.gz
else
  echo "focus: ${images:-no image file given} not found; using a generated pair"
  for c in 0 1 2 3 4 5 6 7 8 9; do
    mkdir -p "$work/png/$c"
    for k in 1 2 3 4 5; do
      /usr/bin/convert -size 28x28 xc:black -fill white -pointsize $((14 + 2 * k)) -gravity center -annotate 0 "$c" "$work/png/$c/$k.png"
    done
  done
  images=$work/gen-images-idx3-ubyte labels=$work/gen-labels-idx1-ubyte
  "$bin" import "$work/png" "$images" "$labels" >/dev/null
fi

# count CLASS: how many labels in the label file are CLASS (from `idxlabel info`).
count() { "$bin" info "$labels" | awk -v c="$1" '$1 == c && NF >= 3 { print $2; found = 1 } END { if (!found) print 0 }'; }
three=$(count 3) eight=$(count 8) five=$(count 5)
[ "$three" -gt 1 ] || { echo "focus: the pair has no 3s to relabel" >&2; exit 1; }

state=$XVFB_CFG/state
fail() { echo "focus: $*" >&2; [ -f "$state" ] && echo "state: $(cat "$state")" >&2; cat "$XVFB_CFG/app.log" >&2; exit 1; }
IDXLABEL_TEST_STATE=$state "$bin" "$images" "$labels" >"$XVFB_CFG/app.log" 2>&1 &
APP_PID=$!
wid=$(wait_window) || fail "no window appeared"
ready "$wid" # the first frames: the window shows its cursor
eval "$(xdotool getwindowgeometry --shell "$wid")" # X, Y: the window's place on the screen
# Places in the default 1280×820 window (dark theme, FYNE_SCALE unset): the Show list (below
# its title) and its second choice, class 3's row of the histogram and the tile-size slider's
# track.
# The Show list's popup drawn (the screen at its second choice changed), then that choice. The
# window handles the clicks and keys that follow in order: no sleep between them.
popup=$(patch $((X + 100)) $((Y + 165)))
xdotool mousemove $((X + 100)) $((Y + 91)) click 1
for _ in $(seq 120); do [ "$(patch $((X + 100)) $((Y + 165)))" != "$popup" ] && break; sleep 0.5; done
xdotool mousemove $((X + 100)) $((Y + 165)) click 1
xdotool key --clearmodifiers 8
until_state "cursor=1 " "8 typed in Show → Not deleted did not relabel sample 0"
xdotool mousemove $((X + 60)) $((Y + 330)) click 1
until_state "class=3 " "the click on class 3's row did not filter the grid to it"
xdotool key --clearmodifiers ctrl+a
xdotool key --clearmodifiers 8
xdotool mousemove $((X + 130)) $((Y + 708)) click 1
xdotool key --clearmodifiers 5
before=$(stat -c %Y.%s "$labels")
xdotool key --clearmodifiers ctrl+s
for _ in $(seq 100); do [ "$(stat -c %Y.%s "$labels")" != "$before" ] && break; sleep 0.2; done
wait_clean "$wid"
xdotool key --clearmodifiers ctrl+q
for _ in $(seq 100); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$APP_PID" 2>/dev/null; then
  xwd -root -silent | /usr/bin/convert xwd:- png:"${FOCUS_SHOT:-/tmp/focus-fail.png}" || true
  echo "focus: the app did not quit on Ctrl+Q (unsaved edits?); screenshot ${FOCUS_SHOT:-/tmp/focus-fail.png}" >&2; exit 1
fi
status=0
wait "$APP_PID" || status=$?
APP_PID=""
[ "$status" -eq 0 ] || { echo "focus: the app exited with status $status" >&2; cat "$XVFB_CFG/app.log" >&2; exit 1; }
if grep -qi "panic\|fatal" "$XVFB_CFG/app.log"; then cat "$XVFB_CFG/app.log" >&2; exit 1; fi

got3=$(count 3) got8=$(count 8) got5=$(count 5)
echo "focus: 3s $three → $got3, 8s $eight → $got8, 5s $five → $got5"
if [ "$got3" -ne 0 ] || [ "$got8" -ne $((eight + three)) ] || [ "$got5" -ne $((five + 1)) ]; then
  echo "focus: keys typed after a click on the Show list, a class or the slider did not reach the grid" >&2; exit 1
fi
echo "focus: ok"
