#!/usr/bin/env bash
# Real-window regression test: when a round of the Suggested list (ui/suggest/ask.go) brings new
# asks or suggestions, the cursor stays on the sample the person had under it, and the next key
# labels that sample, not the list's first ask (review.Mode.Refresh). Writes the first 1,000 t10k
# images with no label file, opens them under Xvfb and shows the Suggested list (Ctrl+Shift+U):
# its first round puts the cursor on the first asked sample (the person had not moved yet). The
# first ask's true label is typed (one class: no suggestion yet) and its round awaited; then →
# (skip) moves the cursor some 40 samples down the list, to a sample X of another class, whose
# true label is typed: the cursor moves on to the next sample, Y, and the round that learnt from
# the two labels brings the first suggestions. The cursor must still be on Y (on the code before
# the fix it went to the first ask). A label is typed on Y right after that round, then on the
# next sample, Z, while the round still refines its suggestions (keys typed while a round runs);
# the cursor, on W after them, must stay there through the round that learnt from the four
# labels, its first suggestions and its refined ones; W's label is typed last (Y's, Z's and W's:
# classes not labelled before, never the suggestion, so each is a label the rounds learn from).
# Ctrl+S, Ctrl+Q; the label file is read from outside: exactly the five samples typed on carry
# the labels typed (none landed on an ask). Every wait is on the window's state line (IDXLABEL_TEST_STATE) or its list
# (IDXLABEL_TEST_SUGGEST), never on time alone. Screenshots: /tmp/suggestcursor-*.png.
# Usage: scripts/suggestcursor.sh BINARY T10K_IMAGES (its labels beside it, MNIST's names)
set -euo pipefail
bin=$(realpath "$1")
src=$(realpath "$2")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
loop_pair suggestcursor "$src" cursor
state=$XVFB_CFG/state
log=$XVFB_CFG/app.log

shot() { xwd -root -silent | /usr/bin/convert xwd:- "png:/tmp/suggestcursor-$1.png" || true; }
fail() { shot fail; echo "suggestcursor: $*; screenshot /tmp/suggestcursor-fail.png; the state: $(cat "$state" 2>/dev/null)" >&2; tail -n 20 "$log" >&2; exit 1; }

# cur: the sample at the cursor on the state line now.
cur() { sed -n 's/.* sample=\(-\{0,1\}[0-9]*\) .*/\1/p' "$state" 2>/dev/null; }
# truth_of I: sample I's true label.
truth_of() { sed -n "$(($1 + 1))p" "$truth"; }

# round N: waits (up to WAIT_TENTHS) until the list shown is a round's that learnt from N labels,
# on the state line (its method) and in the list's dump, written after the cursor was placed.
round() {
  until_state "method=[^=]* from $1 labels?[^=]* cursor=" "no round learnt from $1 labels"
  for _ in $(seq "$WAIT_TENTHS"); do head -n 1 "$list" 2>/dev/null | grep -Eq "^# learnt from $1 labels" && return 0; sleep 0.1; done
  fail "the list's dump never said it learnt from $1 labels"
}

# still_on I WHEN: fails unless the cursor is on sample I.
still_on() {
  local at
  at=$(cur)
  [ "$at" = "$1" ] || fail "$2: the cursor is on sample $at, not on sample $1 where the person left it (the state: $(cat "$state"))"
}

# label_moved I D: types the digit D (the cursor on sample I), waits until the cursor has left I
# (the key was handled) and prints the sample it is on now.
label_moved() {
  local at
  xdotool key --clearmodifiers "$2"
  for _ in $(seq "$WAIT_TENTHS"); do
    at=$(cur)
    [ -n "$at" ] && [ "$at" != "$1" ] && { echo "$at"; return 0; }
    sleep 0.1
  done
  fail "the label typed on sample $1 did not move the cursor on"
}

