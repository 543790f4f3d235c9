#!/usr/bin/env bash
# Real-window regression test: an edit whose journal record cannot be written (a full disk) is
# refused on the status bar, never in a dialog, and nothing is lost. The window runs with a file
# size limit (ulimit -S -f: its journal, a file like any other, cannot grow past 2 KiB), as a
# disk that fills up would make it:
#  1. 5 typed 90 times from sample 0 of a generated pair of 200 (labels i mod 10): the first
#     edits are journaled and shown; once the journal is full each key is refused, the status bar
#     says the edit was not made and why, no dialog opens (a burst of keys would have stacked
#     them), and the cursor stays on the sample the refused key was typed on.
#  2. The limit lifted (prlimit: room again), 7 typed there is made; Ctrl+S saves. The saved
#     labels are exactly the edits the window showed as made: 5 on the samples before the cursor,
#     7 on the cursor's, the others as they were.
# The window's state comes from IDXLABEL_TEST_STATE (ui/testhooks.go); the script waits on it and
# on files, not on the clock.
# Usage: scripts/journalfull.sh BINARY
set -euo pipefail
bin=$(realpath "$1")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state
work=$XVFB_CFG/data
mkdir -p "$work"
fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/journalfull-fail.png 2>/dev/null || true
  echo "journalfull: $* (screenshot /tmp/journalfull-fail.png)" >&2
  [ -f "$state" ] && echo "state: $(cat "$state")" >&2
  cat "$log" >&2; exit 1
}
plain_pair "$work" 200

# 1. A soft limit of 2 KiB on every file the window writes (the hard limit stays, so that it can
# be lifted without privileges).
(ulimit -S -f 2; exec env IDXLABEL_TEST_STATE="$state" "$bin" "$work/p-images-idx3-ubyte" "$labels" >"$log" 2>&1) &
APP_PID=$!
MAIN=$(wait_window) || fail "no window appeared"
until_state "cursor=0 .*samples=200 " "the pair did not open with the cursor on sample 0"
xdotool windowfocus --sync "$MAIN"
xdotool key --delay 30 --clearmodifiers $(printf '5 %.0s' $(seq 90))
until_state "status=Not_done_[(]the_edit_could_not_be_recorded.*file_too_large" "the status bar does not say the edit was not made"
# The last keys handled: F1, typed after them, opens the keyboard reference once they are (the
# window handles its keys in order); Escape closes it, and no other dialog may be left open.
xdotool key --clearmodifiers F1
until_state "prompt=[^-]" "F1 typed after the digits opened no keyboard reference"
xdotool key --clearmodifiers Escape
until_state "prompt=- " "a dialog opened on a refused edit (or Escape did not close the keyboard reference)"
cursor=$(sed -n 's/.* cursor=\([0-9]*\) .*/\1/p' "$state")
[ "$cursor" -gt 5 ] && [ "$cursor" -lt 90 ] || fail "the cursor is at $cursor: the journal took all the keys or none"
echo "journalfull: with the journal full, $cursor edits made, the next keys refused on the status bar (no dialog), the cursor on sample $cursor"

# 2. Room again: the next key is made, and the save holds exactly what the window showed.
prlimit --pid "$APP_PID" --fsize=unlimited: || fail "prlimit could not lift the limit"
xdotool key --clearmodifiers 7
until_state "cursor=$((cursor + 1)) " "7 typed once there was room was not made"
before=$(stat -c %i "$labels")
xdotool key --clearmodifiers ctrl+s
for _ in $(seq 300); do [ "$(stat -c %i "$labels")" != "$before" ] && break; sleep 0.1; done
[ "$(stat -c %i "$labels")" != "$before" ] || fail "Ctrl+S did not save"
python3 - "$labels" "$cursor" <<'PY' || fail "the saved labels are not the edits the window showed"
import sys
got = open(sys.argv[1], "rb").read()[8:]
n = int(sys.argv[2])
want = bytes([5] * n + [7]) + bytes(i % 10 for i in range(n + 1, 200))
if got != want:
    print("journalfull: saved", list(got[:n + 3]), "… want", list(want[:n + 3]), "…", file=sys.stderr)
    sys.exit(1)
PY
quit_app || fail "Ctrl+Q after the save"
! grep -qi "panic" "$log" || fail "the window panicked"
echo "journalfull: ok (the $cursor edits made and the 7 saved; the refused keys changed nothing)"
