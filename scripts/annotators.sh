#!/usr/bin/env bash
# Real-window test of several annotators (ui/annotators), on a copy of MNIST's t10k:
#  1. File → Compare Annotations… twice: two annotators' label files of t10k (bob, carol, made
#     here from t10k's labels with planted changes) join the open labels; the Disagreements mode
#     shows exactly the 5 samples planted, each badged with every annotator's label.
#  2. Three disagreements adjudicated by keys: a digit, Enter (the majority), a digit; the last
#     two are typed while the agreement figures are being made again in the background (held
#     back by a gate file, IDXLABEL_TEST_AGREE_GATE), and are applied at once; once the gate
#     opens the figures are those of the labels as adjudicated, in the detail panel while the
#     message of Enter on a sample without a majority holds the status bar, then on the status
#     bar once the cursor moves (←). Then a digit changes a
#     sample's majority (its label the comparison's minority's): back on it (←), Enter takes the
#     majority of its votes now, not the one of the comparison. Ctrl+S saves; the saved labels
#     are checked from outside (python, and `idxlabel agree` against the expected file: exit 0).
#  2b. A click on a cell of the annotators' confusion matrix beside the grid lists its sample.
#  3. File → Export Errata… writes the errata of the labels as opened → as adjudicated: checked
#     with `idxlabel apply-errata` on the official files (the saved labels, byte for byte). Under
#     its progress (held by IDXLABEL_TEST_EXPORT_GATE once the file is written) a 3 relabels the
#     sample at the cursor at once, not in the errata, and Escape ends the job; Ctrl+S saves it.
#  4. A second window on another copy of the official files: File → Apply Errata… applies that
#     file as one step; saved, its labels are the first window's.
# The window's state comes from IDXLABEL_TEST_STATE; the script waits on it and on files, not on
# the clock. ANNOTATORS_SHOTS=PREFIX saves screenshots (PREFIX-NAME.png; FYNE_THEME picks the
# theme).
# Usage: scripts/annotators.sh BINARY T10K_IMAGES
set -euo pipefail
bin=$(realpath "$1")
images=$(realpath "$2")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state
shots=${ANNOTATORS_SHOTS:-}
copy_t10k "$images"
official=$XVFB_CFG/official
mkdir -p "$official"
cp "$work"/t10k-* "$official/"

fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/annotators-fail.png 2>/dev/null || true
  echo "annotators: $* (screenshot /tmp/annotators-fail.png)" >&2
  [ -f "$state" ] && echo "state: $(cat "$state")" >&2
  cat "$log" >&2; exit 1
}
# shot NAME: a screenshot to $ANNOTATORS_SHOTS-NAME.png when that is set (once the frame is drawn).
shot() { [ -z "$shots" ] || { sleep 1; xwd -root -silent | /usr/bin/convert xwd:- png:"$shots-$1.png"; }; }
# file_menu Y: opens the File menu and clicks the item at height Y (40 px a row, separators
# between: ui/menuplaces_test.go keeps the places).
file_menu() { menu 20 100 "$1"; } # once its popup is drawn; waits for the dialog (xvfb.sh)
# choose PATH: types PATH into the file chooser open and picks it.
choose() {
  until_state "prompt=choose_open" "no file chooser"
  xdotool key --clearmodifiers ctrl+a
  xdotool type --delay 5 "$1"
  xdotool key --clearmodifiers Return
}
# saved_after INODE FILE: waits (up to 30 s) for FILE to be replaced by a save.
saved_after() {
  for _ in $(seq 300); do [ "$(stat -c %i "$2")" != "$1" ] && return 0; sleep 0.1; done
  fail "Ctrl+S did not save $2"
}

# The annotators: bob and carol differ from t10k's labels on samples 2, 5, 9, 14 and 20 (5:
# both alike, so its majority is theirs; 14: bob and the open labels alike, carol not; 20: all
# three differ, no majority). keys.txt: the digits to type on 2 and 9 (labels neither had) and
# on 14 (carol's: its majority becomes carol's, which Enter then takes), and the labels expected
# after adjudication.
python3 - "$work" <<'PY'
import gzip, struct, sys
w = sys.argv[1]
lab = gzip.open(w + "/t10k-labels-idx1-ubyte.gz").read()[8:]
def write(name, change):
    l = bytearray(lab)
    for i, d in change.items():
        l[i] = (lab[i] + d) % 10
    open(w + "/" + name, "wb").write(struct.pack(">II", 0x801, len(l)) + bytes(l))
