#!/usr/bin/env bash
# Real-window regression test of "more like this" (Tools → More Like This, Ctrl+F; ui/similar):
#  1. On t10k's 10,000 images with a near-copy of sample 17 planted as sample 10000: Ctrl+G 17,
#     Ctrl+F. The index is held back by a gate file (IDXLABEL_TEST_SIMILAR_GATE, ui/testhook)
#     while Ctrl+A and a digit are typed: they wait (held=3 with the ask), and once the gate
#     opens the list shows (the query and 100 samples, by pixel descriptors, said on the status
#     bar) and the keys apply to it: every listed sample is relabelled. Home shows the query
#     first; → (keep) moves to the second, the planted copy. Ctrl+S; from outside, the labels
#     are those of the list idxlabel similar prints for sample 17 (the copy first), the others
#     untouched.
#  2. The draw window: a vertical stroke, Ctrl+F there: the main window lists the 100 samples
#     most like the drawing at once (the index is kept), the first a 1 by t10k's labels.
#  3. The saved pair opened again with the CNNs shortened (IDXLABEL_QUICK_CNN=1): Ctrl+K runs the
#     CNN scan; Ctrl+F on sample 17 then lists by the scan's features, says so, and the planted
#     copy is still first.
# Every wait is on the window's state line (IDXLABEL_TEST_STATE) or on files, never the clock
# alone. SIMILARUI_SHOTS=PREFIX writes screenshots PREFIX-list.png, -drawing.png and -cnn.png (with
# FYNE_THEME=light or dark for each theme).
# Usage: scripts/similarui.sh BINARY T10K_IMAGES (its labels beside it, MNIST's names)
set -euo pipefail
bin=$(realpath "$1")
if [ ! -f "${2:-}" ]; then
  [ "${IDXLABEL_REQUIRE_MNIST:-}" = 1 ] && { echo "similarui: no t10k images at ${2:-(none given)}" >&2; exit 1; }
  echo "similarui: skipped: no t10k images at ${2:-(none given)} (the test needs real MNIST)"; exit 0
fi
src=$(realpath "$2")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state
gate=$XVFB_CFG/gate
work=$XVFB_CFG/data
shots=${SIMILARUI_SHOTS:-}
mkdir -p "$work"
images=$work/like-images-idx3-ubyte
labels=$work/like-labels-idx1-ubyte

fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/similarui-fail.png 2>/dev/null || true
  echo "similarui: $* (screenshot /tmp/similarui-fail.png)" >&2
  [ -f "$state" ] && echo "state: $(cat "$state")" >&2
  cat "$log" >&2; exit 1
}
shot() { [ -z "$shots" ] || { sleep 1; xwd -root -silent | /usr/bin/convert xwd:- png:"$shots-$1.png"; }; }

python3 - "$src" "${src/images-idx3/labels-idx1}" "$images" "$labels" <<'PY'
import gzip, struct, sys
src, lsrc, out, lout = sys.argv[1:]
img = gzip.open(src).read()
lab = gzip.open(lsrc).read()
n, h, w = struct.unpack(">III", img[4:16])
px, lb = img[16:], lab[8:]
d = h * w
copy = bytearray(px[17 * d:18 * d])
copy[14 * w + 14] ^= 0x10  # a near-copy, not the same bytes
open(out, "wb").write(struct.pack(">IIII", 0x803, n + 1, h, w) + px + bytes(copy))
open(lout, "wb").write(struct.pack(">II", 0x801, n + 1) + lb + lb[17:18])
PY
# What the command line lists for sample 17: the window must list the same.
"$bin" similar --k 100 "$images" 17 >"$work/cli.csv" 2>"$work/cli.err"
sed -n 2p "$work/cli.csv" | grep -q '^10000,' || fail "idxlabel similar does not list the planted copy first: $(sed -n 2p "$work/cli.csv")"
orig17=$(python3 -c "import sys; print(open(sys.argv[1],'rb').read()[8 + 17])" "$labels")
digit=$(((orig17 + 1) % 10))

