#!/usr/bin/env bash
# Real-window regression test: accepted marks that no longer fit their pair are refused, said, and
# not brought back by a save (pairfile/accepted.go, store/accepted.go). Writes the first 1,000
# t10k images with an int32 label file holding the true labels of samples 0–99 (the rest without
# a label) and, beside it, accepted marks on samples 0–49 keyed by those contents, as a window's
# save leaves them. Opened, the Suggested list (Ctrl+Shift+U) counts 50 accepted: the marks fit.
# Then the label file is changed outside (sample 60's label, as another program or a writer cut
# off after its rename leaves it) and the pair opened again: a note must be on top before any
# key (the marks refused), the list must count 0 accepted and 100 labelled, and a save after a
# label typed must remove the marks file (no sample accepted), not write the stale marks back;
# the round that label starts must show its note after the list's counts, not in their place.
# Every wait is on the window's state line (IDXLABEL_TEST_STATE), never on time alone.
# Screenshots: /tmp/stalemarks-*.png.
# Usage: scripts/stalemarks.sh BINARY T10K_IMAGES (its labels beside it, MNIST's names)
set -euo pipefail
bin=$(realpath "$1")
src=$(realpath "$2")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
loop_pair stalemarks "$src" loop
marks=$labels.idxlabel-accepted
state=$XVFB_CFG/state
log=$XVFB_CFG/app.log

shot() { xwd -root -silent | /usr/bin/convert xwd:- "png:/tmp/stalemarks-$1.png" || true; }
fail() { shot fail; echo "stalemarks: $*; screenshot /tmp/stalemarks-fail.png" >&2; cat "$log" >&2; exit 1; }

# write_labels CHANGE: the label file (int32: samples 0–99 their truth, plus CHANGE added to sample
# 60's, mod 10; the rest NoLabel) and, with CHANGE 0, the marks on samples 0–49 keyed by the
# pair's contents (pairfile.KeyOf: SHA-256 of dtype, rank, dimensions and label data; CRC-32C of
# the image data).
write_labels() {
  python3 - "$labels" "$truth" "$1" <<'PY'
import struct, sys
labels, truth, change = sys.argv[1:]
n = 1000
lab = [int(l) for l in open(truth).read().split()][:n]
vals = [lab[i] if i < 100 else -2147483648 for i in range(n)]
vals[60] = (vals[60] + int(change)) % 10
data = b"".join(struct.pack(">i", v) for v in vals)
open(labels, "wb").write(struct.pack(">I", 0x0C01) + struct.pack(">I", n) + data)
PY
  [ "$1" -ne 0 ] || accepted_marks "$images" "$labels" $(seq 0 49)
}

# start: the app on the pair, its state new; waits for its dataset, not for the keys' focus (a
# note may be on top).
start() {
  rm -f "$state" "$list"
  IDXLABEL_TEST_SUGGEST=$list IDXLABEL_TEST_STATE=$state "$bin" "$images" >>"$log" 2>&1 &
  APP_PID=$!
  wid=$(wait_window) || fail "no window appeared"
  xdotool windowactivate --sync "$wid" >/dev/null 2>&1 || true
  until_state "cursor=[0-9]" "the window never showed its dataset"
}

# shown_again: the list's counts are read once its round is refined and Ctrl+Shift+U has shown
# the list again: the round's summary is a note that holds the status bar until the cursor moves
# or the state changes, and it may come before the counts are read.
shown_again() {
  wait_round "[0-9]+" refined
  xdotool key --clearmodifiers ctrl+shift+u
}

# The marks fit: no note, 50 accepted.
write_labels 0
start
xdotool windowfocus --sync "$wid"
xdotool key --clearmodifiers ctrl+shift+u
until_state "mode=Suggested" "Ctrl+Shift+U did not show the Suggested list"
shown_again
until_state "labelled_50_·_accepted_50_·_left_900" "the Suggested list does not count the 50 accepted labels of marks that fit"
grep -q " prompt=- " "$state" || fail "a prompt is open over a pair whose marks fit: $(cat "$state")"
shot fit
quit_app || fail "the app did not quit cleanly"

# The label file changed outside: the marks are stale.
cp "$marks" "$work/marks.before"
write_labels 3
start
until_state "prompt=question" "no note on top after opening the pair whose marks no longer fit"
shot note
xdotool windowfocus --sync "$wid"
xdotool key --clearmodifiers Return
until_state "prompt=- " "Enter did not close the note"
cmp -s "$marks" "$work/marks.before" || fail "opening the pair changed its marks file"
xdotool key --clearmodifiers ctrl+shift+u
until_state "mode=Suggested" "Ctrl+Shift+U did not show the Suggested list"
shown_again
until_state "labelled_100_·_accepted_0_·_left_900" "the Suggested list counts stale marks as accepted: $(sed 's/.*status=//' "$state")"
shot stale
# A label typed (on the list's sample at the cursor, one without a label), then a save. The
# round it starts says its news on the status bar at once (its first suggestions take
# milliseconds at 1,000 samples), then the refined round's: that note is shown after the list's
# counts, not in their place (ui/said.go), so the person waiting for the round sees both, before
# any key. (Before, the note hid the counts until the next key.) Then Ctrl+Shift+U shows the
# list again, and the count is read again.
rm -f "$list"
xdotool key --clearmodifiers 5
wait_round 101 refined
until_state "status=.*Suggested_list:.*fine-tuned_from_101_labels" "the refined round's note is not on the status bar"
shot round-note
grep -q "labelled_101_·_accepted_0_·_left_899" "$state" || fail "the refined round's note hides the Suggested list's counts: $(sed 's/.*status=//' "$state")"
echo "stalemarks: the round's note and the list's counts are both on the status bar: $(sed 's/.*status=//' "$state")"
xdotool key --clearmodifiers ctrl+shift+u
until_state "labelled_101_·_accepted_0_·_left_899" "the label typed was not counted"
xdotool key --clearmodifiers ctrl+s
for _ in $(seq "$WAIT_TENTHS"); do [ ! -e "$labels.idxlabel-journal" ] && [ ! -e "$images.idxlabel-journal" ] && break; sleep 0.1; done
wait_clean "$wid"
shot saved
quit_app || fail "the app did not quit cleanly"
grep -qi "panic\|fatal" "$log" && fail "the app logged a panic"
[ -e "$marks" ] && fail "the save after opening the pair kept its stale marks (or wrote them back): $(head -n 6 "$marks" | tr '\n' ' ')"
echo "stalemarks: ok (marks that fit counted 50 accepted; stale ones refused with a note, 0 accepted, and gone after the next save)"
