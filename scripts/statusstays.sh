#!/usr/bin/env bash
# Real-window regression test: a message on the status bar stays until the cursor moves or the
# state changes, whatever else redraws the window meanwhile (ui/said.go). Before, any redraw put
# the default status line back at once (a scan's result, a round of suggestions), so a message
# the person had to read (a refusal, "nothing was written") could vanish unread.
# On a copy of the t10k pair: Tools → Scan Again starts the CNN scan (IDXLABEL_QUICK_CNN), whose
# result waits for a gate file (IDXLABEL_TEST_RANK_GATE); once the scan is kept beside the image
# file (it is done, at the gate), Ctrl+Shift+A, with no suggestions, says so on the status bar
# (no edit, the cursor stays); the window is resized; then the gate is opened and the scan's
# result is handed to the window, which shows everything that depends on the cursor again. Once
# the window's state line (IDXLABEL_TEST_STATE, ui/testhooks.go) says no job runs (or, on code
# that loses the message, its status bar no longer says it), the message must still be there.
# Then → moves the cursor: the status bar's own line comes back (the message ends there). Last,
# a round of the Suggested list arriving (below). Every wait is on the state line or a file,
# never on the clock. Screenshots: /tmp/statusstays-*.png.
# Usage: scripts/statusstays.sh BINARY [T10K_IMAGES]
set -euo pipefail
bin=$(realpath "$1")
images=${2:-}
if [ -z "$images" ] || [ ! -f "$images" ]; then
  echo "statusstays: ${images:-no t10k images given} not found; skipping (it needs the real MNIST files)"
  exit 0
fi
. "$(dirname "$0")/xvfb.sh"
start_xvfb
copy_t10k "$images"
gate=$XVFB_CFG/gate
state=$XVFB_CFG/state
log=$XVFB_CFG/app.log
kept=$work/t10k-images-idx3-ubyte.gz.idxlabel-scan # suspect/scancache.Suffix

shot() { xwd -root -silent | /usr/bin/convert xwd:- "png:/tmp/statusstays-$1.png" || true; }
fail() { shot fail; echo "statusstays: $*; screenshot /tmp/statusstays-fail.png" >&2; [ -f "$state" ] && echo "state: $(cat "$state")" >&2; tail -n 20 "$log" >&2; exit 1; }
# status: the status bar's text on the state line now (its white space written _).
status() { sed -n 's/.* status=\(.*\)$/\1/p' "$state" 2>/dev/null; }

IDXLABEL_QUICK_CNN=1 IDXLABEL_TEST_RANK_GATE=$gate IDXLABEL_TEST_STATE=$state \
  "$bin" "$work/t10k-images-idx3-ubyte.gz" "$work/t10k-labels-idx1-ubyte.gz" >"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
ready "$main"
xdotool key --clearmodifiers Right
until_state "cursor=1 " "→ did not move the cursor"

# Tools → Scan Again (the ninth item of the Tools menu, 40 px a row below the menu bar), clicked
# once the menu's popup is drawn.
before=$(patch 230 360)
xdotool mousemove 167 12 click 1
for _ in $(seq $((WAIT_TENTHS / 5))); do [ "$(patch 230 360)" != "$before" ] && break; sleep 0.5; done
xdotool mousemove 230 360 click 1
for _ in $(seq "$WAIT_TENTHS"); do [ -s "$kept" ] && break; kill -0 "$APP_PID" 2>/dev/null || fail "the app exited"; sleep 0.1; done
[ -s "$kept" ] || fail "Tools → Scan Again kept no scan beside the image file ($kept)"
xdotool windowfocus --sync "$main"

# The message: nothing to accept (no edit, the cursor stays on sample 1).
xdotool key --clearmodifiers ctrl+shift+a
until_state "cursor=1 .*status=No_suggestions_to_accept_yet" "Ctrl+Shift+A said nothing on the status bar"
said=$(status)
# A redraw that is neither a move of the cursor nor a change of the state: a resize, then the
# scan's result.
xdotool windowsize "$main" 1200 780
touch "$gate"
for _ in $(seq "$WAIT_TENTHS"); do
  grep -q " jobs=0 " "$state" && break
  [ "$(status)" != "$said" ] && break
  sleep 0.1
done
shot redrawn
grep -q "cursor=1 " "$state" || fail "the cursor moved while the scan's result came in"
now=$(status)
[ "$now" = "$said" ] || fail "the scan's result replaced the message: the status bar said \"$said\", then \"$now\""
grep -q " jobs=0 " "$state" || fail "the scan never ended (its result waits for $gate)"
echo "statusstays: the message stayed through a resize and the scan's result: $now"

# The cursor moves: the message ends, the status bar says the state again.
xdotool key --clearmodifiers Right
until_state "cursor=2 " "→ did not move the cursor"
[ "$(status)" != "$said" ] || fail "the message stayed after the cursor moved"
case $(status) in
*10,000_samples*) ;;
*) fail "after the cursor moved the status bar says $(status), not the dataset's line" ;;
esac
quit_app || fail "the app did not quit"

# A round of the Suggested list arriving: its report is a note, which does not replace the
# message. The first 1,000 t10k images without labels (loop_pair): Ctrl+Shift+U shows the list
# (its first round asks); the first ask's true label is typed, which starts a round 2 s later
# (the labels rest first), and the cursor moves to the next ask, where Enter says that it has no
# suggestion (no edit, the cursor stays). Once the round is in (the list's dump, written just
# before its report), F1 opens the keyboard reference, whose state line is written after the
# report: the message must still be there. When the round came before Enter was handled (a
# machine too loaded for 2 s), another label starts another round, up to 10 times.
loop_pair statusstays "$images" loop
rm -f "$state" "$list"
IDXLABEL_TEST_SUGGEST=$list IDXLABEL_TEST_STATE=$state "$bin" "$images" >>"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
ready "$main"
xdotool key --clearmodifiers ctrl+shift+u
wait_round 0
n=0
for attempt in $(seq 10); do
  at=$(sed -n 's/.* sample=\([0-9]*\) .*/\1/p' "$state")
  xdotool key --clearmodifiers "$(sed -n "$((at + 1))p" "$truth")"
  n=$((n + 1))
  until_state "sample=[0-9]+ .*status=.*labelled_${n}_" "the label typed on sample $at was not applied"
  grep -q " sample=$at " "$state" && fail "the label typed on sample $at did not move the cursor on"
  xdotool key --clearmodifiers Return
  until_state "status=.*(Asked:_its_label|type_its_label)" "Enter on a sample without a suggestion said nothing"
  said=$(status)
  head -n 1 "$list" | grep -Eq "^# learnt from $n labels" || break
  echo "statusstays: attempt $attempt: the round came before the message; another label"
done
head -n 1 "$list" | grep -Eq "^# learnt from $n labels" && fail "every round came before the message (10 attempts)"
wait_round "$n"
xdotool key --clearmodifiers F1
until_state "prompt=keys " "F1 did not show the keyboard reference"
shot round
now=$(status)
[ "$now" = "$said" ] || fail "the Suggested round's report replaced the message: the status bar said \"$said\", then \"$now\""
echo "statusstays: the message stayed through a Suggested round: $now"
xdotool key --clearmodifiers Escape
until_state "prompt=- " "Escape did not close the keyboard reference"
xdotool key --clearmodifiers ctrl+s
wait_clean "$main"
quit_app || fail "the app did not quit"
echo "statusstays: ok"
