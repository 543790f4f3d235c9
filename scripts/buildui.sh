#!/usr/bin/env bash
# Real-window test of building a dataset in the window: File → Append Dataset… appends pair B to
# the open pair A (B's image file typed into its chooser), B's accepted suggestions (its marks
# file lists samples 0, 7, 20 and 41) staying pseudo-labels, not a person's labels; class 3 is
# chosen in the side panel, and File → Save Shown As… (Enter: Save) writes what the grid shows;
# under its progress a 5 relabels the sample at the cursor at once and Escape is its Cancel.
# The saved pair is then checked from outside with the built CLI: verify, and equal byte for byte
# to `idxlabel merge A B` then `subset --classes 3` (the same samples in the same order), its
# marks file listing B's accepted samples 0 and 20 at their places (20 and 22), as merge and
# subset's does; two Ctrl+Z undo the 5 and remove the 50 appended samples with their marks (the
# last save writes no marks file beside A); Tools → Split Dataset… then writes the same files as
# `idxlabel split` with the same options, while a 7 and (its Cancel button focused by Tab) an 8
# typed under its progress relabel the samples at the cursor; Ctrl+S saves just those two
# labels, Ctrl+Q quits without a question, and A's images are unchanged. The menu and the side panel are clicked at their places in the default 1280×820
# window at the screen's top left.
# Usage: scripts/buildui.sh BINARY
set -euo pipefail
bin=$(realpath "$1")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
work=$XVFB_CFG/data
mkdir -p "$work"
python3 - "$work" <<'PY'
import struct, sys
def pair(base, n, off):
    open(base + "-images-idx3-ubyte", "wb").write(struct.pack(">IIII", 0x803, n, 28, 28) + bytes((i * 37 + i // 784 + off) % 256 for i in range(n * 784)))
    open(base + "-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, n) + bytes((i + off) % 10 for i in range(n)))
pair(sys.argv[1] + "/a", 200, 0)
pair(sys.argv[1] + "/b", 50, 3)
PY
accepted_marks "$work"/b-images-idx3-ubyte "$work"/b-labels-idx1-ubyte 0 7 20 41 # B's accepted suggestions
a_images=$(md5sum <"$work"/a-images-idx3-ubyte)

fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/buildui-fail.png 2>/dev/null || true
  echo "buildui: $* (screenshot /tmp/buildui-fail.png)" >&2; cat "$log" >&2; exit 1
}
said=$("$bin" suggest --fast "$work/b-images-idx3-ubyte" 2>&1 >/dev/null) || fail "idxlabel suggest on pair B: $said"
grep -q "4 labels are accepted suggestions" <<<"$said" || fail "pair B's marks file is not read as 4 accepted suggestions: $said"
# marked LABELS: the samples the marks file beside LABELS lists, on one line (none: empty).
marked() { [ -f "$1.idxlabel-accepted" ] && awk 'NR > 5' "$1.idxlabel-accepted" | tr '\n' ' ' || true; }
# file_menu Y: the File menu's item at height Y.
file_menu() { menu 20 100 "$1"; }

state=$XVFB_CFG/state
gate=$XVFB_CFG/gate
IDXLABEL_TEST_EXPORT_GATE=$gate IDXLABEL_TEST_STATE=$state "$bin" "$work/a-images-idx3-ubyte" "$work/a-labels-idx1-ubyte" >"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
ready "$main"

# Append Dataset…: the seventh item; its chooser starts in A's folder and takes B's path typed.
file_menu 279
xdotool key --clearmodifiers ctrl+a
xdotool type --delay 5 "$work/b-images-idx3-ubyte"
xdotool key --clearmodifiers Return
for _ in $(seq 300); do xdotool getwindowname "$(xdotool search --onlyvisible --name 'IDX Labeler' | head -n 1)" | grep -q '\*' && break; sleep 0.2; done
xdotool getwindowname "$(xdotool search --onlyvisible --name 'IDX Labeler' | head -n 1)" | grep -q '\*' || fail "Append Dataset changed nothing"
until_state "status=Appended_50_samples_from_b-images-idx3-ubyte" "the status bar does not say that 50 samples were appended"
said=$(sed -n 's/.*status=\(Appended[^ ]*\).*/\1/p' "$state") # checked below, after the marks
xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/buildui-appended.png 2>/dev/null || true
echo "buildui: Append Dataset added pair B"

# Class 3, then Save Shown As… (below Save and Save As…), Enter saves to a-shown-* beside A.
xdotool mousemove 60 331 click 1
until_state "class=3 " "the click on class 3's row did not filter the grid to it"
file_menu 519
xdotool key --clearmodifiers Return
# Its job, once the files are written, waits for the gate (IDXLABEL_TEST_EXPORT_GATE): a 5 typed
# under its progress goes on to the grid and relabels the sample at the cursor at once (an
# export holds no edits; the files hold the samples as read before), and Escape is its Cancel
# (the files already in place: it ends saved). The gate then stays open for the split below.
until_state "cursor=0 .*prompt=progress " "Save Shown As showed no progress passing keys on (the cursor on the first sample shown)"
xdotool key --clearmodifiers 5
until_state "cursor=1 .*held=0 " "the 5 typed during Save Shown As did not relabel the sample at the cursor (dropped?)"
xdotool key --clearmodifiers Escape
until_state "prompt=- .*status=Saved_25_samples" "Escape did not end Save Shown As"
touch "$gate"
for _ in $(seq "$WAIT_TENTHS"); do [ -f "$work/a-shown-labels-idx1-ubyte" ] && break; sleep 0.1; done
[ -f "$work/a-shown-images-idx3-ubyte" ] || fail "Save Shown As wrote no pair"
"$bin" verify "$work/a-shown-images-idx3-ubyte" "$work/a-shown-labels-idx1-ubyte" | grep -q "^ok: 25 samples" || fail "the saved pair does not verify as 25 samples"
"$bin" merge "$work"/a-images-idx3-ubyte "$work"/a-labels-idx1-ubyte "$work"/b-images-idx3-ubyte "$work"/b-labels-idx1-ubyte "$work/m-images-idx3-ubyte" "$work/m-labels-idx1-ubyte" >/dev/null
"$bin" subset --classes 3 "$work/m-images-idx3-ubyte" "$work/m-labels-idx1-ubyte" "$work/e-images-idx3-ubyte" "$work/e-labels-idx1-ubyte" >/dev/null 2>&1
cmp -s "$work/e-images-idx3-ubyte" "$work/a-shown-images-idx3-ubyte" || fail "the saved images are not A+B's class 3 in order"
"$bin" diff "$work/e-labels-idx1-ubyte" "$work/a-shown-labels-idx1-ubyte" >/dev/null 2>&1 || fail "the saved labels differ from A+B's class 3"
[ "$(marked "$work/a-shown-labels-idx1-ubyte")" = "20 22 " ] || fail "the pair Save Shown As wrote marks [$(marked "$work/a-shown-labels-idx1-ubyte")] accepted, not B's accepted samples 0 and 20 at places 20 and 22: appended as a person's labels"
[ "$(marked "$work/e-labels-idx1-ubyte")" = "20 22 " ] || fail "idxlabel merge then subset marks [$(marked "$work/e-labels-idx1-ubyte")] accepted, not places 20 and 22"
grep -q "^Appended_50_samples_from_b-images-idx3-ubyte,_4_of_them_accepted_suggestions_" <<<"$said" || fail "after the append the status bar said $said, not that 4 of the samples are accepted suggestions"
echo "buildui: Save Shown As wrote class 3 of A+B, as merge and subset make it, B's accepted suggestions still marked"

# Two Ctrl+Z undo the 5 and remove the appended samples: nothing unsaved, Ctrl+Q quits at once.
until_state "prompt=- " "Save Shown As's dialog did not close"
xdotool key --delay 150 --clearmodifiers ctrl+z ctrl+z
wait_clean "$main"

# Tools → Split Dataset… (the eighth item, 40 px a row below the menu bar) with its defaults (0.2, stratified, seed 1): the same files
# as `idxlabel split --test 0.2 --stratify --seed 1`, byte for byte; Escape closes "open one?".
# Its job, once the files are written, waits for the gate, closed again: a 7 typed under its
# progress relabels the sample at the cursor at once (a split holds no edits: it reads the
# pair's files); once the files are there, Tab focuses its Cancel button and an 8 typed must
# still reach the grid, not the button; Space presses the focused button, which ends the job
# (the files already written: it offers them). Ctrl+S then saves the 7 and the 8.
rm -f "$gate"
MAIN=$main
cursor_sample() { sed -n 's/.* cursor=\([0-9]*\) .* sample=\([0-9]*\) .*/\1 \2/p' "$state"; }
read -r c0 s0 <<<"$(cursor_sample)"
menu 167 230 320
xdotool key --clearmodifiers Return
until_state "cursor=$c0 .*prompt=progress " "Split Dataset showed no progress passing keys on"
xdotool key --clearmodifiers 7
until_state "cursor=$((c0 + 1)) .*held=0 .*prompt=progress " "the 7 typed during Split Dataset did not relabel sample $s0 at once (dropped?)"
read -r _ s1 <<<"$(cursor_sample)"
for _ in $(seq "$WAIT_TENTHS"); do [ -f "$work/a-test-labels-idx1-ubyte" ] && break; sleep 0.1; done
[ -f "$work/a-train-images-idx3-ubyte" ] && [ -f "$work/a-test-labels-idx1-ubyte" ] || fail "Split Dataset wrote no pairs"
xdotool key --delay 150 --clearmodifiers Tab 8 space
until_state "prompt=split_done " "Space on the split's focused Cancel button did not end the job with its question (open one?)"
grep -q "cursor=$((c0 + 2)) " "$state" || fail "the 8 typed with the split's Cancel button focused (Tab) did not relabel sample $s1 (dropped)"
echo "buildui: under Split Dataset's progress a 7 relabelled sample $s0 at once, and an 8 typed with its Cancel button focused (Tab) sample $s1; Space on the button ended the job"
xdotool key --clearmodifiers Escape
until_state "prompt=- " "Escape did not close the question"
"$bin" split --test 0.2 --stratify --seed 1 "$work"/a-images-idx3-ubyte "$work"/a-labels-idx1-ubyte \
  "$work"/c-train-images "$work"/c-train-labels "$work"/c-test-images "$work"/c-test-labels >/dev/null 2>&1
for part in train-images:train-images-idx3-ubyte train-labels:train-labels-idx1-ubyte test-images:test-images-idx3-ubyte test-labels:test-labels-idx1-ubyte; do
  cmp -s "$work/c-${part%%:*}" "$work/a-${part#*:}" || fail "the window's ${part%%:*} differs from idxlabel split's"
done
echo "buildui: Split Dataset wrote what idxlabel split writes (the pair's files, not the 7 and 8)"
save_keys "$work/a-labels-idx1-ubyte" "after the split"
python3 - "$work/a-labels-idx1-ubyte" "$s0" "$s1" <<'PY' || fail "Ctrl+S did not save 7 and 8 on samples $s0 and $s1, and nothing else"
import sys
got, s0, s1 = open(sys.argv[1], "rb").read(), int(sys.argv[2]), int(sys.argv[3])
want = bytearray(b"\x00\x00\x08\x01\x00\x00\x00\xc8" + bytes(i % 10 for i in range(200)))
want[8 + s0], want[8 + s1] = 7, 8
if got != bytes(want):
    print("buildui: labels saved differ at", [i - 8 for i in range(8, len(want)) if got[i:i + 1] != want[i:i + 1]][:10], file=sys.stderr)
    sys.exit(1)
PY
[ -z "$(marked "$work/a-labels-idx1-ubyte")" ] || fail "the append undone, A's save still marks [$(marked "$work/a-labels-idx1-ubyte")] accepted"
quit_app || fail "Ctrl+Q after the save"
[ "$(md5sum <"$work"/a-images-idx3-ubyte)" = "$a_images" ] || fail "A's images changed"
! grep -qi "panic" "$log" || fail "the window panicked"
echo "buildui: ok"
