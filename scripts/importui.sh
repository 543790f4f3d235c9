#!/usr/bin/env bash
# Real-window regression test of File → Import Images…, all by keys, on generated images:
#  1. File → New Dataset… (Digits 0–9) opens the draw window with the keys; Ctrl+I typed there
#     opens the import's folder chooser in the main window (before, it did nothing). A folder
#     of class folders named zero … nine is typed and imported with Enter into the new dataset
#     of digits, then saved with Save As: every sample's label is the digit its folder names
#     (zero 0 … nine 9; before, torchvision's sorted order made eight 0 and zero 9), no class
#     gets a name, and the sources file beside the pair names each sample's image, which the
#     status bar's sample line shows too. File → Save Shown As… then writes the same sources
#     beside its pair.
#  2. The same import while the demo is open: the dialog's default is a new dataset, and the
#     window then shows it ("untitled", the 60 images, saved as idxlabel import writes them, the
#     images, the labels and the class-name file byte for byte); the demo gets nothing (before,
#     the digits went silently into the demo's 300).
#  3. Keys typed while an import runs: on a pair of 200 samples, the import is held back by a
#     gate file (IDXLABEL_TEST_IMPORT_GATE, ui/testhooks.go) while 3 and 4 are typed on samples 0
#     and 1; once the gate opens, the keys are applied to those samples, then the 60 samples are
#     added, and Ctrl+S saves it all (before, the progress dialog took the keys and dropped them).
#     Before that, Escape cancels the import dialog with each of its options focused by Shift+Tab
#     (a check box, a text field, a drop-down, a radio button: before, each dropped Escape), and
#     with its list of class folders focused (Tab); Enter with that list focused imports (before,
#     the list dropped both).
#  4. An attacker's folder: class folders named with a line break and with a control character,
#     an empty one, a symbolic link looping back up, 300 class folders of one image: the dialog
#     lists them (a screenshot), the import (Enter typed in the first folder's class field: before,
#     it only left the field) adds them as new classes, the window does not panic and Save As
#     writes a pair that verifies.
# The window's state comes from IDXLABEL_TEST_STATE (the prompt on top, the samples, the inputs
# waiting); the script waits on it and on files, not on the clock.
# Usage: scripts/importui.sh BINARY
set -euo pipefail
bin=$(realpath "$1")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state
work=$XVFB_CFG/data
shots=${IMPORTUI_SHOTS:-}
mkdir -p "$work"

fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/importui-fail.png 2>/dev/null || true
  echo "importui: $* (screenshot /tmp/importui-fail.png)" >&2
  [ -f "$state" ] && echo "state: $(cat "$state")" >&2
  cat "$log" >&2; exit 1
}
# shot NAME: a screenshot to $IMPORTUI_SHOTS-NAME.png when that is set (once the frame is drawn).
shot() { [ -z "$shots" ] || { sleep 1; xwd -root -silent | /usr/bin/convert xwd:- png:"$shots-$1.png"; }; }
# choose_folder DIR: types DIR into the open folder chooser and picks it; the import dialog opens.
choose_folder() {
  until_state "prompt=choose_import" "no folder chooser for the import"
  xdotool key --clearmodifiers ctrl+a
  xdotool type --delay 5 "$1"
  xdotool key --clearmodifiers Return
  until_state "prompt=import_options" "no import dialog for $1"
}
# save_as DIR: Save As into DIR by keys (the base name's default, mydata, compressed).
save_as() {
  xdotool key --clearmodifiers ctrl+shift+s
  until_state "prompt=save_as" "Ctrl+Shift+S opened no Save As dialog"
  xdotool key --clearmodifiers Tab ctrl+a
  xdotool type --delay 5 "$1"
  xdotool key --clearmodifiers Return
  until_state "prompt=question" "Save As did not ask to create the folder"
  xdotool key --clearmodifiers Return # create the folder
  for _ in $(seq 300); do [ -f "$1/mydata-labels-idx1-ubyte.gz" ] && break; sleep 0.1; done
  [ -f "$1/mydata-images-idx3-ubyte.gz" ] && [ -f "$1/mydata-labels-idx1-ubyte.gz" ] || fail "Save As wrote no pair in $1"
  wait_clean "$MAIN"
}

