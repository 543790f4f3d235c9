#!/usr/bin/env bash
# Real-window regression test: accepted suggestions stay pseudo-labels after a save, a quit and a
# reopen (store/accepted.go, pairfile/accepted.go). Writes the first 1,000 t10k images with no
# label file and opens them under Xvfb; shows the Suggested list (Ctrl+Shift+U), types the true
# label of each sample it asks for, waits for the round that learnt from them, puts the cursor on
# the 25th suggestion of the most confidently suggested class (Ctrl+G) and accepts that class at
# that confidence or more (Ctrl+Shift+A); then types on a suggestion of another class the digit
# it suggests (a person's label, not an accepted suggestion); saves (Ctrl+S) and quits (Ctrl+Q).
# The marks file beside the labels must list the accepted samples and not the one typed. The pair
# is opened again: the Suggested list's status must count the accepted labels as accepted, and
# its next round must learn from the typed labels only (its list's first line,
# IDXLABEL_TEST_SUGGEST: "# learnt from 21 labels", not 21 plus the accepted). Then a person's
# label on one accepted sample (its true label typed over it, which may be the label it has: a
# confirmation) takes its mark away: the next round learns from 22, and after a save the marks
# file lists one sample fewer. Save Shown
# As of the accepted class in the first session, before its save, writes a pair whose own marks
# file lists exactly the accepted samples it holds, at their places in it, and the window opened
# on that pair counts them accepted. Every wait is on the window's state line
# (IDXLABEL_TEST_STATE) or its list, never on time alone. Screenshots: /tmp/acceptreopen-*.png.
# Usage: scripts/acceptreopen.sh BINARY T10K_IMAGES (its labels beside it, MNIST's names)
set -euo pipefail
bin=$(realpath "$1")
src=$(realpath "$2")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
loop_pair acceptreopen "$src" loop
marks=$labels.idxlabel-accepted
state=$XVFB_CFG/state

shot() { xwd -root -silent | /usr/bin/convert xwd:- "png:/tmp/acceptreopen-$1.png" || true; }
fail() { shot fail; echo "acceptreopen: $*; screenshot /tmp/acceptreopen-fail.png" >&2; cat "$XVFB_CFG/app.log" >&2; exit 1; }

# start: the app on the pair (its labels found beside the images), the state and list new.
start() {
  rm -f "$state" "$list"
  IDXLABEL_TEST_SUGGEST=$list IDXLABEL_TEST_STATE=$state "$bin" "$images" >>"$XVFB_CFG/app.log" 2>&1 &
  APP_PID=$!
  wid=$(wait_window) || fail "no window appeared"
  xdotool windowactivate --sync "$wid" >/dev/null 2>&1 || true
  ready "$wid"
}

# save_quit: Ctrl+S, waits for the save (the journal gone, the title without its star), Ctrl+Q.
save_quit() {
  xdotool key --clearmodifiers ctrl+s
  for _ in $(seq "$WAIT_TENTHS"); do [ -f "$labels" ] && [ ! -e "$labels.idxlabel-journal" ] && [ ! -e "$images.idxlabel-journal" ] && break; sleep 0.1; done
  [ -f "$labels" ] || fail "Ctrl+S wrote no label file"
  wait_clean "$wid"
  shot "$1"
  quit_app || fail "the app did not quit cleanly"
  grep -qi "panic\|fatal" "$XVFB_CFG/app.log" && fail "the app logged a panic"
  return 0
}

# marked: the samples the marks file lists, one a line (none when there is no file).
marked() { [ -f "$marks" ] && awk 'NR > 5' "$marks" || true; }

# counted N T WHAT: waits for the Suggested list's refined round from T typed labels (wait_round),
# shows the list again (Ctrl+Shift+U) and waits until its status counts N accepted; else fails
# with WHAT. A round says its news on the status bar as it comes in (its first suggestions take
# milliseconds), so the count is read once the round is over, never in the instant between.
counted() {
  wait_round "$2" refined
  xdotool key --clearmodifiers ctrl+shift+u
  until_state "mode=Suggested.*accepted_$1_·" "$3"
}

