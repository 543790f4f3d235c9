#!/usr/bin/env bash
# Real-window regression test: keys typed while a save runs are neither dropped nor applied to
# the wrong samples. Before, digits typed during a save were thrown away while each still moved
# the cursor on, so the next digits labelled the samples meant for the dropped ones, and that was
# saved.
# Every save of the window waits, inside the store's save, until a gate file exists
# (IDXLABEL_TEST_SAVE_GATE, ui/testhooks.go): the keys meet a save in progress however fast the
# machine writes, and the script waits on files (the gate, the label file, the window's state:
# IDXLABEL_TEST_STATE), not on the clock.
#  1. On a copy of the t10k pair, cursor on sample 0: type 9, Ctrl+S, then 1 2 3 4 5 6 7 8 150 ms
#     apart; open the gate; once the save has replaced the label file, Ctrl+S again. Every label
#     on disk must be the original but samples 0–8, now 9, 1, 2, … 8.
#  2. Then (the cursor on sample 9) Delete, Ctrl+S, and during that save 5 (typed on the deleted
#     sample the save removes), Right, 6; open the gate, save again, quit. The 5 must land on no
#     sample; the Right and the 6 act from the sample after the deleted one, as if typed after the
#     save: the files hold 9,999 samples, the one after 9 moved on by the Right labelled 6.
#  3. The same keys all typed during one save (the Ctrl+S among them starts a second save when it
#     ends): the 5 on the deleted sample lands nowhere, the 6 one sample after the deleted one.
# Usage: scripts/keysave.sh BINARY [T10K_IMAGES]
set -euo pipefail
bin=$(realpath "$1")
images=${2:-}
if [ -z "$images" ] || [ ! -f "$images" ]; then
  echo "keysave: ${images:-no t10k images given} not found; skipping (it needs the real MNIST files)"
  exit 0
fi
. "$(dirname "$0")/xvfb.sh"
start_xvfb
copy_t10k "$images"
cp "$work/t10k-labels-idx1-ubyte.gz" "$XVFB_CFG/orig-labels.gz"
labels=$work/t10k-labels-idx1-ubyte.gz
gate=$XVFB_CFG/gate
state=$XVFB_CFG/state
log=$XVFB_CFG/app.log
shots=${KEYSAVE_SHOTS:-}

fail() { echo "keysave: $*" >&2; cat "$log" >&2; exit 1; }
inode() { stat -c %i "$labels"; }
# saved OLD waits (up to 120 s) until the label file is no longer inode OLD: a save replaced it.
saved() {
  for _ in $(seq 1200); do [ "$(inode)" != "$1" ] && return 0; sleep 0.1; done
  fail "no save replaced $labels within 120 s"
}
shot() { [ -z "$shots" ] || import -window root "$shots-$1.png"; }

IDXLABEL_TEST_SAVE_GATE=$gate IDXLABEL_TEST_STATE=$state "$bin" "$work/t10k-images-idx3-ubyte.gz" "$labels" >"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
until_state "cursor=0 " "the window never showed its cursor"
xdotool windowfocus --sync "$main"

# 1. The issue's sequence.
before=$(inode)
xdotool key --clearmodifiers 9
until_state "cursor=1 " "the 9 did not move the cursor on"
xdotool key --clearmodifiers ctrl+s
xdotool key --delay 150 1 2 3 4 5 6 7 8
# The keys typed during the save wait (held=8) until it ends.
until_state "held=8 " "the keys typed during the save did not wait for it"
shot during
[ "$(inode)" = "$before" ] || fail "the save ended before its gate opened (the hook is not working)"
touch "$gate"
saved "$before"
shot after
before=$(inode)
rm -f "$gate"
touch "$gate" # the second save goes through at once
xdotool key --clearmodifiers ctrl+s
saved "$before"

# 2. A key typed on a deleted sample that the save removes.
rm -f "$gate"
until_state "cursor=9 .* held=0 " "the keys typed during the first save were not all handled"
wait_clean "$main" # the second save over, so that the Delete is made at once
xdotool key --clearmodifiers Delete
# The deletion made (journaled) before Ctrl+S: the keys that follow are typed during the save on
# the deleted sample, as the test means them.
# (The status line may say the last save's note instead of the counts: the title's star, an
# unsaved edit, tells the Delete was made, even when the end of the save before held it.)
for _ in $(seq "$WAIT_TENTHS"); do xdotool getwindowname "$main" | grep -q ' \*$' && break; sleep 0.1; done
xdotool getwindowname "$main" | grep -q ' \*$' || fail "the Delete was not made"
before=$(inode)
xdotool key --clearmodifiers ctrl+s
xdotool key --delay 150 5 Right 6
until_state "held=3 " "the keys typed during the second save did not wait for it"
[ "$(inode)" = "$before" ] || fail "the second part's save ended before its gate opened"
touch "$gate"
saved "$before"
until_state "held=0 " "the keys typed during the second save were not handled"
before=$(inode)
xdotool key --clearmodifiers ctrl+s
saved "$before"

# 3. The same keys all typed during a save, so that the Ctrl+S among them starts a second save
# when the first ends: 7 on sample 11, Ctrl+S (held at the gate), then Delete on sample 12,
# Ctrl+S, 5, Right, 6. The 5, typed on the sample the second save removes, lands nowhere; the
# Right and the 6 act from the sample after it (before, the 5 labelled that sample and the 6
# the one after the next).
rm -f "$gate"
until_state "cursor=11 .* held=0 " "the cursor is not on sample 11 after part 2"
xdotool key --clearmodifiers 7
until_state "cursor=12 " "the 7 did not move the cursor on"
before=$(inode)
xdotool key --clearmodifiers ctrl+s
xdotool key --delay 150 Delete ctrl+s 5 Right 6
until_state "held=5 " "the keys typed during the third save did not wait for it"
[ "$(inode)" = "$before" ] || fail "the third part's save ended before its gate opened"
touch "$gate" # the first save goes on, and the second goes through at once
saved "$before"
until_state "held=0 " "the keys typed during the third part's saves were not handled"
before=$(inode)
xdotool key --clearmodifiers ctrl+s
saved "$before"
quit_app || fail "quitting"
grep -qi panic "$log" && fail "the app panicked"

# Every label on disk against the expected ones.
python3 - "$XVFB_CFG/orig-labels.gz" "$labels" <<'EOF'
import gzip, struct, sys

def labels(path):
    data = gzip.open(path).read()
    magic, n = struct.unpack(">II", data[:8])
    assert magic == 2049 and len(data) == 8 + n, (path, magic, n, len(data))
    return list(data[8:])

orig, got = labels(sys.argv[1]), labels(sys.argv[2])
want = orig[:]
want[0:9] = [9, 1, 2, 3, 4, 5, 6, 7, 8]  # part 1
del want[9]                              # part 2: sample 9 deleted and saved, the 5 lands nowhere
want[10] = 6                             # Right from sample 9 (was 10) to 10 (was 11), then 6
want[11] = 7                             # part 3: 7 on sample 11
del want[12]                             # sample 12 deleted, the 5 typed on it lands nowhere
want[13] = 6                             # Right from sample 12 (was 13) to 13 (was 14), then 6
if len(got) != len(want):
    sys.exit(f"keysave: {len(got)} labels saved, want {len(want)}")
bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
if bad:
    sys.exit("keysave: wrong labels saved (index, saved, expected): " + str(bad[:20]))
print(f"keysave: all {len(got)} labels as expected")
EOF
