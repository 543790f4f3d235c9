#!/usr/bin/env bash
# Real-window regression test: when the CNN's ranking replaces the first (kNN) list of suspects,
# the cursor goes to the new list's first sample not reviewed yet, in sight. Before, it stayed on
# its sample, which the new list had in its middle (#72 of 123): the view jumped there and the
# person had to press Home.
# On a copy of the t10k pair: Ctrl+K; on the kNN's list, → twice (two decisions: labels kept)
# and End (the cursor on the last suspect); then the CNN's ranking is let through (it waits for a
# gate file: IDXLABEL_TEST_RANK_GATE) and the window's state (IDXLABEL_TEST_STATE, ui/testhooks.go)
# must show the CNN's list with the cursor on a sample not decided yet, none undecided before it,
# its tile in sight. The script waits on that state file, not on the clock.
# Usage: scripts/rank.sh BINARY [T10K_IMAGES]
set -euo pipefail
bin=$(realpath "$1")
images=${2:-}
if [ -z "$images" ] || [ ! -f "$images" ]; then
  echo "rank: ${images:-no t10k images given} not found; skipping (it needs the real MNIST files)"
  exit 0
fi
. "$(dirname "$0")/xvfb.sh"
start_xvfb
copy_t10k "$images"
gate=$XVFB_CFG/gate
state=$XVFB_CFG/state
log=$XVFB_CFG/app.log

fail() { echo "rank: $*" >&2; [ -f "$state" ] && echo "state: $(cat "$state")" >&2; cat "$log" >&2; exit 1; }
# until PATTERN waits (up to 300 s: the kNN scan and the CNN under load) for the state to match.
until_state() {
  for _ in $(seq 3000); do grep -Eq "$1" "$state" 2>/dev/null && return 0; sleep 0.1; done
  fail "the window's state never matched $1"
}

IDXLABEL_QUICK_CNN=1 IDXLABEL_TEST_RANK_GATE=$gate IDXLABEL_TEST_STATE=$state \
  "$bin" "$work/t10k-images-idx3-ubyte.gz" "$work/t10k-labels-idx1-ubyte.gz" >"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
ready "$main"
xdotool key --clearmodifiers ctrl+k
until_state "mode=Suspects method=kNN cursor=0 "
xdotool key --clearmodifiers Right
until_state "method=kNN cursor=1 "
xdotool key --clearmodifiers Right
until_state "method=kNN cursor=2 "
xdotool key --clearmodifiers End
until_state "method=kNN cursor=([0-9]+) shown=.* undecided=[1-9]"
knn=$(cat "$state")
grep -q "undecided=0 " "$state" && fail "End left the cursor with no undecided suspect before it"
touch "$gate"
# The CNN's list in place, the cursor on its first undecided suspect, in sight (or, failing that,
# the timeout, and the state it shows).
until_state "mode=Suspects method=CNN .* insight=1 undecided=0"
cnn=$(cat "$state")
case "$cnn" in
  *"mode=Suspects method=CNN "*" insight=1 undecided=0"*) ;;
  *) fail "after the CNN's ranking the cursor is not on the first undecided suspect in sight: $cnn (on the kNN's list: $knn)" ;;
esac
kill "$APP_PID" 2>/dev/null; wait "$APP_PID" 2>/dev/null || true # two decisions unsaved: not quit
APP_PID=""
grep -qi panic "$log" && fail "the app panicked"
echo "rank: ok (kNN list: $knn; CNN list: $cnn)"