write("bob-labels-idx1-ubyte", {2: 1, 5: 1, 9: 2, 20: 3})
write("carol-labels-idx1-ubyte", {5: 1, 14: 4, 20: 5})
k2, k9, k14 = (lab[2] + 5) % 10, (lab[9] + 6) % 10, (lab[14] + 4) % 10
want = bytearray(lab)
want[2], want[5], want[9], want[14] = k2, (lab[5] + 1) % 10, k9, k14
open(w + "/expected-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, len(want)) + bytes(want))
open(w + "/keys.txt", "w").write(f"{k2} {k9} {k14}\n")
PY
read -r k2 k9 k14 <"$work/keys.txt"

# 1. Two annotators compared.
gate=$XVFB_CFG/agree-gate
export IDXLABEL_TEST_AGREE_GATE=$gate IDXLABEL_TEST_EXPORT_GATE=$XVFB_CFG/export-gate # (3)
start_state "$work/t10k-images-idx3-ubyte.gz"
unset IDXLABEL_TEST_AGREE_GATE IDXLABEL_TEST_EXPORT_GATE
until_state "samples=10000 " "t10k did not open"
file_menu 640
choose "$work/bob-labels-idx1-ubyte"
until_state "mode=Disagreements .*shown=4 " "bob's labels did not show their 4 disagreements"
file_menu 640
choose "$work/carol-labels-idx1-ubyte"
until_state "mode=Disagreements .*cursor=0 shown=5 sample=2 " "carol's labels did not make the 5 disagreements"
until_state "status=.*3_annotators:.*Fleiss'_κ" "the status bar gives no Fleiss' κ of the three annotators"
shot compared
echo "annotators: two annotators compared with the open labels: the 5 samples planted, Fleiss' κ on the status bar"

# 2. Adjudicated by keys: 2 a digit; then, while the figures are being made (gated), 5 Enter
# (the majority) and 9 a digit.
xdotool key --clearmodifiers "$k2"
until_state "sample=5 .*adjudicated_1_/_5" "the digit on sample 2 did not adjudicate it"
xdotool key --delay 150 --clearmodifiers Return "$k9"
until_state "sample=14 .*adjudicated_3_/_5.*_…" "the keys typed while the figures were being made were not applied at once"
shot adjudicated
# End, Enter: sample 20 has no majority, and its message holds the status bar when the gate
# opens. The figures (gated once made: of the labels after the first digit) are made again all
# the same, of the labels as adjudicated: the detail panel gives bob 9,997 of the 10,000 labels
# (sample 5 his now), not the 9,996 of the first digit alone, and carol 9,996.
xdotool key --delay 150 --clearmodifiers End Return
until_state "sample=20 .*status=Sample_20_has_no_majority" "Enter on sample 20 (no majority) did not say so"
touch "$gate"
until_state "about=.*bob-labels-idx1-ubyte_99\.97%.*carol-labels-idx1-ubyte_99\.96%.* status=Sample_20_has_no_majority" \
  "the annotators' figures were not made again while a message held the status bar"
shot message
xdotool key --clearmodifiers Left
until_state "sample=14 .*adjudicated_3_/_5.*over_10,000_samples$" "the figures were not made again after the gate opened"
# 14 (open and bob alike, carol not: the comparison's majority is theirs) typed carol's label:
# its majority now is carol's and the adjudicated open label's. Back on it, Enter takes that one
# (the saved labels below say which it took).
xdotool key --clearmodifiers "$k14"
until_state "cursor=4 .*sample=20 .*adjudicated_4_/_5" "the digit on sample 14 did not adjudicate it"
xdotool key --clearmodifiers Left
until_state "cursor=3 .*sample=14 " "← did not go back to sample 14"
shot majority
xdotool key --clearmodifiers Return
until_state "cursor=4 .*sample=20 .*adjudicated_4_/_5" "Enter on sample 14 did not take a majority and move on"
labels=$work/t10k-labels-idx1-ubyte.gz
before=$(stat -c %i "$labels")
xdotool key --clearmodifiers ctrl+s
saved_after "$before" "$labels"
python3 - "$labels" "$work/expected-labels-idx1-ubyte" <<'PY' || fail "the saved labels are not the adjudicated ones"
import gzip, sys
got, want = gzip.open(sys.argv[1]).read()[8:], open(sys.argv[2], "rb").read()[8:]
bad = [i for i in range(len(want)) if got[i] != want[i]]
if len(got) != len(want) or bad:
    print("annotators: samples differ:", bad[:10], file=sys.stderr); sys.exit(1)
PY
"$bin" agree "$labels" "$work/expected-labels-idx1-ubyte" >/dev/null 2>"$work/agree.txt" ||
  fail "idxlabel agree finds the saved labels differ from the expected ones: $(cat "$work/agree.txt")"
echo "annotators: 4 disagreements adjudicated by keys (2 of them while the figures were being made; Enter back on one took the majority of its votes as adjudicated), saved, checked by idxlabel agree"

# 2b. The confusion matrix of the open labels and bob beside the grid (made again with the
# figures, of the labels as adjudicated): a click on the cell (open 6, bob 2) lists sample 2
# alone (adjudicated 6 = k2, bob's 2). The cells are 40 pixels, the grid's top left at (250,
# 123) in this window (plot.NewTable of 10 classes; the chart at the top left of the grid's
# place): the cell (r, k) is centred at (270 + 40k, 143 + 40r).
[ "$k2" = 6 ] || fail "sample 2's adjudicated label is $k2, the click below expects 6"
xdotool mousemove 350 383 click 1
until_state "mode=Disagreements .*shown=1 sample=2 " "a click on the cell (6, 2) of the confusion matrix did not list sample 2 alone"
shot cell
echo "annotators: a click on a cell of the annotators' confusion matrix lists exactly its sample"

# 3. File → Export Errata… (the labels as opened → as adjudicated), the default file.
errata=$work/t10k-errata.csv
file_menu 680
until_state "prompt=export_errata" "File → Export Errata… opened no dialog"
shot export
xdotool key --clearmodifiers Return
# Its job, once the file is written, waits for the export gate, never opened: a 3 typed under its
# progress goes on to the grid and relabels sample 2 at once (the title's star: unsaved; an
# export holds no edits, and the errata hold the labels taken as it began: the check below), and
# Escape is its Cancel (the file already written: it says so).
until_state "sample=2 .*prompt=progress " "Export Errata showed no progress passing keys on (the cursor on sample 2)"
xdotool key --clearmodifiers 3
until_state "held=0 " "the 3 typed during Export Errata waits for it"
for _ in $(seq "$WAIT_TENTHS"); do xdotool getwindowname "$MAIN" | grep -q ' \*$' && break; sleep 0.1; done
xdotool getwindowname "$MAIN" | grep -q ' \*$' || fail "the 3 typed during Export Errata did not relabel sample 2 at once (dropped?)"
xdotool key --clearmodifiers Escape
until_state "prompt=- .*status=Wrote_4_corrections" "Escape did not end Export Errata with its 4 corrections written"
[ -s "$errata" ] || fail "Export Errata wrote no $errata"
"$bin" apply-errata "$errata" "$official/t10k-images-idx3-ubyte.gz" "$official/t10k-labels-idx1-ubyte.gz" "$work/cli-labels-idx1-ubyte" 2>"$work/apply.txt" ||
  fail "idxlabel apply-errata did not apply every row: $(cat "$work/apply.txt")"
gunzip -c "$labels" | cmp -s - "$work/cli-labels-idx1-ubyte" || fail "idxlabel apply-errata of the window's errata is not the saved labels"
save_keys "$labels" "after Export Errata"
gunzip -c "$labels" | python3 -c "import sys; b=sys.stdin.buffer.read(); sys.exit(0 if b[8+2]==3 else 1)" ||
  fail "Ctrl+S did not save the 3 typed under Export Errata's progress on sample 2"
echo "annotators: Export Errata wrote 4 rows; idxlabel apply-errata on the official files gives the labels saved before it byte for byte; a 3 typed under its progress relabelled sample 2 at once (saved by Ctrl+S) and Escape ended it"
quit_app || fail "Ctrl+Q after the save"

# 4. A second window on the official files: File → Apply Errata…, one step, saved.
start_state "$official/t10k-images-idx3-ubyte.gz"
until_state "samples=10000 " "the official copy did not open"
file_menu 720
choose "$errata"
until_state "status=Applied_4_of_4_errata_rows" "Apply Errata did not apply the 4 rows"
shot applied
labels2=$official/t10k-labels-idx1-ubyte.gz
before=$(stat -c %i "$labels2")
xdotool key --clearmodifiers ctrl+s
saved_after "$before" "$labels2"
cmp -s <(gunzip -c "$labels2") "$work/expected-labels-idx1-ubyte" || fail "the second window's labels after the errata are not the first window's as adjudicated"
quit_app || fail "Ctrl+Q in the second window"
echo "annotators: Apply Errata in a second window gave the adjudicated labels; all passed"
