#!/usr/bin/env bash
# Real-window test of Tools → Check Dataset: a small pair with planted near-duplicates
# (bench/plantpair: the first 1,000 samples of IMAGES and their labels, or the
# generated demo digits without it) is opened in the built app under Xvfb; Ctrl+Shift+K opens
# the check and Enter runs it (no other set); Delete on the first duplicate the view lists
# (the tile at the cursor: the first row `idxlabel check --kinds duplicate` prints), Ctrl+S
# saves, Ctrl+Q quits. The saved pair must be the pair as it was with exactly that sample left
# out (compared as CSV exports), and the Duplicates button must count one fewer after the save
# (it kept its count over one tile fewer; read from the window's state, IDXLABEL_TEST_STATE).
# Between the Delete and the save, Tab focuses a kind button and a digit typed there must
# relabel the sample at the cursor: the saved pair holds it too.
# IDXLABEL_QUICK_CNN=1 shortens the CNN scan the check shares
# (2 folds, 1 seed, 2 epochs; ui/quickcnn.go) so the script stays well under a minute.
# Usage: scripts/checkdup.sh BINARY [IMAGES]
set -euo pipefail
bin=$(realpath "$1")
images=${2:-}
root=$(cd "$(dirname "$0")/.." && pwd)

. "$(dirname "$0")/xvfb.sh"
start_xvfb
work=$XVFB_CFG/data
mkdir -p "$work"
pi=$work/small-images-idx3-ubyte pl=$work/small-labels-idx1-ubyte
fail() { echo "checkdup: $*" >&2; [ -f "${state:-}" ] && echo "state: $(cat "$state")" >&2; [ -f "$XVFB_CFG/app.log" ] && cat "$XVFB_CFG/app.log" >&2; exit 1; }

if [ -n "$images" ] && [ -f "$images" ]; then
  labels=${images/images-idx3/labels-idx1}
  (cd "$root" && go run ./bench/plantpair -from "$images" "$labels" "$pi" "$pl") >"$work/planted.csv" || fail "bench/plantpair failed"
else
  echo "checkdup: ${images:-no image file given} not found; planting into the generated demo digits"
  (cd "$root" && go run ./bench/plantpair "$pi" "$pl") >"$work/planted.csv" || fail "bench/plantpair failed"
fi
# The view lists the duplicates as the check command does: its first row is the first tile.
first=$("$bin" check --kinds duplicate "$pi" "$pl" 2>"$work/check.err" | awk -F, 'NR == 2 { print $2 }') || fail "idxlabel check --kinds duplicate failed: $(cat "$work/check.err")"
[ -n "$first" ] || fail "idxlabel check found no duplicate in the planted pair"
"$bin" export --format csv "$pi" "$pl" "$work/before.csv" 2>"$work/export.err" || fail "export before: $(cat "$work/export.err")"

state=$XVFB_CFG/state
IDXLABEL_QUICK_CNN=1 IDXLABEL_TEST_STATE=$state "$bin" "$pi" "$pl" >"$XVFB_CFG/app.log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
ready "$main"
xdotool key --clearmodifiers ctrl+shift+k
until_state "prompt=[^-]" "Ctrl+Shift+K opened no dialog"
xdotool key --clearmodifiers Return # the dialog's path field is empty: no leakage; Check
journal=$pl.idxlabel-journal
# The check's view shows the duplicates it found (a count on their button, their tiles in the
# grid); Delete then deletes the cursor's tile.
until_state "mode=Health_check .*shown=[1-9].* tabs=.*Duplicates_[1-9]" "the check's view shows no duplicates"
xdotool key --clearmodifiers Delete
for _ in $(seq "$WAIT_TENTHS"); do [ -s "$journal" ] && break; sleep 0.1; done
[ -s "$journal" ] || fail "Delete in the check's view made no edit"
# The check's kind buttons pass on the keys they do not use: Tab from the grid focuses the first
# of them (the view lays the grid out before its top row), and a digit typed there relabels the
# sample at the cursor as if nothing had the focus (a widget.Button dropped it).
until_state "_1_deleted" "the Delete is not counted"
at=$(sed -n 's/.* sample=\([0-9]*\) .*/\1/p' "$state")
[ -n "$at" ] && [ "$at" != "$first" ] || fail "after the Delete the cursor is not on another sample: $(cat "$state")"
digit=$(( ($(sed -n "$((at + 2))p" "$work/before.csv" | cut -d, -f1) + 1) % 10 ))
xdotool key --clearmodifiers Tab
xdotool key --clearmodifiers "$digit"
until_state "_1_edited" "the $digit typed on the check's focused kind button (Tab) did not relabel sample $at (dropped?)"
dups=$(grep -o 'Duplicates_[0-9]*' "$state" | cut -d_ -f2 || true)
[ -n "$dups" ] || fail "no count on the Duplicates button: $(cat "$state")"
before=$(stat -c %Y.%s "$pi") || fail "no images file after the edit"
xdotool key --clearmodifiers ctrl+s
for _ in $(seq 150); do [ "$(stat -c %Y.%s "$pi")" != "$before" ] && [ ! -e "$journal" ] && break; sleep 0.2; done
for _ in $(seq 50); do grep -q "Duplicates_$((dups - 1))\b" "$state" && break; sleep 0.2; done
grep -q "Duplicates_$((dups - 1))\b" "$state" || fail "after the save the Duplicates button does not count $((dups - 1)) (was $dups): $(cat "$state")"
wait_clean "$main"
xdotool key --clearmodifiers ctrl+q
for _ in $(seq 100); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$APP_PID" 2>/dev/null; then
  xwd -root -silent | /usr/bin/convert xwd:- png:"${CHECKDUP_SHOT:-/tmp/checkdup-fail.png}" || true
  fail "the app did not quit on Ctrl+Q (unsaved edits?); screenshot ${CHECKDUP_SHOT:-/tmp/checkdup-fail.png}"
fi
status=0
wait "$APP_PID" || status=$?
APP_PID=""
[ "$status" -eq 0 ] || fail "the app exited with status $status"
if grep -qi "panic\|fatal" "$XVFB_CFG/app.log"; then fail "the app logged a panic"; fi

"$bin" export --format csv "$pi" "$pl" "$work/after.csv" 2>"$work/export.err" || fail "export after: $(cat "$work/export.err")"
# Line 1 is the header; a row is "label,pixel0,…".
awk -F, -v OFS=, -v at=$((at + 2)) -v digit="$digit" -v gone=$((first + 2)) 'NR == at { $1 = digit } NR != gone' "$work/before.csv" >"$work/expected.csv"
if ! cmp -s "$work/expected.csv" "$work/after.csv"; then
  fail "the saved pair is not the pair without sample $first and with sample $at labelled $digit ($(wc -l <"$work/before.csv") → $(wc -l <"$work/after.csv") lines)"
fi
echo "checkdup: ok (sample $first, the first of a near-duplicate pair, deleted in the check and saved away; sample $at relabelled $digit by a digit typed on the focused kind button; $(grep -c . "$work/planted.csv") copies planted; Duplicates $dups → $((dups - 1)))"