# goto I: Ctrl+G to sample I, waiting for the cursor there.
goto() {
  xdotool key --clearmodifiers ctrl+g
  xdotool type --delay 100 "$1"
  xdotool key --clearmodifiers Return
  until_state " sample=$1 " "Ctrl+G $1 did not take the cursor to sample $1"
}

# The first session: 20 asked labels typed, one class accepted from the 25th suggestion up.
start
xdotool key --clearmodifiers ctrl+shift+u
wait_round 0
mapfile -t asked < <(awk -F, 'NR > 2 && $3 == 1 { print $1 }' "$list")
[ "${#asked[@]}" -eq 20 ] || fail "the first round asked for ${#asked[@]} samples, not 20"
for i in "${asked[@]}"; do
  xdotool key --clearmodifiers "$(sed -n "$((i + 1))p" "$truth")"
done
wait_round 20 refined # the list the accept acts on: a refined round arriving after the pick would change it
read -r class pick < <(pick_suggestion "$list")
# The samples the accept takes: the class's suggestions at the pick's confidence or more.
mapfile -t want < <(python3 - "$list" "$class" "$pick" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
conf = {int(r["index"]): float(r["confidence"]) for r in rows
        if r["suggested"] == sys.argv[2] and r["label"] == "-2147483648" and r["asked"] == "0"}
print("\n".join(str(i) for i in sorted(conf) if conf[i] >= conf[int(sys.argv[3])]))
PY
)
goto "$pick"
xdotool key --clearmodifiers ctrl+shift+a
until_state "status=Accepted_[0-9,]+_suggestions_of_class" "Ctrl+Shift+A accepted nothing"
accepted=$(sed -n 's/.*status=Accepted_\([0-9,]*\)_suggestions_of_class.*/\1/p' "$state" | tr -d ,)
[ "$accepted" -ge 2 ] || fail "only $accepted suggestions accepted"
[ "$accepted" -eq "${#want[@]}" ] || fail "accepted $accepted, the list held ${#want[@]} at the pick's confidence or more"
echo "acceptreopen: accepted $accepted suggestions of class $class from sample $pick's confidence up"
shot accepted
# A digit typed on a suggestion of another class, the very class it suggests: the person's own
# label (21 typed), never an accepted suggestion: the first save's marks must not list it.
read -r same digit < <(python3 - "$list" "$class" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
r = next(r for r in rows if r["asked"] == "0" and r["label"] == "-2147483648"
         and r["suggested"] not in (sys.argv[2], "-2147483648"))
print(r["index"], r["suggested"])
PY
)
goto "$same"
xdotool key --clearmodifiers "$digit"
until_state "labelled_21_·" "the suggested digit $digit typed on sample $same was not counted a typed label (labelled 21)"
# The refined round that label starts changes the class's suggestions shown: wait for it, so that
# it does not arrive between reading the samples shown and Save Shown As.
wait_round 21 refined
# Save Shown As of class $class (its row in the class histogram: All classes, the unlabelled
# samples, then every digit 0–9 (ui/state.go's histogram), 39 px a row from y 174 in the
# 1280×820 window at the screen's top left), before any save: the derived pair must keep the
# accepted marks of the samples it holds, from the window's memory (checked once the app has
# quit).
row=$((2 + class))
xdotool mousemove 60 $((174 + 39 * row)) click 1
until_state "class=$class " "the click on class $class's row (row $row) did not filter the grid to it"
shown=$(sed -n 's/.* shown=\([0-9]*\) .*/\1/p' "$state")
menu 20 100 519 # File → Save Shown As…; Enter saves beside the pair as loop-shown-*
xdotool key --clearmodifiers Return
until_state "prompt=- .*status=Saved_${shown}_samples" "Save Shown As did not save the $shown samples of class $class"
shot shown
xdotool mousemove 60 174 click 1
until_state "class=- " "the click on All classes did not show every class again"
save_quit saved
mapfile -t kept < <(marked)
printf '%s\n' "${kept[@]}" | grep -qx "$same" && fail "sample $same, the digit it suggested typed on it, is marked accepted: a person's label counted as an accepted suggestion"