# 1. Ctrl+F on sample 17, keys typed while the index is built, relabel all, save.
rm -f "$state"
IDXLABEL_TEST_STATE=$state IDXLABEL_TEST_SIMILAR_GATE=$gate "$bin" "$images" "$labels" >>"$log" 2>&1 &
APP_PID=$!
MAIN=$(wait_window) || fail "no window appeared"
xdotool windowfocus "$MAIN"
until_state "cursor=0 " "the grid's cursor is not on sample 0 at the start"
xdotool key --clearmodifiers ctrl+g
until_state "prompt=|cut=" "no state line"
sleep 0.5
xdotool type --delay 50 17
xdotool key --clearmodifiers Return
until_state " sample=17 " "Ctrl+G 17 did not go to sample 17"
xdotool key --clearmodifiers ctrl+f
until_state "prompt=progress " "Ctrl+F showed no progress while the index was built"
xdotool key --clearmodifiers ctrl+a "$digit"
until_state " held=3 " "Ctrl+A and $digit typed while the index was built do not wait behind the ask"
touch "$gate"
until_state "mode=More_like_this .*held=0 " "the list did not show once the index was built"
until_state "mode=More_like_this .*shown=101 " "the list is not the query and 100 samples"
xdotool key --clearmodifiers Home
until_state "mode=More_like_this .*cursor=0 .*sample=17 " "the query is not first in the list"
until_state "cut=- .*status=.*like_#17_by_pixel_descriptors:_reviewed_0_/_101" "the status bar does not say the list is by pixel descriptors"
shot list
xdotool key --clearmodifiers Right
until_state "mode=More_like_this .*cursor=1 .*sample=10000 " "the planted copy is not the most similar"
before=$(stat -c %i "$labels")
xdotool key --clearmodifiers ctrl+s
for _ in $(seq 300); do [ "$(stat -c %i "$labels")" != "$before" ] && break; sleep 0.1; done
[ "$(stat -c %i "$labels")" != "$before" ] || fail "Ctrl+S did not save"
python3 - "$labels" "${src/images-idx3/labels-idx1}" "$work/cli.csv" "$digit" <<'PY' || fail "the labels saved are not the list relabelled"
import gzip, sys
saved = open(sys.argv[1], "rb").read()[8:]
orig = gzip.open(sys.argv[2]).read()[8:] + gzip.open(sys.argv[2]).read()[8 + 17:8 + 18]
listed = {17} | {int(l.split(",")[0]) for l in open(sys.argv[3]).read().split("\n")[1:] if l}
d = int(sys.argv[4])
assert len(listed) == 101, len(listed)
bad = [i for i in range(len(saved)) if saved[i] != (d if i in listed else orig[i])]
if bad:
    print("similarui: samples", bad[:10], "of", len(bad), "saved with labels", [saved[i] for i in bad[:10]], file=sys.stderr)
    sys.exit(1)
PY

# 2. The draw window: a vertical stroke, Ctrl+F there.
open_draw || fail "no draw window"
xdotool mousemove $((DRAW_X + 270)) $((DRAW_Y + 80)) mousedown 1
for k in $(seq 1 14); do xdotool mousemove $((DRAW_X + 270)) $((DRAW_Y + 80 + 20 * k)); sleep 0.02; done
xdotool mouseup 1
sleep 0.5
xdotool key --clearmodifiers ctrl+f
until_state "mode=More_like_this .*shown=100 .*status=More_like_the_drawing:_100_samples_by_pixel_descriptors" "Ctrl+F in the draw window did not list the samples like the drawing"
first=$(sed -E 's/.* sample=([0-9]+) .*/\1/' "$state")
shot drawing
python3 - "${src/images-idx3/labels-idx1}" "$first" <<'PY' || fail "the sample most like a vertical stroke is not a 1"
import gzip, sys
l = gzip.open(sys.argv[1]).read()[8:]
i = int(sys.argv[2])
if l[i] != 1:
    print("similarui: sample", i, "first, labelled", l[i], file=sys.stderr); sys.exit(1)
PY
end_app "$log" || fail "the app did not end on SIGTERM"
APP_PID=""

# 3. Once the window has a CNN scan (Ctrl+K, the CNNs shortened: IDXLABEL_QUICK_CNN=1), Ctrl+F
# compares its features, and says so; the planted copy still comes first.
rm -f "$state"
IDXLABEL_TEST_STATE=$state IDXLABEL_QUICK_CNN=1 "$bin" "$images" "$labels" >>"$log" 2>&1 &
APP_PID=$!
MAIN=$(wait_window) || fail "no window appeared"
xdotool windowfocus "$MAIN"
until_state "cursor=0 " "the grid's cursor is not on sample 0 at the start"
xdotool key --clearmodifiers ctrl+k
for _ in $(seq $((WAIT_TENTHS * 6))); do grep -Eq "method=CNN " "$state" 2>/dev/null && break; sleep 0.1; done
grep -Eq "method=CNN " "$state" || fail "the CNN scan did not end within an hour"
xdotool key --clearmodifiers ctrl+g
sleep 0.5
xdotool type --delay 50 17
xdotool key --clearmodifiers Return
until_state " sample=17 " "Ctrl+G 17 did not go to sample 17"
xdotool key --clearmodifiers ctrl+f
until_state "mode=More_like_this .*shown=101 .*status=More_like_#17:_100_samples_by_CNN_features_[(]the_window's_CNN_scan[)]" "Ctrl+F after the scan did not list by the CNN's features"
shot cnn
xdotool key --clearmodifiers Home
until_state "mode=More_like_this .*cursor=0 .*sample=17 " "the query is not first in the list"
xdotool key --clearmodifiers Right
until_state "mode=More_like_this .*cursor=1 .*sample=10000 " "the planted copy is not the most similar by CNN features"
end_app "$log" || fail "the app did not end on SIGTERM"
APP_PID=""
grep -qi panic "$log" && fail "the app panicked"
echo "similarui: ok (the list of sample 17: the query, its copy, 99 more, relabelled by Ctrl+A $digit typed while the index was built; the drawing's first is sample $first, a 1; by the CNN scan's features the copy first too)"
