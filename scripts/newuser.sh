#!/usr/bin/env bash
# Real-window regression tests of what a new user met, in the default 1,280×820 window:
#  1. Ctrl+G, 74, Enter goes to sample 74; Ctrl+G again, 66, Enter goes to sample 66 (before,
#     the box kept 74 and the second number followed it: 7466, no such sample).
#  2. A long status line (long file names, unsaved edits, a selection) is not cut: it wraps onto
#     a second line; the Show list is as wide as its longest entry, "Confusion matrix" (before,
#     "10,000 samples, 10,…" and "Confusion …").
#  3. An image file opened alone (labelling from scratch): the class histogram lists every digit,
#     and class 7, labelled by nobody yet, can be chosen (before, only "unlabelled" was listed).
# The window's state comes from IDXLABEL_TEST_STATE: the cursor's sample, the class shown, the
# texts that do not fit (cut=, ui/testhooks.go).
# Usage: scripts/newuser.sh BINARY
set -euo pipefail
bin=$(realpath "$1")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state
work=$XVFB_CFG/data
mkdir -p "$work"
base=$work/a-much-longer-dataset-name-than-mnist-gives-its-files
python3 - "$base" "$work/alone-images-idx3-ubyte" <<'PY'
import struct, sys
n = 200
pixels = bytes((i * 37 + i // 784) % 256 for i in range(n * 784))
open(sys.argv[1] + "-images-idx3-ubyte", "wb").write(struct.pack(">IIII", 0x803, n, 28, 28) + pixels)
open(sys.argv[1] + "-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, n) + bytes(i % 10 for i in range(n)))
open(sys.argv[2], "wb").write(struct.pack(">IIII", 0x803, n, 28, 28) + pixels)
PY

fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/newuser-fail.png 2>/dev/null || true
  echo "newuser: $* (screenshot /tmp/newuser-fail.png)" >&2
  [ -f "$state" ] && echo "state: $(cat "$state")" >&2
  cat "$log" >&2; exit 1
}

# 1. Ctrl+G twice.
start_state "$base-images-idx3-ubyte" "$base-labels-idx1-ubyte"
until_state "cursor=0 " "the pair did not open with the cursor on sample 0"
for n in 74 66; do
  xdotool key --clearmodifiers ctrl+g # the go-to field takes the keys that follow
  xdotool type --delay 50 "$n"
  xdotool key --clearmodifiers Return
  until_state "sample=$n " "Ctrl+G, $n, Enter did not go to sample $n"
done
echo "newuser: Ctrl+G a second time replaces the number"

# 2. A long status line and the Show list at 1,280 px.
xdotool key --clearmodifiers Escape
xdotool key --clearmodifiers 3 4 5 ctrl+a
until_state "cursor=69 " "the digits typed did not relabel"
sleep 1
until_state "cut=- " "a text of the window does not fit at 1,280 px"
echo "newuser: the status line wraps and the Show list fits its entries at 1,280 px"
end_app "$log" || fail "the app did not end on SIGTERM"

# 3. The histogram of an image file opened alone.
start_state "$work/alone-images-idx3-ubyte"
until_state "cursor=0 .*samples=200 " "the image file did not open"
# The histogram's rows, 39 px apart in the default window: "All classes" at y=175, then
# "unlabelled", then 0 … 9: class 7 is the ninth row below "All classes".
xdotool mousemove 60 $((175 + 9 * 39)) click 1
until_state "class=7 " "class 7 of an unlabelled dataset could not be chosen in the histogram"
echo "newuser: the histogram lists every digit; class 7, labelled by nobody yet, was chosen"
end_app "$log" || fail "the app did not end on SIGTERM"
! grep -qi "panic" "$log" || fail "the window panicked"
echo "newuser: ok"
