#!/usr/bin/env bash
# Real-window regression test: Find Suspects' progress (Ctrl+K, "Finding suspects among N
# samples") takes Escape and its Cancel button as a cancel of the scan (nothing listed, the status
# bar says so), and passes every other key on to the grid, where a digit waits for the scan and is
# then applied to the sample it was typed on, before the review shows. Before, the progress was
# shown outside the window's dialogs: Escape did nothing, the scan ran on, and a digit typed
# during it was dropped.
# On a copy of the t10k pair (10,000 samples), dark theme; the kNN pass, once done, waits for a
# gate file (IDXLABEL_TEST_SUSPECTS_GATE, ui/testhook) or its Cancel, so the keys surely meet the
# scan in progress however fast or loaded the machine is:
#  1. On sample 5 (a 1): Ctrl+K, 8 at once; the 8 must wait (held=1), the progress be the prompt on
#     top; its Cancel button, found on the screen (progress_cancel in xvfb.sh), is clicked: the
#     status bar says the scan was cancelled, still browsing, the 8 applied (cursor on 6).
#  2. On sample 6 (a 4): Ctrl+K, 3; Escape cancels the same way; the 3 applied (cursor on 7).
#  3. On sample 7 (a 9): Ctrl+K; Tab focuses the progress's Cancel button, then 0: the 0 must pass
#     on to the grid as with nothing focused (a focused widget.Button took it and dropped it);
#     the button, clicked where it was found before the Tab, cancels; the 0 applied (cursor on 8).
#  4. On sample 8 (a 5): Ctrl+K, Tab, 6, then Escape on the focused button cancels; the 6 applied.
#  5. On sample 9 (a 9): Ctrl+K, 2; the gate opens: the Suspects review shows, the 2 applied first.
# Ctrl+S, then the label file read from outside must be t10k's with 8, 3, 0, 6, 2 on samples 5 to
# 9 and nothing else changed, the image file byte for byte as before. The script waits on the window's
# state line (IDXLABEL_TEST_STATE) and the screen, never on the clock.
# Usage: scripts/suspectscancel.sh BINARY T10K_IMAGES (MNIST's t10k image file, its labels beside it)
set -euo pipefail
bin=$(realpath "$1")
src=$2
. "$(dirname "$0")/xvfb.sh"
start_xvfb
copy_t10k "$src"
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state
gate=$XVFB_CFG/gate
images=$work/t10k-images-idx3-ubyte.gz
labels=$work/t10k-labels-idx1-ubyte.gz
cp "$images" "$work/images.before"
cp "$labels" "$work/labels.before"

fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/suspectscancel-fail.png 2>/dev/null || true
  echo "suspectscancel: $* (screenshot /tmp/suspectscancel-fail.png)" >&2
  [ -f "$state" ] && echo "state: $(cat "$state")" >&2
  cat "$log" >&2; exit 1
}

# scan_with_key AT DIGIT: on sample AT (the cursor at AT), Ctrl+K and DIGIT at once; the digit
# must wait for the scan (held=1) under its progress, the prompt on top.
scan_with_key() {
  until_state "mode=browse .*cursor=$1 .*held=0 " "the cursor is not on sample $1, browsing, with nothing waiting"
  xdotool key --delay 150 --clearmodifiers ctrl+k "$2"
  until_state "held=1 |mode=Suspects" "Ctrl+K then $2 left no trace"
  grep -q "held=1 " "$state" || fail "the $2 typed during the scan of suspects was dropped"
  grep -q "prompt=progress " "$state" || fail "the scan's progress is not the prompt on top (Escape and Cancel do not reach it)"
}

# cancelled AT: the scan cancelled, nothing changed but the digit typed on sample AT, applied
# (the cursor moved on to AT+1).
cancelled() {
  until_state "prompt=- " "the scan's progress did not close"
  # One wait for the whole end: the status already says "cancelled" after an earlier scan, and a
  # state line is written while the key that waited is applied, before the cursor moves on.
  until_state "mode=browse .*cursor=$(($1 + 1)) .*held=0 .*prompt=- .*status=Find_Suspects_cancelled" \
    "after the cancelled scan the window is not browsing with the cursor on $(($1 + 1)), nothing waiting (the key typed during the scan was dropped?)"
}