# The second session: the accepted labels are still accepted, the next round learns from 20.
start
xdotool key --clearmodifiers ctrl+shift+u
until_state "mode=Suggested" "Ctrl+Shift+U did not show the Suggested list"
counted "$accepted" 21 "the Suggested list does not count the $accepted accepted labels after the reopen"
shot reopened
# A person's label over one accepted sample (its true label: the list holds no labelled sample
# after a reopen, so Ctrl+G shows all) takes its mark away; the next round learns from 22.
over=${want[0]}
goto "$over"
rm -f "$list"
xdotool key --clearmodifiers "$(sed -n "$((over + 1))p" "$truth")"
until_state " sample=$((over + 1)) " "the label typed on sample $over did not move the cursor on"
counted $((accepted - 1)) 22 "a label typed over accepted sample $over did not take its mark away"
save_quit relabelled
# From outside: the marks file of the first save listed exactly the accepted samples (none of the
# typed ones); the second save's lists them but the one labelled over.
[ "$(printf '%s\n' "${kept[@]}")" = "$(printf '%s\n' "${want[@]}")" ] || fail "the first save's marks file lists ${#kept[@]} samples, not the $accepted accepted"
mapfile -t kept2 < <(marked)
[ "${#kept2[@]}" -eq $((accepted - 1)) ] || fail "after a label typed over sample $over the marks file lists ${#kept2[@]} samples, not $((accepted - 1))"
printf '%s\n' "${kept2[@]}" | grep -qx "$over" && fail "sample $over is still marked accepted after a person labelled it"
"$bin" suggest --fast "$images" >/dev/null 2>"$work/suggest.err" || fail "idxlabel suggest failed: $(cat "$work/suggest.err")"
grep -q "$((accepted - 1)) labels are accepted suggestions" "$work/suggest.err" || fail "idxlabel suggest did not read the marks: $(cat "$work/suggest.err")"

# The pair Save Shown As derived: its marks file lists exactly the places of the accepted samples
# it holds (each found by its pixels among the images), and the window opened on it counts them
# accepted.
dimages=$work/loop-shown-images-idx3-ubyte
dlabels=$work/loop-shown-labels-idx1-ubyte
mapfile -t dwant < <(python3 - "$images" "$dimages" "${want[@]}" <<'PY'
import sys
src, derived, *want = sys.argv[1:]
read = lambda p: open(p, "rb").read()
s, d = read(src), read(derived)
rec = 28 * 28
at = {s[16 + i * rec:16 + (i + 1) * rec]: i for i in range(1000)}
want = set(map(int, want))
n = int.from_bytes(d[4:8], "big")
print("\n".join(str(k) for k in range(n) if at[d[16 + k * rec:16 + (k + 1) * rec]] in want))
PY
)
# The derived pair's labelled samples (its label file: ubyte, or int32 with −2147483648 for none).
dlabelled=$(python3 - "$dlabels" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
n = int.from_bytes(b[4:8], "big")
vals = b[8:8 + n] if b[2] == 0x08 else struct.unpack(">%di" % n, b[8:8 + 4 * n])
print(sum(v != -2147483648 for v in vals))
PY
)
[ "${#dwant[@]}" -ge 1 ] && [ "$shown" -lt 1000 ] || fail "the pair Save Shown As wrote holds ${#dwant[@]} accepted samples of $shown (a subset holding some was meant)"
mapfile -t dkept < <(marks=$dlabels.idxlabel-accepted marked)
[ "$(printf '%s\n' "${dkept[@]}")" = "$(printf '%s\n' "${dwant[@]}")" ] || fail "the pair Save Shown As wrote marks ${#dkept[@]} samples (${dkept[*]:0:10}), not the ${#dwant[@]} accepted samples it holds (${dwant[*]:0:10})"
images=$dimages labels=$dlabels
start
xdotool key --clearmodifiers ctrl+shift+u
counted "${#dwant[@]}" $((dlabelled - ${#dwant[@]})) "the pair Save Shown As wrote does not count its ${#dwant[@]} accepted labels as accepted"
shot derived
quit_app || fail "the app did not quit cleanly"
echo "acceptreopen: ok ($accepted accepted, still accepted after the reopen; one labelled over: $((accepted - 1)) kept; Save Shown As of class $class: ${#dwant[@]} of its $shown samples still accepted)"
