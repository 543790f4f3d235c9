#!/usr/bin/env bash
# Real-window regression tests for the draw window, on an empty IDX pair (N = 0: valid):
#  1. open the empty pair, Ctrl+D; draw and type 4, Enter; draw again and press Enter with no
#     label typed (the label box must be empty: it used to keep the 4, and Enter added the second
#     drawing as a 4); type 1, Enter; then keys typed with a control focused: draw, Tab, Tab, Tab (the
#     label box, its drop-down button, the centring choice), 2, Enter must add a 2 (a focused radio button dropped
#     both keys); draw, Tab (the label box), 7, Enter must add a 7 (Enter in the label box did
#     nothing). Ctrl+S in the draw window saves; Ctrl+Q in the draw window quits: the process
#     must exit. The saved pair must hold exactly four 28×28 samples, labelled 4 1 2 7, each with
#     peak 255 and an ink box whose long side is 20 px (MNIST's preprocessing).
#  2. open the pair again, Ctrl+D, then Ctrl+Q in the main window: the process must exit (it
#     closed the main window only; the draw window kept the program alive).
# Usage: scripts/drawquit.sh BINARY
set -euo pipefail
bin=$(realpath "$1")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
work=$XVFB_CFG/data
state=$XVFB_CFG/state
mkdir -p "$work"
images=$work/empty-images-idx3-ubyte
labels=$work/empty-labels-idx1-ubyte
python3 - "$images" "$labels" <<'PY'
import struct, sys
open(sys.argv[1], "wb").write(struct.pack(">IIII", 0x803, 0, 28, 28))
open(sys.argv[2], "wb").write(struct.pack(">II", 0x801, 0))
PY

fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/drawquit-fail.png 2>/dev/null || true
  echo "drawquit: $* (screenshot /tmp/drawquit-fail.png)" >&2; cat "$log" >&2; exit 1
}

# draw: one stroke on the draw window's pad (open_draw found the window at DRAW_X, DRAW_Y; its pad
# spans about (10, 40)–(430, 460) in it).
draw() {
  xdotool mousemove $((DRAW_X + 120)) $((DRAW_Y + 110)) mousedown 1
  for k in 1 2 3 4 5 6 7 8 9 10; do xdotool mousemove $((DRAW_X + 120 + 20 * k)) $((DRAW_Y + 110)); sleep 0.02; done
  for k in 1 2 3 4 5 6 7 8 9 10 11 12; do xdotool mousemove $((DRAW_X + 320 - 8 * k)) $((DRAW_Y + 110 + 22 * k)); sleep 0.02; done
  xdotool mouseup 1
  sleep 0.3
}

# quits: waits up to 15 s for the app to exit cleanly after Ctrl+Q.
quits() {
  for _ in $(seq 150); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$APP_PID" 2>/dev/null && fail "$1: the process is still running after Ctrl+Q"
  local status=0
  wait "$APP_PID" || status=$?
  APP_PID=""
  [ "$status" -eq 0 ] || fail "$1: the app exited with status $status"
  ! grep -qi "panic" "$log" || fail "$1: the app panicked"
}

# 1. Draw, label, save and quit from the draw window.
IDXLABEL_TEST_STATE=$state "$bin" "$images" >"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
ready "$main" " samples=0 dataset=empty-"
open_draw || fail "no draw window"
draw
xdotool key --clearmodifiers 4 Return
until_state " samples=1 " "the drawing labelled 4 was not added"
draw
xdotool key --clearmodifiers Return # no label for this drawing: nothing may be added
xdotool key --clearmodifiers 1 Return
until_state " samples=2 " "the drawing labelled 1 was not added"
draw # the pad has the focus again
xdotool key --clearmodifiers Tab Tab Tab 2 Return
until_state " samples=3 " "2, Enter typed with the centring choice focused (Tab, Tab, Tab) did not add the drawing (dropped?)"
draw
xdotool key --clearmodifiers Tab 7 Return
until_state " samples=4 " "7, Enter typed in the label box (Tab) did not add the drawing"
before=$(stat -c %Y.%s.%i "$labels")
xdotool key --clearmodifiers ctrl+s
for _ in $(seq 100); do [ "$(stat -c %Y.%s.%i "$labels")" != "$before" ] && break; sleep 0.1; done
wait_clean "$main"
xdotool key --clearmodifiers ctrl+q
quits "Ctrl+Q in the draw window"
got=$(python3 - "$images" "$labels" <<'PY'
import struct, sys
i = open(sys.argv[1], "rb").read()
l = open(sys.argv[2], "rb").read()
n, h, w = struct.unpack(">III", i[4:16])
# Each drawn sample as MNIST's preprocessing makes it: peak 255, ink box long side 20 px.
shapes = []
for k in range(n):
    px = i[16 + k * h * w:16 + (k + 1) * h * w]
    rows = [y for y in range(h) if any(px[y * w:(y + 1) * w])]
    cols = [x for x in range(w) if any(px[y * w + x] for y in range(h))]
    long = max(rows[-1] - rows[0], cols[-1] - cols[0]) + 1 if rows else 0
    shapes.append("" if max(px, default=0) == 255 and long == 20 else f" (sample {k}: peak {max(px, default=0)}, long side {long})")
print(f"{n}x{h}x{w}", " ".join(str(b) for b in l[8:]) + "".join(shapes))
PY
)
echo "drawquit: saved $got"
[ "$got" = "4x28x28 4 1 2 7" ] || fail "want four 28×28 samples labelled 4 1 2 7, got $got"

# 2. Ctrl+Q in the main window with the draw window open.
rm -f "$state"
IDXLABEL_TEST_STATE=$state "$bin" "$images" >"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
ready "$main" # four samples now
open_draw || fail "no draw window"
xdotool windowfocus --sync "$main"
xdotool key --clearmodifiers ctrl+q
quits "Ctrl+Q in the main window"
echo "drawquit: ok"