export FYNE_THEME=dark IDXLABEL_TEST_SUSPECTS_GATE=$gate IDXLABEL_QUICK_CNN=1
start_state "$images" "$labels"
until_state "cursor=0 .*samples=10000 " "the pair did not open with the cursor on sample 0"
xdotool key --delay 100 --clearmodifiers Right Right Right Right Right

# 1. The Cancel button.
scan_with_key 5 8
click_progress_cancel scan
cancelled 5
echo "suspectscancel: the scan's Cancel button, clicked at $PROGRESS_CANCEL_AT, cancelled it; the 8 typed meanwhile applied to sample 5"

# 2. Escape.
scan_with_key 6 3
xdotool key --clearmodifiers Escape
cancelled 6
echo "suspectscancel: Escape cancelled the scan; the 3 typed meanwhile applied to sample 6"

# scan_tab_key AT DIGIT: on sample AT, Ctrl+K; once its progress is on top and drawn (its Cancel
# button found on the screen, PROGRESS_CANCEL_AT, before the focus changes its colour), Tab
# focuses that button and DIGIT is typed.
scan_tab_key() {
  until_state "mode=browse .*cursor=$1 .*held=0 " "the cursor is not on sample $1, browsing, with nothing waiting"
  xdotool key --clearmodifiers ctrl+k
  until_state "prompt=progress " "Ctrl+K showed no progress"
  find_progress_cancel scan
  xdotool key --delay 150 --clearmodifiers Tab "$2"
}

# 3. The Cancel button focused with Tab: a digit still reaches the grid, a click still cancels.
scan_tab_key 7 0
xwd -root -silent | /usr/bin/convert xwd:- png:"$XVFB_CFG/focused.png"
[ -z "${SUSPECTSCANCEL_SHOT:-}" ] || cp "$XVFB_CFG/focused.png" "$SUSPECTSCANCEL_SHOT"
# shellcheck disable=SC2086 # PROGRESS_CANCEL_AT is "X Y"
xdotool mousemove $PROGRESS_CANCEL_AT click 1
cancelled 7
echo "suspectscancel: with the scan's Cancel button focused (Tab), the 0 typed reached the grid; the button clicked cancelled"

# 4. Escape with the Cancel button focused.
scan_tab_key 8 6
xdotool key --clearmodifiers Escape
cancelled 8
echo "suspectscancel: with the Cancel button focused, the 6 typed reached the grid and Escape cancelled"

# 5. The scan let through: the review shows after the key typed during it.
scan_with_key 9 2
touch "$gate"
until_state "mode=Suspects method=kNN .*held=0 " "the scan let through did not show its review, the key applied"
echo "suspectscancel: the scan let through showed its review, the 2 typed meanwhile no longer waiting (where it landed: the save below)"

save_keys "$labels" "after the keys"
cmp -s "$images" "$work/images.before" || fail "the image file changed"
python3 - "$labels" "$work/labels.before" <<'PY' || fail "the labels saved are not t10k's with 8, 3, 2 on samples 5, 6, 7"
import gzip, sys
got, was = gzip.open(sys.argv[1]).read(), gzip.open(sys.argv[2]).read()
want = was[:8 + 5] + bytes([8, 3, 0, 6, 2]) + was[8 + 10:]
if got != want:
    diff = [i - 8 for i in range(8, max(len(got), len(want))) if got[i:i + 1] != want[i:i + 1]]
    print("suspectscancel: samples saved otherwise than wanted:", diff[:10], "labels 5..9", list(got[13:18]), file=sys.stderr)
    sys.exit(1)
PY
quit_app || fail "Ctrl+Q after the save"
! grep -qi "panic" "$log" || fail "the window panicked"
echo "suspectscancel: ok (saved: 8, 3, 0, 6, 2 on samples 5 to 9, nothing else changed)"
