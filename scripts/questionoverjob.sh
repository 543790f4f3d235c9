#!/usr/bin/env bash
# Real-window regression test: a question shown over a job's progress stays up, and answers its
# keys, when the job ends and closes its progress from under it. Fyne removes with an overlay
# every overlay above it: before, the "Unsaved edits" question asked by Ctrl+Q during an export
# vanished when the export ended, unanswered, and was still taken for open, so Escape did nothing
# to it and every later Ctrl+Q (or window close) was ignored as "a second Ctrl+Q while the
# question is open": the window could no longer be quit. On a generated pair of 3,000 samples,
# by keys: 7 relabels sample 0 (unsaved), Ctrl+Shift+E exports a CSV, which, once midway, waits
# for a gate file (IDXLABEL_TEST_EXPORT_WRITE_GATE, ui/testhook); Ctrl+Q asks about the unsaved
# edits over the progress; the gate file is made, the export ends and says so in a message; Escape
# closes the message, and Escape must then cancel the question (prompt=-); 3 relabels sample 1 (the grid has the keys back); Ctrl+Q asks
# again and Enter saves and quits. The script waits on the window's state file and the folder,
# never on the clock. QUESTIONOVERJOB_SHOT=PNG saves the window once the export has ended.
# Usage: scripts/questionoverjob.sh BINARY
set -euo pipefail
bin=$(realpath "$1")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state
work=$XVFB_CFG/data
gate=$XVFB_CFG/gate
mkdir -p "$work"

fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/questionoverjob-fail.png 2>/dev/null || true
  echo "questionoverjob: $* (screenshot /tmp/questionoverjob-fail.png)" >&2
  [ -f "$state" ] && echo "state: $(cat "$state")" >&2
  cat "$log" >&2; exit 1
}

plain_pair "$work" 3000
IDXLABEL_TEST_EXPORT_WRITE_GATE=$gate start_state "$images" "$labels"
before=$(ls -A "$work")

xdotool key --clearmodifiers 7
until_state "cursor=1 .*_1_edited," "7 did not relabel sample 0"
xdotool key --clearmodifiers ctrl+shift+e
until_state "prompt=export " "Ctrl+Shift+E opened no Export dialog"
xdotool key --delay 100 --clearmodifiers Tab Right Tab Return # CSV, in the target's field: Export
until_state "prompt=progress " "the export did not start"
for _ in $(seq "$WAIT_TENTHS"); do [ "$(ls -A "$work")" != "$before" ] && break; sleep 0.1; done
[ "$(ls -A "$work")" != "$before" ] || fail "the export wrote nothing beside its target"
xdotool key --clearmodifiers ctrl+q
until_state "prompt=unsaved " "Ctrl+Q during the export asked nothing about the unsaved edits"
touch "$gate" # the export goes on and ends, closing its progress under the question
until_state "prompt=exported .*jobs=0 " "the export did not end (its message on top)"
xdotool key --clearmodifiers Escape # the export's message
until_state "prompt=unsaved " "Escape did not close the export's message"
[ -z "${QUESTIONOVERJOB_SHOT:-}" ] || { sleep 1; xwd -root -silent | /usr/bin/convert xwd:- png:"$QUESTIONOVERJOB_SHOT"; }
xdotool key --clearmodifiers Escape
until_state "prompt=- " "Escape did not cancel the question once the export under it ended (it vanished with the export's progress)"
xdotool key --clearmodifiers 3
until_state "cursor=2 .*_2_edited," "3 typed after the question did not reach the grid"
xdotool key --clearmodifiers ctrl+q
until_state "prompt=unsaved " "a second Ctrl+Q asked nothing"
xdotool key --clearmodifiers Return # Save, then quit
for _ in $(seq "$WAIT_TENTHS"); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.1; done
! kill -0 "$APP_PID" 2>/dev/null || fail "Enter on the question (Save) did not save and quit"
status=0
wait "$APP_PID" || status=$?
APP_PID=""
[ "$status" -eq 0 ] || fail "the app exited with status $status"
python3 - "$labels" <<'PY' || fail "the label file saved is not the pair's with samples 0 and 1 labelled 7 and 3"
import sys
got = open(sys.argv[1], "rb").read()[8:]
sys.exit(got != bytes([7, 3]) + bytes(i % 10 for i in range(2, 3000)))
PY
! grep -qi "panic" "$log" || fail "the window panicked"
echo "questionoverjob: ok"