# same_as_cli DIR WHOSE: the pair Save As wrote in DIR (and its class-name file) must be byte for
# byte what idxlabel import wrote from the same folder.
same_as_cli() {
  for f in images-idx3-ubyte labels-idx1-ubyte; do
    gunzip -c "$1/mydata-$f.gz" | cmp -s - "$work/cli-$f" || fail "$2 $f differ from idxlabel import's"
  done
  cmp -s "$1/mydata-labels-idx1-ubyte.gz.classes.txt" "$work/cli-labels-idx1-ubyte.classes.txt" ||
    fail "$2 class-name file differs from idxlabel import's (or is missing)"
}

# Generated images: 6 per class of bars and boxes that differ by class and sample, exported as
# a PNG tree, the class folders renamed zero … nine.
python3 - "$work" <<'PY'
import struct, sys
n = 60
img = bytearray(n * 28 * 28)
for k in range(n):
    c, j = k % 10, k // 10
    for y in range(4 + j % 3, 22 + c % 4):
        for x in range(6 + c, 9 + c + j):
            img[k * 784 + y * 28 + x] = 255
    for x in range(4, 8 + c):
        img[k * 784 + (5 + j) * 28 + x] = 200
order = sorted(range(n), key=lambda k: k % 10)
open(sys.argv[1] + "/g-images-idx3-ubyte", "wb").write(struct.pack(">IIII", 0x803, n, 28, 28) + bytes(b for k in order for b in img[k * 784:(k + 1) * 784]))
open(sys.argv[1] + "/g-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, n) + bytes(k % 10 for k in order))
m = 200
open(sys.argv[1] + "/p-images-idx3-ubyte", "wb").write(struct.pack(">IIII", 0x803, m, 28, 28) + bytes((i * 37 + i // 784) % 256 for i in range(m * 784)))
open(sys.argv[1] + "/p-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, m) + bytes(i % 10 for i in range(m)))
PY
"$bin" export "$work/g-images-idx3-ubyte" "$work/g-labels-idx1-ubyte" "$work/png" >/dev/null
tree=$work/tree
mkdir -p "$tree"
k=0
for w in zero one two three four five six seven eight nine; do mv "$work/png/$k" "$tree/$w"; k=$((k + 1)); done
"$bin" import "$tree" "$work/cli-images-idx3-ubyte" "$work/cli-labels-idx1-ubyte" >/dev/null 2>&1
"$bin" export "$work/g-images-idx3-ubyte" "$work/g-labels-idx1-ubyte" "$work/numbered" >/dev/null # folders 0 … 9
[ -f "$work/cli-labels-idx1-ubyte.classes.txt" ] || fail "idxlabel import wrote no class-name file"

# 1. New Dataset (Digits 0–9), Ctrl+I from the draw window, import, Save As: each label is the
# digit its folder's word names; the sources say which image each sample is.
start_state
xdotool key --clearmodifiers ctrl+n
until_state "prompt=new_dataset" "Ctrl+N opened no New Dataset dialog"
xdotool key --clearmodifiers Return
DRAW=$(timeout 20 xdotool search --sync --onlyvisible --name "Draw digits" | head -n 1) || fail "New Dataset opened no draw window"
until_state "dataset=untitled " "New Dataset did not start a dataset"
xdotool windowfocus --sync "$DRAW"
xdotool key --clearmodifiers ctrl+i
choose_folder "$tree"
shot dialog
xdotool key --clearmodifiers Return
until_state "prompt=import_report" "the import ended without its report"
until_state "samples=60 dataset=untitled " "the import did not add the 60 images to the new dataset"
xdotool key --clearmodifiers Return
until_state "source=nine/[^ ]*[.]png " "the status bar's sample line does not name the last image imported (from nine/)"
save_as "$work/out1"
# labels_are_digits PAIR_BASE WHOSE: each label of PAIR_BASE-labels-idx1-ubyte.gz is the digit its
# source (PAIR_BASE-labels-idx1-ubyte.gz.sources.txt) names by its folder's word; no class names.
labels_are_digits() {
  python3 - "$1" <<'PY' || fail "$2: a label is not the digit its folder names"
import gzip, sys
base = sys.argv[1]
labels = gzip.open(base + "-labels-idx1-ubyte.gz").read()[8:]
sources = open(base + "-labels-idx1-ubyte.gz.sources.txt").read().split("\n")[:-1]
words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
if len(labels) != 60 or len(sources) != 60:
    print("importui:", len(labels), "labels,", len(sources), "sources", file=sys.stderr); sys.exit(1)
for k, (l, s) in enumerate(zip(labels, sources)):
    if words.index(s.split("/")[0]) != l:
        print("importui: sample", k, "from", s, "has label", l, file=sys.stderr); sys.exit(1)
PY
  [ ! -e "$1-labels-idx1-ubyte.gz.classes.txt" ] || fail "$2: the digits got class names"
}
labels_are_digits "$work/out1/mydata" "the window's Save As"
# File → Save Shown As… (below Save and Save As…; everything is shown), Enter: mydata-shown-* with
# the same sources.
menu 20 100 519
until_state "prompt=save_shown" "File → Save Shown As… opened no dialog"
xdotool key --clearmodifiers Return
for _ in $(seq 300); do [ -f "$work/out1/mydata-shown-labels-idx1-ubyte.gz.sources.txt" ] && break; sleep 0.1; done
labels_are_digits "$work/out1/mydata-shown" "Save Shown As"
cmp -s "$work/out1/mydata-labels-idx1-ubyte.gz.sources.txt" "$work/out1/mydata-shown-labels-idx1-ubyte.gz.sources.txt" ||
  fail "Save Shown As wrote other sources than Save As"
echo "importui: New Dataset (Digits 0–9), Ctrl+I in the draw window, import, Save As: zero … nine labelled 0 … 9, no names, each sample's image in the sources file (Save Shown As too)"
quit_app || fail "Ctrl+Q after the save"

# 2. An import while the demo is open goes into a new dataset by default.
start_state
until_state "dataset=demo " "the demo did not open"
xdotool key --clearmodifiers ctrl+i
choose_folder "$tree"
xdotool key --clearmodifiers Return
until_state "prompt=import_report" "the import from the demo ended without its report"
until_state "samples=60 dataset=untitled " "the import from the demo did not go into a new dataset"
xdotool key --clearmodifiers Return
save_as "$work/out2"
same_as_cli "$work/out2" "the new dataset's"
echo "importui: with the demo open, the import went into a new dataset (as idxlabel import writes it); the demo got nothing"
quit_app || fail "Ctrl+Q after the import from the demo"

# 3. Keys typed while an import runs (folders 0 … 9, which keep their numbers in the pair's
# classes).
gate=$XVFB_CFG/gate
labels=$work/p-labels-idx1-ubyte
export IDXLABEL_TEST_IMPORT_GATE=$gate
start_state "$work/p-images-idx3-ubyte" "$labels"
unset IDXLABEL_TEST_IMPORT_GATE
until_state "cursor=0 .*samples=200 " "the pair did not open with the cursor on sample 0"
# 3a. Escape cancels the import dialog with any of its options focused (Shift+Tab from its end:
# Import, Cancel, then "Only resize", Threshold, Ink and the two centrings): before, a focused
# check box, text field, drop-down or radio button took Escape and dropped it.
for n in 3 4 5 6 7; do
  xdotool key --clearmodifiers ctrl+i
  choose_folder "$work/numbered"
  # shellcheck disable=SC2046 # n Shift+Tabs
  xdotool key --delay 50 --clearmodifiers $(printf 'shift+Tab %.0s' $(seq "$n"))
  [ "$n" != 5 ] || shot options-ink
  xdotool key --clearmodifiers Escape
  until_state "samples=200 .*prompt=- " "Escape with the import dialog's option $n from its end focused (Shift+Tab) did not cancel it"
done
# The list of class folders focused (Tab, from nothing focused) cancels on Escape too (before, a
# focused widget.List dropped it).
xdotool key --clearmodifiers ctrl+i
choose_folder "$work/numbered"
xdotool key --delay 50 --clearmodifiers Tab Escape
until_state "samples=200 .*prompt=- " "Escape with the import dialog's list of class folders focused (Tab) did not cancel it"
echo "importui: Escape cancelled the import dialog with its check box, threshold field, ink list, a centring or its list of class folders focused"
# Enter with the list of class folders focused imports, as Enter elsewhere in the dialog
# (before, the widget.List dropped it).
xdotool key --clearmodifiers ctrl+i
choose_folder "$work/numbered"
xdotool key --delay 50 --clearmodifiers Tab Return
until_state "prompt=progress" "Enter with the import dialog's list of class folders focused (Tab) did not start the import"
xdotool key --delay 150 --clearmodifiers 3 4
until_state "held=2 " "the keys typed during the import are not waiting for it"
shot keys
touch "$gate"
until_state "prompt=import_report" "the gated import did not end"
until_state "samples=260 " "the import did not add its 60 samples"
xdotool key --clearmodifiers Return
before=$(stat -c %i "$labels")
xdotool key --clearmodifiers ctrl+s
for _ in $(seq 300); do [ "$(stat -c %i "$labels")" != "$before" ] && break; sleep 0.1; done
[ "$(stat -c %i "$labels")" != "$before" ] || fail "Ctrl+S did not save"
python3 - "$labels" "$work/g-labels-idx1-ubyte" <<'PY' || fail "the labels saved are not the keys' then the import's"
import sys
got, cli = open(sys.argv[1], "rb").read()[8:], open(sys.argv[2], "rb").read()[8:]
want = bytes([3, 4]) + bytes(i % 10 for i in range(2, 200)) + cli
if got != want:
    print("importui: labels", list(got[:4]), "…", len(got), "want", list(want[:4]), "…", len(want), file=sys.stderr)
    sys.exit(1)
PY
echo "importui: 3 and 4 typed during the import labelled samples 0 and 1; the import's 60 came after them"
quit_app || fail "Ctrl+Q after the import with keys"

# 4. An attacker's folder.
bad=$work/bad
png=$(ls "$tree/zero" | head -n 1)
mkdir -p "$bad/line"$'\n'"break" "$bad/bell"$'\a' "$bad/empty" "$bad/loop/in"
cp "$tree/zero/$png" "$bad/line"$'\n'"break/a.png"
cp "$tree/zero/$png" "$bad/bell"$'\a'"/a.png"
cp "$tree/zero/$png" "$bad/loop/in/a.png"
ln -s .. "$bad/loop/in/up"
for k in $(seq 300); do mkdir -p "$bad/c$k"; cp "$tree/one/$(ls "$tree/one" | head -n 1)" "$bad/c$k/a.png"; done
start_state
until_state "dataset=demo " "the demo did not open"
xdotool key --clearmodifiers ctrl+i
choose_folder "$bad"
shot attack
# Enter typed in the first folder's class field (Tab: the list, the row's check box, its class
# field) imports, as Enter elsewhere in the dialog (before, it only left the field).
xdotool key --delay 50 --clearmodifiers Tab Tab Tab Return
until_state "prompt=import_report" "Enter in the first class folder's class field did not import (or the attacker's folder gave no report)"
until_state "samples=303 dataset=untitled " "the attacker's folder did not add its 303 images"
xdotool key --clearmodifiers Return
save_as "$work/out4"
"$bin" verify "$work/out4/mydata-images-idx3-ubyte.gz" "$work/out4/mydata-labels-idx1-ubyte.gz" | grep -q "^ok: 303 samples" ||
  fail "the attacker's import did not save as a pair of 303 that verifies"
echo "importui: a folder with a line break, a control character, an empty folder, a link loop and 300 classes imported and saved"
quit_app || fail "Ctrl+Q after the attacker's import"
! grep -qi "panic" "$log" || fail "the window panicked"
echo "importui: ok"
