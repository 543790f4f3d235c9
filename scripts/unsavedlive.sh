#!/usr/bin/env bash
# Real-window regression test: a new dataset's journal that a live window is writing is never
# offered to another idxlabel. Process 1 starts (the demo), makes a new dataset (Ctrl+N, Enter)
# and adds one drawing labelled 3 in the draw window: its journal, in the per-user unsaved
# folder, now holds an edit. Process 2, started meanwhile with no files (it looks for unsaved
# new datasets at start), must not offer it (its state line: no "unsaved dataset" prompt once it
# shows the demo; the offer is made before the window first shows). Before, it offered the
# journal, and Restore would have had both windows write it, "Set it aside" renamed it under
# process 1. Then process 1 is killed (kill -9: its edit unsaved) and process 3, started the same
# way, must offer the journal and restore the drawing (Enter: samples=1, "untitled (restored)").
# Usage: scripts/unsavedlive.sh BINARY
set -euo pipefail
bin=$(realpath "$1")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
unsaved=$XDG_CONFIG_HOME/idxlabel/unsaved
P1=""
P2=""
fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/unsavedlive-fail.png 2>/dev/null || true
  echo "unsavedlive: $* (screenshot /tmp/unsavedlive-fail.png)" >&2; cat "$log" >&2; exit 1
}
cleanup() {
  for p in $P1 $P2; do kill -9 "$p" 2>/dev/null || true; done
  stop_xvfb
}
trap cleanup EXIT

# start STATE: starts the app with no files, its state line in STATE; sets APP_PID.
start() {
  rm -f "$1"
  IDXLABEL_TEST_STATE=$1 "$bin" >>"$log" 2>&1 &
  APP_PID=$!
}

# 1. Process 1: the demo, then a new dataset with one drawing labelled 3.
state=$XVFB_CFG/state1
start "$state"
P1=$APP_PID
main=$(wait_window) || fail "no window appeared"
ready "$main"
grep -q "prompt=- " "$state" || fail "process 1 asked something at start: $(cat "$state")"
xdotool key --clearmodifiers ctrl+n
until_state "prompt=new_dataset " "Ctrl+N opened no New dataset dialog"
xdotool key --clearmodifiers Return
until_state "dataset=untitled .*prompt=- " "Enter in the New dataset dialog made no new dataset"
DRAW_WIN=$(timeout 60 xdotool search --sync --onlyvisible --name "Draw digits" | head -n 1) || fail "no draw window opened for the new dataset"
eval "$(xdotool getwindowgeometry --shell "$DRAW_WIN")"
xdotool windowfocus --sync "$DRAW_WIN"
xdotool mousemove $((X + 120)) $((Y + 110)) mousedown 1
for k in $(seq 10); do xdotool mousemove $((X + 120 + 20 * k)) $((Y + 110)); done
for k in $(seq 12); do xdotool mousemove $((X + 320 - 8 * k)) $((Y + 110 + 22 * k)); done
xdotool mouseup 1
xdotool key --clearmodifiers 3 Return
until_state " samples=1 dataset=untitled " "the drawing labelled 3 was not added"
journals=("$unsaved"/*.idxlabel-journal)
[ -f "${journals[0]}" ] || fail "no journal of the new dataset in $unsaved"
echo "unsavedlive: process 1 writes ${journals[0]##*/}"

# 2. Process 2, while process 1 lives: no offer of process 1's journal.
state=$XVFB_CFG/state2
start "$state"
P2=$APP_PID
until_state "cursor=[0-9].* dataset=demo " "process 2 never showed the demo"
# The offer is made in the window's set-up, before it is shown: once process 2's window shows
# (two main windows), its state line says whether it offered anything.
for _ in $(seq "$WAIT_TENTHS"); do
  [ "$(xdotool search --onlyvisible --name "^IDX Labeler" 2>/dev/null | wc -l)" -ge 2 ] && break
  sleep 0.1
done
[ "$(xdotool search --onlyvisible --name "^IDX Labeler" | wc -l)" -ge 2 ] || fail "process 2 shows no window"
line=$(cat "$state")
case "$line" in
*prompt=unsaved_dataset*) fail "process 2 offered the journal process 1 is writing: $line" ;;
*"prompt=- "*) echo "unsavedlive: process 2 offered nothing" ;;
*) fail "process 2 shows a prompt at start: $line" ;;
esac
[ -f "${journals[0]}" ] || fail "process 1's journal is gone"
kill "$P2"; wait "$P2" 2>/dev/null || true
for _ in $(seq "$WAIT_TENTHS"); do
  [ "$(xdotool search --onlyvisible --name "^IDX Labeler" 2>/dev/null | wc -l)" -le 1 ] && break
  sleep 0.1
done
P2=""

# 3. Process 1 killed, its drawing unsaved: process 3 offers it and restores it.
{ kill -9 "$P1"; wait "$P1"; } 2>/dev/null || true
P1=""
for _ in $(seq "$WAIT_TENTHS"); do
  [ -z "$(xdotool search --onlyvisible --name "IDX Labeler" 2>/dev/null)" ] && break
  sleep 0.1
done
state=$XVFB_CFG/state3
start "$state"
P2=$APP_PID
until_state "prompt=unsaved_dataset " "process 3 did not offer the journal of process 1, killed"
main=$(wait_window) || fail "process 3 shows no window"
xdotool windowfocus --sync "$main"
xdotool key --clearmodifiers Return
until_state " samples=1 dataset=untitled_\(restored\) .*prompt=- " "Enter did not restore the drawing"
echo "unsavedlive: process 3 restored the drawing of process 1; ok"
