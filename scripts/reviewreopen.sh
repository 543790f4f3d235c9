#!/usr/bin/env bash
# Real-window regression test: a review's decisions outlive a save, a quit and a reopen
# (store/accepted.go, pairfile/accepted.go: the reviewed-marks file beside the label file). On a
# copy of the t10k pair: Ctrl+K; once the CNN's ranking is the list (IDXLABEL_QUICK_CNN=1), →
# keeps the labels of its first three suspects (three decisions, the cursor moving on each time);
# Ctrl+S, Ctrl+Q. From outside, the file "<labels>.idxlabel-reviewed" must list exactly those
# three samples. The pair is opened again, Ctrl+K, Home: the list (the CNN's, read from the scan's
# disk cache) must say "reviewed 3 / N", and at its end (End) count every suspect before the last
# but those three undecided. Before, the decisions lived only in the session: the reopened list
# said "reviewed 0" and showed the three as undecided again. Every wait is on the window's state
# line (IDXLABEL_TEST_STATE), never on the clock. Screenshots: /tmp/reviewreopen-*.png.
# Usage: scripts/reviewreopen.sh BINARY T10K_IMAGES (MNIST's t10k image file, its labels beside it)
set -euo pipefail
bin=$(realpath "$1")
src=$2
. "$(dirname "$0")/xvfb.sh"
start_xvfb
copy_t10k "$src"
images=$work/t10k-images-idx3-ubyte.gz
labels=$work/t10k-labels-idx1-ubyte.gz
marks=$labels.idxlabel-reviewed
state=$XVFB_CFG/state
log=$XVFB_CFG/app.log

shot() { xwd -root -silent | /usr/bin/convert xwd:- "png:/tmp/reviewreopen-$1.png" || true; }
fail() { shot fail; echo "reviewreopen: $*; screenshot /tmp/reviewreopen-fail.png" >&2; [ -f "$state" ] && echo "state: $(cat "$state")" >&2; tail -n 20 "$log" >&2; exit 1; }
# field NAME: the value of NAME on the state line now.
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$state" 2>/dev/null; }

# suspects: Ctrl+K, waiting for the CNN's ranking to be the list, then Home: the cursor on its
# most suspicious (the ranking keeps the cursor on the sample it was on in the kNN's list, and
# its message is the status bar's until the cursor moves).
suspects() {
  xdotool key --clearmodifiers ctrl+k
  until_state "mode=Suspects method=CNN " "Ctrl+K never showed the CNN's list of suspects"
  xdotool key --clearmodifiers Home
  until_state "mode=Suspects method=CNN cursor=0 " "Home did not go to the list's first suspect"
}

export IDXLABEL_QUICK_CNN=1
start_state "$images" "$labels"
suspects
decided=()
for k in 0 1 2; do
  decided+=("$(field sample)")
  xdotool key --clearmodifiers Right
  until_state "mode=Suspects method=CNN cursor=$((k + 1)) .*undecided=0 .*reviewed_$((k + 1))_/_" "→ on suspect $k (sample ${decided[k]}) was not counted a decision"
done
total=$(sed -n 's/.*reviewed_3_\/_\([0-9,]*\).*/\1/p' "$state")
echo "reviewreopen: the labels of samples ${decided[*]} kept (reviewed 3 / $total)"
shot decided
xdotool key --clearmodifiers ctrl+s
wait_clean "$MAIN"
quit_app || fail "the app did not quit cleanly"
grep -qi "panic\|fatal" "$log" && fail "the app logged a panic"

[ -f "$marks" ] || fail "the save kept no reviewed marks beside the labels ($marks)"
want=$(printf '%s\n' "${decided[@]}" | sort -n)
got=$(awk 'NR > 5' "$marks")
[ "$got" = "$want" ] || fail "the reviewed marks list $(echo $got), not the samples decided: $(echo $want)"

# The second session: the three are still decided.
start_state "$images" "$labels"
suspects
shot reopened
# End: the undecided samples before the last are all but the three.
xdotool key --clearmodifiers End
at_end "End did not go to the list's last suspect"
grep -q "status=.*reviewed_3_/_" "$state" || fail "after the reopen the list says $(field status | grep -o 'reviewed_[0-9,]*_/_[0-9,]*' | tr _ ' '), not reviewed 3: the decisions on samples ${decided[*]} were lost"
shown=$(field shown)
[ "$(field undecided)" -eq $((shown - 4)) ] || fail "after the reopen $(field undecided) of the $((shown - 1)) suspects before the last are undecided, not $((shown - 4)): the three decided count as undecided"
quit_app || fail "the app did not quit cleanly"
echo "reviewreopen: ok (samples ${decided[*]} still reviewed after a save, a quit and a reopen)"
