#!/usr/bin/env bash
# Real-window regression test: the draw window opens clear of the main window's menu bar and,
# once closed, gives the keyboard back to the main window's grid. Before, it opened at the screen's
# top left over the menu bar and, without a window manager (as here, under Xvfb), keys typed
# after it closed went nowhere until the main window was clicked.
#  1. On a copy of the t10k pair: Ctrl+D; the draw window must sit below the menu bar; Ctrl+W
#     closes it; then, with nothing clicked or focused by the script, Right and 7 must reach the
#     grid (the window's state, IDXLABEL_TEST_STATE: the cursor on sample 2) and Ctrl+S save
#     sample 1 labelled 7.
#  2. File → New Dataset… (Ctrl+N, Enter) opens the draw window for the new dataset: the same
#     place; Ctrl+W; Ctrl+D typed next must open it again (the main window has the keys).
# Usage: scripts/drawfocus.sh BINARY [T10K_IMAGES]
set -euo pipefail
bin=$(realpath "$1")
images=${2:-}
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state
work=$XVFB_CFG/data
mkdir -p "$work"
if [ -n "$images" ] && [ -f "$images" ]; then
  cp "$images" "$work/t10k-images-idx3-ubyte.gz"
  cp "${images/images-idx3/labels-idx1}" "$work/t10k-labels-idx1-ubyte.gz"
  images=$work/t10k-images-idx3-ubyte.gz labels=$work/t10k-labels-idx1-ubyte.gz
else
  echo "drawfocus: ${images:-no t10k images given} not found; using a generated pair"
  images=$work/gen-images-idx3-ubyte labels=$work/gen-labels-idx1-ubyte
  python3 - "$images" "$labels" <<'PY'
import struct, sys
n = 50
open(sys.argv[1], "wb").write(struct.pack(">IIII", 0x803, n, 28, 28) + bytes(n * 28 * 28))
open(sys.argv[2], "wb").write(struct.pack(">II", 0x801, n) + bytes(k % 10 for k in range(n)))
PY
fi

fail() {
  import -window root /tmp/drawfocus-fail.png 2>/dev/null || true
  echo "drawfocus: $* (screenshot /tmp/drawfocus-fail.png)" >&2
  [ -f "$state" ] && echo "state: $(cat "$state")" >&2
  cat "$log" >&2; exit 1
}
until_state() {
  for _ in $(seq "$WAIT_TENTHS"); do grep -Eq "$1" "$state" 2>/dev/null && return 0; sleep 0.1; done
  fail "$2 (the window's state never matched $1)"
}
# gone waits (up to 60 s) until no draw window is shown, then (up to 60 s) until the main window
# has the keyboard's focus again: what the keys typed next need, seen rather than slept for.
gone() {
  for _ in $(seq "$WAIT_TENTHS"); do xdotool search --onlyvisible --name "Draw digits" >/dev/null 2>&1 || break; sleep 0.1; done
  xdotool search --onlyvisible --name "Draw digits" >/dev/null 2>&1 && fail "Ctrl+W did not close the draw window"
  for _ in $(seq "$WAIT_TENTHS"); do [ "$(xdotool getwindowfocus)" = "$main" ] && return 0; sleep 0.1; done
  fail "the main window did not get the keys back after the draw window closed"
}
# below_menu checks that the draw window (open_draw's DRAW_Y) leaves the main window's menu bar
# (its top 30 pixels) in sight.
below_menu() {
  [ "$DRAW_Y" -ge $((MAIN_Y + 30)) ] || fail "$1: the draw window opened at y=$DRAW_Y, over the main window's menu bar (main window at y=$MAIN_Y)"
}

IDXLABEL_TEST_STATE=$state "$bin" "$images" "$labels" >"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
ready "$main"
eval "$(xdotool getwindowgeometry --shell "$main")"
MAIN_Y=$Y
until_state "cursor=0 " "the grid's cursor is not on sample 0 at the start"

# 1. The draw window of the open pair.
open_draw || fail "no draw window"
below_menu "Ctrl+D"
import -window root /tmp/drawfocus-open.png 2>/dev/null || true
xdotool key --clearmodifiers ctrl+w
gone
xdotool key --clearmodifiers Right
until_state "cursor=1 " "Right typed after the draw window closed did not reach the grid"
xdotool key --clearmodifiers 7
until_state "cursor=2 " "7 typed after the draw window closed did not relabel"
before=$(stat -c %i "$labels")
xdotool key --clearmodifiers ctrl+s
for _ in $(seq 300); do [ "$(stat -c %i "$labels")" != "$before" ] && break; sleep 0.1; done
[ "$(stat -c %i "$labels")" != "$before" ] || fail "Ctrl+S typed after the draw window closed did not save"
label1=$(python3 - "$labels" <<'PY'
import gzip, sys
p = sys.argv[1]
data = (gzip.open(p) if p.endswith(".gz") else open(p, "rb")).read()
print(data[8 + 1])
PY
)
[ "$label1" = 7 ] || fail "sample 1 saved as $label1, want 7"

# 2. A new dataset's draw window.
xdotool key --clearmodifiers ctrl+n
until_state "prompt=[^-]" "Ctrl+N asked nothing"
xdotool key --clearmodifiers Return
DRAW_WIN=$(timeout 20 xdotool search --sync --onlyvisible --name "Draw digits" | head -n 1) || fail "New Dataset opened no draw window"
sleep 1
eval "$(xdotool getwindowgeometry --shell "$DRAW_WIN")"
DRAW_Y=$Y
below_menu "New Dataset"
xdotool key --clearmodifiers ctrl+w
gone
open_draw || fail "Ctrl+D typed after the new dataset's draw window closed did not reach the main window"
end_app "$log" || fail "the app did not end on SIGTERM"
grep -qi panic "$log" && fail "the app panicked"
echo "drawfocus: ok (draw window at y=$DRAW_Y, below the menu bar; the keys reach the grid after it closes)"