rm -f "$state" "$list"
IDXLABEL_TEST_SUGGEST=$list IDXLABEL_TEST_STATE=$state "$bin" "$images" >"$log" 2>&1 &
APP_PID=$!
wid=$(wait_window) || fail "no window appeared"
xdotool windowactivate --sync "$wid" >/dev/null 2>&1 || true
ready "$wid"
xdotool key --clearmodifiers ctrl+shift+u
round 0
mapfile -t asked < <(awk -F, 'NR > 2 && $3 == 1 { print $1 }' "$list")
[ "${#asked[@]}" -gt 1 ] || fail "the first round asked for ${#asked[@]} samples"
still_on "${asked[0]}" "after the first round, the person not having moved"
typed=("${asked[0]}") digits=("$(truth_of "${asked[0]}")")
at=$(label_moved "${asked[0]}" "${digits[0]}")
round 1
still_on "$at" "after the round that learnt from the first ask's label"

# X: some 40 entries further down the list, a sample without a label, not asked, of another class
# than the first ask's, with a sample after it (Y); → skips from the cursor to it.
read -r p x y < <(python3 - "$list" "$truth" "$at" "${asked[0]}" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
truth = [int(v) for v in open(sys.argv[2]).read().split()]
order = [int(r["index"]) for r in rows]
at, first = order.index(int(sys.argv[3])), int(sys.argv[4])
for q in range(at + 40, len(rows) - 1):
    r = rows[q]
    if r["asked"] == "0" and r["label"] == "-2147483648" and truth[order[q]] != truth[first]:
        print(q - at, order[q], order[q + 1])
        break
PY
)
[ -n "${y:-}" ] || fail "no sample to move to in the list"
xdotool key --clearmodifiers --delay 30 --repeat "$p" Right
until_state " sample=$x " "$p presses of → did not take the cursor to sample $x"
typed+=("$x") digits+=("$(truth_of "$x")")
at=$(label_moved "$x" "${digits[1]}")
[ "$at" = "$y" ] || fail "the label typed on sample $x moved the cursor to $at, not to the next sample in the list, $y"
# The labels typed from now on are digits of classes no label had yet, so none is the class a
# round suggested (typing it would accept the suggestion: a pseudo-label, which the rounds do not
# count), and each round learns from them all.
mapfile -t other < <(seq 0 9 | grep -vx -e "${digits[0]}" -e "${digits[1]}")
round 2
shot round
still_on "$y" "after the round that brought the first suggestions"
refining=no
grep -q "method=label spreading from 2 labels cursor=" "$state" && refining=yes
typed+=("$y") digits+=("${other[0]}")
z=$(label_moved "$y" "${other[0]}")
typed+=("$z") digits+=("${other[1]}")
w=$(label_moved "$z" "${other[1]}")
echo "suggestcursor: the cursor stayed on sample $y through the round; labels typed on $y and $z (the round still refining then: $refining), the cursor now on $w"
round 4
still_on "$w" "after the first suggestions of the round that learnt from the four labels"
until_state "method=label spreading and networks fine-tuned from 4 labels cursor=" "the round that learnt from four labels never refined its suggestions"
shot refined
still_on "$w" "after the refined suggestions of the round that learnt from the four labels"
typed+=("$w") digits+=("${other[2]}")
label_moved "$w" "${other[2]}" >/dev/null
xdotool key --clearmodifiers ctrl+s
for _ in $(seq "$WAIT_TENTHS"); do [ -f "$labels" ] && [ ! -e "$labels.idxlabel-journal" ] && break; sleep 0.1; done
[ -f "$labels" ] || fail "Ctrl+S wrote no label file"
wait_clean "$wid"
quit_app || fail "the app did not quit cleanly"
grep -qi "panic\|fatal" "$log" && fail "the app logged a panic"

python3 - "$labels" "${typed[*]}" "${digits[*]}" <<'PY'
import struct, sys
path = sys.argv[1]
want = dict(zip(map(int, sys.argv[2].split()), map(int, sys.argv[3].split())))
b = open(path, "rb").read()
kind, rank = b[2], b[3]
n = struct.unpack(">I", b[4:8])[0]
got = struct.unpack(">%d%s" % (n, {0x08: "B", 0x0C: "i"}[kind]), b[4 + 4 * rank:])
none = -2**31
bad = [(i, got[i], want.get(i, none)) for i in range(n) if got[i] != want.get(i, none)]
if bad:
    sys.exit("suggestcursor: %d labels are not where they were typed, e.g. (sample, saved, want) %s" % (len(bad), bad[:5]))
print("suggestcursor: the %d labels typed (sample: label %s) are on their samples, no other sample has one" % (len(want), want))
PY
echo "suggestcursor: ok"
