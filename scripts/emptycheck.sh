#!/usr/bin/env bash
# Real-window regression test: a key typed while the health check's kind shown lists no sample
# (not found yet while the check runs, or found empty: nothing wrong) changes nothing and says
# so on the status bar, with why, and the legend says so (no key offered as acting on a sample);
# once the list fills, the legend offers the list's keys and a digit relabels the sample at the
# cursor. Before, a digit typed there did nothing and said nothing: a key dropped unsaid; and
# the legend offered "0–9 relabel" over the empty view.
# On a copy of the t10k pair (no near-duplicates in it): Ctrl+Shift+K, Enter (no other set), a
# 7 typed at once, while the check's view shows no tile (its Duplicates list first, found empty
# or not found yet) and the check runs: the CNN scan it waits for holds its result until a gate
# file exists (IDXLABEL_TEST_RANK_GATE), so every key below meets the check running, however
# fast the machine. The status bar must say "7 typed: no sample is shown here, nothing
# changed (Duplicates: …)"; then, the duplicates found (none), Delete and a 3 must say so too,
# "(Duplicates: none found)". No journal may exist: nothing was edited. The gate opened, the
# label errors fill the view; a digit typed then relabels the cursor's sample; Ctrl+S, Ctrl+Q;
# the label file, read from outside, differs from the copy in that sample alone. Every wait is
# on the window's state line (IDXLABEL_TEST_STATE, ui/testhooks.go), never on the clock.
# Screenshots: /tmp/emptycheck-empty-$FYNE_THEME.png (the message), /tmp/emptycheck-fail.png.
# Usage: scripts/emptycheck.sh BINARY [T10K_IMAGES]
set -euo pipefail
bin=$(realpath "$1")
images=${2:-}
if [ -z "$images" ] || [ ! -f "$images" ]; then
  echo "emptycheck: ${images:-no t10k images given} not found; skipping (it needs the real MNIST files)"
  exit 0
fi
. "$(dirname "$0")/xvfb.sh"
start_xvfb
copy_t10k "$images"
labels=$work/t10k-labels-idx1-ubyte.gz
cp "$labels" "$XVFB_CFG/orig-labels.gz"
gate=$XVFB_CFG/gate
state=$XVFB_CFG/state
log=$XVFB_CFG/app.log
journal=$labels.idxlabel-journal

shot() { xwd -root -silent | /usr/bin/convert xwd:- "png:/tmp/emptycheck-$1.png" || true; }
fail() { shot fail; echo "emptycheck: $*; screenshot /tmp/emptycheck-fail.png" >&2; [ -f "$state" ] && echo "state: $(cat "$state")" >&2; tail -n 20 "$log" >&2; exit 1; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" "$state" 2>/dev/null; }
nothing="no_sample_is_shown_here,_nothing_changed"

IDXLABEL_QUICK_CNN=1 IDXLABEL_TEST_RANK_GATE=$gate IDXLABEL_TEST_STATE=$state \
  "$bin" "$work/t10k-images-idx3-ubyte.gz" "$labels" >"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
ready "$main"
xdotool key --clearmodifiers ctrl+shift+k
until_state "prompt=[^-]" "Ctrl+Shift+K opened no dialog"
xdotool key --clearmodifiers Return 7 # Check, no other set; a 7 at once, on the empty view
until_state "mode=Health_check .*status=7_typed:_${nothing}_\(Duplicates:_(not_found_yet,_the_check_runs|none_found)" \
  "the 7 typed on the check's empty view said nothing (dropped?)"
grep -Eq " shown=0 .* jobs=[1-9]" "$state" || fail "the 7 was not typed on an empty view while the check ran"
# The duplicates found (none in t10k), the label errors wait for the CNN scan, held by the gate.
until_state "tabs=Label_errors_…\|Outliers_…\|Duplicates_0 " "the check did not find the duplicates (none) while it waited for the CNN scan"
xdotool key --clearmodifiers Delete
until_state "status=Delete:_${nothing}_\(Duplicates:_none_found\)" "Delete on the check's empty view said nothing"
xdotool key --clearmodifiers 3
until_state "status=3_typed:_${nothing}_\(Duplicates:_none_found\)" "the 3 typed on the check's empty view said nothing"
# The legend says so too, and why, offering no key as acting on a sample (it said "0–9 relabel").
until_state "keys=No_sample_shown_here_\(Duplicates:_none_found\):_a_key_that_edits_changes_nothing\|Ctrl\+Z_undo status=" \
  "the legend over the check's empty view does not say that no sample is shown"
shot "empty-${FYNE_THEME:-default}"
[ ! -e "$journal" ] || fail "a key typed on the empty view made an edit (a journal exists)"
grep -q "tabs=Label_errors_…" "$state" || fail "the CNN's kinds came before the gate was opened"

# The gate opened: the label errors fill the view (the first kind with findings), and a digit
# typed then relabels the cursor's sample.
touch "$gate"
until_state "mode=Health_check .*shown=[1-9].*tabs=Label_errors_[1-9]" "the label errors never filled the view"
grep -q "keys=Enter_accept_suggestion|0–9_other_label|" "$state" || fail "the legend did not offer the label errors' keys once the list filled"
at=$(field sample)
orig=$(python3 -c 'import gzip, sys; print(gzip.open(sys.argv[1]).read()[8 + int(sys.argv[2])])' "$XVFB_CFG/orig-labels.gz" "$at")
digit=$(( (orig + 1) % 10 ))
xdotool key --clearmodifiers "$digit"
until_state "_1_edited" "the $digit typed on label error $at did not relabel it"
xdotool key --clearmodifiers ctrl+s
wait_clean "$main"
quit_app || fail "Ctrl+Q"
grep -qi "panic\|fatal" "$log" && fail "the app logged a panic"
python3 - "$XVFB_CFG/orig-labels.gz" "$labels" "$at" "$digit" <<'PY' || fail "the saved labels are not the copy's with sample $at labelled $digit"
import gzip, sys
a = gzip.open(sys.argv[1]).read()[8:]
b = gzip.open(sys.argv[2]).read()[8:]
at, d = int(sys.argv[3]), int(sys.argv[4])
diff = [i for i in range(min(len(a), len(b))) if a[i] != b[i]]
if len(a) != len(b) or diff != [at] or b[at] != d:
    sys.exit("differ at %s (%d → %d samples)" % (diff[:10], len(a), len(b)))
PY
echo "emptycheck: ok (a 7, Delete and a 3 on the check's empty view, while it ran, each said so and changed nothing; sample $at, a label error shown once the list filled, relabelled $digit and saved alone)"
