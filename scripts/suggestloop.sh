#!/usr/bin/env bash
# Real-window regression test of the labelling-from-scratch loop (the Suggested list, ui/ask.go):
# writes the first 1,000 t10k images with no label file, opens them in the built app under Xvfb,
# shows the Suggested list (Ctrl+Shift+U), types the true label of each sample it asks for (in
# the order asked, the cursor starting on the first), waits for the round that learnt from them,
# puts the cursor on the 25th suggestion of the most confidently suggested class (Ctrl+G, its
# number, Enter) and accepts that class at that confidence or more in one key (Ctrl+Shift+A),
# saves with Ctrl+S and quits. The label file is then read from outside: the asked samples carry
# the labels typed, the class accepted exactly the samples the list suggested it for at that
# confidence or more, every other sample none; bin/idxlabel info must read the pair. The window
# tells the test its list after each round through IDXLABEL_TEST_SUGGEST (ui/ask.go); every
# wait is on a file, none on time alone. Screenshots: /tmp/suggestloop-*.png.
# Usage: scripts/suggestloop.sh BINARY T10K_IMAGES (its labels beside it, MNIST's names)
set -euo pipefail
bin=$(realpath "$1")
src=$(realpath "$2")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
loop_pair suggestloop "$src" loop

shot() { xwd -root -silent | /usr/bin/convert xwd:- "png:/tmp/suggestloop-$1.png" || true; }
fail() { shot fail; echo "suggestloop: $*; screenshot /tmp/suggestloop-fail.png" >&2; cat "$XVFB_CFG/app.log" >&2; exit 1; }

state=$XVFB_CFG/state
IDXLABEL_TEST_SUGGEST=$list IDXLABEL_TEST_STATE=$state "$bin" "$images" >"$XVFB_CFG/app.log" 2>&1 &
APP_PID=$!
wid=$(wait_window) || fail "no window appeared"
xdotool windowactivate --sync "$wid" >/dev/null 2>&1 || true
ready "$wid"
xdotool key --clearmodifiers ctrl+shift+u
wait_round 0 refined
shot asked
# The asked samples, in the list's order (the cursor is on the first), and their true labels.
mapfile -t asked < <(awk -F, 'NR > 2 && $3 == 1 { print $1 }' "$list")
[ "${#asked[@]}" -eq 20 ] || fail "the first round asked for ${#asked[@]} samples, not 20"
for i in "${asked[@]}"; do
  xdotool key --clearmodifiers "$(sed -n "$((i + 1))p" "$truth")"
done
wait_round 20 refined
shot suggested
# The class suggested most confidently, and the 25th of its suggestions (or its last).
read -r class pick < <(pick_suggestion "$list")
echo "suggestloop: accepting class $class from sample $pick's confidence up"
cp "$list" "$work/before-accept.csv"
xdotool key --clearmodifiers ctrl+g
xdotool type --delay 100 "$pick"
xdotool key --clearmodifiers Return
until_state " sample=$pick " "Ctrl+G $pick did not take the cursor to sample $pick"
xdotool key --clearmodifiers ctrl+shift+a
xdotool key --clearmodifiers ctrl+s
for _ in $(seq 300); do [ -f "$labels" ] && [ ! -e "$labels.idxlabel-journal" ] && break; sleep 0.2; done
[ -f "$labels" ] || fail "Ctrl+S wrote no label file"
wait_clean "$wid"
shot accepted
quit_app || fail "the app did not quit cleanly"
grep -qi "panic\|fatal" "$XVFB_CFG/app.log" && fail "the app logged a panic"

"$bin" info "$images" "$labels" >/dev/null || fail "idxlabel info cannot read the pair saved"
python3 - "$labels" "$truth" "$work/before-accept.csv" "$class" "$pick" "${asked[@]}" <<'PY'
import csv, struct, sys
path, truth, before, cls, pick = sys.argv[1:6]
asked = [int(a) for a in sys.argv[6:]]
cls, pick = int(cls), int(pick)
b = open(path, "rb").read()
kind, rank = b[2], b[3]
n = struct.unpack(">I", b[4:8])[0]
fmt = {0x08: "B", 0x0C: "i"}[kind]
got = struct.unpack(">%d%s" % (n, fmt), b[4 + 4 * rank:])
true = [int(x) for x in open(truth).read().split()]
rows = [r for r in csv.DictReader(l for l in open(before) if not l.startswith("#"))]
conf = {int(r["index"]): float(r["confidence"]) for r in rows if r["suggested"] == str(cls) and r["label"] == "-2147483648"}
want = {i for i, c in conf.items() if c >= conf[pick]}
none = -2**31
bad = []
for i in range(n):
    if i in asked:
        w = true[i]
    elif i in want:
        w = cls
    else:
        w = none
    if got[i] != w:
        bad.append((i, got[i], w))
if bad:
    sys.exit("suggestloop: %d labels differ from what was typed and accepted, e.g. (sample, saved, want) %s" % (len(bad), bad[:5]))
right = sum(true[i] == cls for i in want)
print("suggestloop: %d asked labels typed, %d suggestions of %d accepted in one key (%d of them right), %d left without a label"
      % (len(asked), len(want), cls, right, sum(g == none for g in got)))
PY
echo "suggestloop: ok"
