#!/usr/bin/env bash
# Real-window test of opening a Parquet file in the window, all by keys, on generated data:
#  1. A pair of 200 samples is open; File → Open… is given a Hugging Face Parquet file of 300
#     samples (written by idxlabel export --format parquet). The conversion is held back by a
#     gate file (IDXLABEL_TEST_CONVERT_GATE) while 3 and 4 are typed: they wait for it, and once
#     it ends they relabel samples 0 and 1 of the pair they were typed on (not the Parquet's);
#     the question about that pair's unsaved edits is answered Save, and the Parquet's IDX pair,
#     written beside it, opens.
#  2. 5, 6 and 7 relabel its samples 0 to 2; Ctrl+S saves. From outside: the IDX pair beside the
#     file holds the Parquet's images and its labels with those three changed, the first pair
#     holds 3 and 4, and the Parquet file's bytes are unchanged.
#     Then 8 is typed, and Save As as Kaggle CSV, all by keys (the format list's Right arrow,
#     Enter): the CSV holds the samples with the four edits, the IDX pair its last save. Under
#     the export's progress (held by IDXLABEL_TEST_EXPORT_GATE once the CSV is written) a 9
#     relabels sample 4 at once, not in the CSV, and its Cancel button, clicked, ends the job (the
#     file already written: its note says so); Ctrl+S saves the 8 and the 9.
#  3. The Parquet file opened again: the window asks, Enter opens the pair already there (the
#     labels as saved). Opened once more, Convert Again (Tab, Tab, Space) over that pair, which
#     the window shows: it is closed and written again from the Parquet file, and opens.
#  4. A Parquet file claiming a footer of 2 GiB, and a Kaggle CSV with a pixel of 300: each is
#     refused with an error naming the file, no pair written, no panic (a Parquet image that
#     does not decode: ui/convert's tests).
# The window's state comes from IDXLABEL_TEST_STATE (the prompt on top, the samples, the inputs
# waiting); the script waits on it and on files, not on the clock.
# FORMATSUI_SHOTS=/tmp/f writes screenshots /tmp/f-*.png (FYNE_THEME=light for the light theme).
# Usage: scripts/formatsui.sh BINARY
set -euo pipefail
bin=$(realpath "$1")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state
work=$XVFB_CFG/data
shots=${FORMATSUI_SHOTS:-}
mkdir -p "$work"

fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/formatsui-fail.png 2>/dev/null || true
  echo "formatsui: $* (screenshot /tmp/formatsui-fail.png)" >&2
  [ -f "$state" ] && echo "state: $(cat "$state")" >&2
  cat "$log" >&2; exit 1
}
# shot NAME: a screenshot to $FORMATSUI_SHOTS-NAME.png when that is set (once the frame is drawn).
shot() { [ -z "$shots" ] || { sleep 1; xwd -root -silent | /usr/bin/convert xwd:- png:"$shots-$1.png"; }; }
# open_file PATH: File → Open… (Ctrl+O), PATH typed into the chooser, Enter.
open_file() {
  xdotool key --clearmodifiers ctrl+o
  until_state "prompt=choose_open" "Ctrl+O opened no chooser"
  xdotool key --clearmodifiers ctrl+a
  xdotool type --delay 5 "$1"
  xdotool key --clearmodifiers Return
}
# saved FILE INODE: waits (up to 30 s) until FILE is another file than INODE (a save renames).
saved() {
  for _ in $(seq 300); do [ "$(stat -c %i "$1" 2>/dev/null)" != "$2" ] && return 0; sleep 0.1; done
  fail "$1 was not saved"
}

# A pair of 200 samples (labels i % 10) and one of 300 (labels 7i % 10) exported as Parquet.
python3 - "$work" <<'PY'
import struct, sys
d = sys.argv[1]
m = 200
open(d + "/p-images-idx3-ubyte", "wb").write(struct.pack(">IIII", 0x803, m, 28, 28) + bytes((i * 37 + i // 784) % 256 for i in range(m * 784)))
open(d + "/p-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, m) + bytes(i % 10 for i in range(m)))
n = 300
img = bytearray(n * 784)
for k in range(n):
    c = (7 * k) % 10
    for y in range(4 + k % 5, 22):
        for x in range(6 + c, 10 + c + k % 4):
            img[k * 784 + y * 28 + x] = 255 - (k % 7)
open(d + "/g-images-idx3-ubyte", "wb").write(struct.pack(">IIII", 0x803, n, 28, 28) + bytes(img))
open(d + "/g-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, n) + bytes((7 * k) % 10 for k in range(n)))
PY
"$bin" export --format parquet --splits train "$work/g-images-idx3-ubyte" "$work/g-labels-idx1-ubyte" "$work/hf" >/dev/null
pq=$work/digits.parquet
cp "$work/hf/data/train-00000-of-00001.parquet" "$pq"
sum=$(sha256sum "$pq" | cut -d' ' -f1)
images=$work/digits-images-idx3-ubyte.gz
labels=$work/digits-labels-idx1-ubyte.gz

# 1. Keys typed on the open pair while the Parquet file converts.
gate=$XVFB_CFG/gate
export IDXLABEL_TEST_CONVERT_GATE=$gate IDXLABEL_TEST_EXPORT_GATE=$XVFB_CFG/export-gate # (2b)
start_state "$work/p-images-idx3-ubyte" "$work/p-labels-idx1-ubyte"
unset IDXLABEL_TEST_CONVERT_GATE IDXLABEL_TEST_EXPORT_GATE
until_state "cursor=0 .*samples=200 " "the pair did not open with the cursor on sample 0"
open_file "$pq"
until_state "prompt=convert " "opening the Parquet file started no conversion"
xdotool key --delay 150 --clearmodifiers 3 4
until_state "held=2 " "the keys typed during the conversion are not waiting for it"
shot converting
p_before=$(stat -c %i "$work/p-labels-idx1-ubyte")
touch "$gate"
until_state "prompt=unsaved " "the keys typed during the conversion made no edit of the pair shown (no question about unsaved edits)"
shot unsaved
xdotool key --clearmodifiers Return # Save
saved "$work/p-labels-idx1-ubyte" "$p_before"
until_state "samples=300 dataset=digits-labels-idx1-ubyte.gz " "the Parquet file's pair did not open"
[ -f "$images" ] && [ -f "$labels" ] || fail "no IDX pair beside the Parquet file"
python3 - "$work/p-labels-idx1-ubyte" <<'PY' || fail "the keys typed during the conversion did not label samples 0 and 1 of the pair they were typed on"
import sys
got = open(sys.argv[1], "rb").read()[8:]
want = bytes([3, 4]) + bytes(i % 10 for i in range(2, 200))
if got != want:
    print("formatsui: labels", list(got[:4]), "want", list(want[:4]), file=sys.stderr); sys.exit(1)
PY
echo "formatsui: 3 and 4 typed while the Parquet file converted labelled samples 0 and 1 of the pair shown, saved before the Parquet's pair opened"

# 2. Relabel in the Parquet's pair, save, check from outside.
until_state "cursor=0 .*prompt=- " "the Parquet's pair is not ready for keys"
xdotool key --delay 150 --clearmodifiers 5 6 7
until_state "cursor=3 " "5 6 7 did not move the cursor to sample 3"
shot relabelled
before=$(stat -c %i "$labels")
xdotool key --clearmodifiers ctrl+s
saved "$labels" "$before"
python3 - "$images" "$labels" "$work/g-images-idx3-ubyte" <<'PY' || fail "the IDX pair saved beside the Parquet file is not its samples with 5 6 7 typed"
import gzip, sys
img, lab = gzip.open(sys.argv[1]).read(), gzip.open(sys.argv[2]).read()
src = open(sys.argv[3], "rb").read()
if img != src:
    print("formatsui: the images differ from those exported as Parquet", file=sys.stderr); sys.exit(1)
want = bytes([5, 6, 7]) + bytes((7 * k) % 10 for k in range(3, 300))
if lab[:8] != bytes.fromhex("000008010000012c") or lab[8:] != want:
    print("formatsui: labels", list(lab[8:12]), "want", list(want[:4]), file=sys.stderr); sys.exit(1)
PY
"$bin" verify "$images" "$labels" | grep -q "^ok: 300 samples" || fail "the saved pair does not verify"
[ "$(sha256sum "$pq" | cut -d' ' -f1)" = "$sum" ] || fail "the Parquet file changed"
echo "formatsui: 5 6 7 relabelled the Parquet's samples 0-2; Ctrl+S wrote the IDX pair beside it (images the Parquet's, labels with the edits); the Parquet file is unchanged"

# 2b. Save As, Kaggle CSV, by keys: the folder, the base name, the format (Right twice from IDX),
# Enter. From outside: the CSV holds the samples with the edits, the 8 typed after the save too;
# the IDX pair keeps its last save until Ctrl+S.
xdotool key --clearmodifiers 8
until_state "cursor=4 " "8 did not relabel sample 3"
xdotool key --clearmodifiers ctrl+shift+s
until_state "prompt=save_as" "Ctrl+Shift+S opened no Save As dialog"
sleep 0.5
xdotool key --clearmodifiers Tab ctrl+a
xdotool type --delay 5 "$work/csv"
xdotool key --clearmodifiers Tab Tab ctrl+a
xdotool type --delay 5 "mine"
xdotool key --delay 100 --clearmodifiers Tab Tab Tab Right Right
shot saveas
xdotool key --clearmodifiers Return # Enter in the format list presses Save
until_state "prompt=question" "Save As as Kaggle CSV did not ask to create the folder"
xdotool key --clearmodifiers Return # create it
# The export (File → Export's job), once mine.csv is written, waits for the export gate, never
# opened: a 9 typed under its progress goes on to the grid and relabels sample 4 at once (an
# export holds no edits; the CSV holds the samples as they were when it began: 8 there, checked
# below), and its Cancel button, clicked (found on the screen: click_progress_cancel), ends the
# job (the file already written: it ends with its note; Escape: annotators.sh, buildui.sh).
until_state "cursor=4 .*prompt=progress " "Save As as Kaggle CSV showed no progress passing keys on"
xdotool key --clearmodifiers 9
until_state "cursor=5 .*held=0 " "the 9 typed during the export did not relabel sample 4 at once (dropped?)"
click_progress_cancel export
until_state "prompt=exported " "Save As as Kaggle CSV did not end with its note (its Cancel button did not end the job?)"
[ -f "$work/csv/mine.csv" ] || fail "Save As as Kaggle CSV wrote no mine.csv"
shot exported
python3 - "$work/csv/mine.csv" "$work/g-images-idx3-ubyte" <<'PY' || fail "the CSV Save As wrote is not the samples with the edits"
import sys
lines = open(sys.argv[1]).read().split("\n")
src = open(sys.argv[2], "rb").read()[16:]
if lines[0] != "label," + ",".join("pixel%d" % i for i in range(784)) or len(lines) != 302 or lines[-1] != "":
    print("formatsui: header or line count", len(lines), file=sys.stderr); sys.exit(1)
want = [5, 6, 7, 8] + [(7 * k) % 10 for k in range(4, 300)]
for k, line in enumerate(lines[1:301]):
    v = [int(x) for x in line.split(",")]
    if v[0] != want[k] or bytes(v[1:]) != src[k * 784:(k + 1) * 784]:
        print("formatsui: CSV line", k + 2, "label", v[0], "want", want[k], file=sys.stderr); sys.exit(1)
PY
xdotool key --clearmodifiers Return # close the note
until_state "prompt=- " "the note after the export did not close"
gunzip -c "$labels" | python3 -c "import sys; b=sys.stdin.buffer.read(); sys.exit(0 if b[8+3]==1 else 1)" ||
  fail "Save As as CSV changed the IDX pair's labels (the 8 is unsaved)"
save_keys "$labels" "after the CSV export"
gunzip -c "$labels" | python3 -c "import sys; b=sys.stdin.buffer.read(); sys.exit(0 if b[8+3:8+5]==bytes([8, 9]) else 1)" ||
  fail "Ctrl+S did not save the 8 and the 9 typed under the export's progress on samples 3 and 4"
echo "formatsui: Save As, Kaggle CSV, by keys: mine.csv holds the samples with the edits (the unsaved 8 too, not the 9 typed under its progress, which relabelled sample 4 at once; its Cancel button ended the job); the IDX pair kept its last save until Ctrl+S, which saved the 8 and the 9"

# 3. Opened again: the pair already there opens (Enter).
open_file "$pq"
until_state "prompt=convert_exists " "opening the Parquet file again did not ask about the pair there"
shot exists
xdotool key --clearmodifiers Return
until_state "samples=300 dataset=digits-labels-idx1-ubyte.gz .*prompt=- " "Enter did not open the pair there"
[ "$(sha256sum "$pq" | cut -d' ' -f1)" = "$sum" ] || fail "the Parquet file changed"
# 3b. Opened again, Convert Again (Tab, Tab, Space) over the pair on screen: the window closes it
#     (nothing unsaved) and writes the Parquet's labels over the edits saved (565b7bb: its own
#     lock refused it, "open for editing in this idxlabel (another window)").
before=$(stat -c %i "$labels")
open_file "$pq"
until_state "prompt=convert_exists " "opening the Parquet file again did not ask about the pair there"
xdotool key --clearmodifiers Tab Tab space
for _ in $(seq "$WAIT_TENTHS"); do
  [ "$(stat -c %i "$labels" 2>/dev/null)" != "$before" ] && break
  grep -q "prompt=error" "$state" && fail "Convert Again over the pair on screen was refused"
  sleep 0.1
done
[ "$(stat -c %i "$labels")" != "$before" ] || fail "Convert Again did not write the pair"
until_state "samples=300 dataset=digits-labels-idx1-ubyte.gz .*prompt=- " "the pair converted again did not open"
gunzip -c "$labels" | python3 -c "import sys; b=sys.stdin.buffer.read()[8:]; sys.exit(0 if list(b) == [(7 * k) % 10 for k in range(300)] else 1)" ||
  fail "the pair converted again does not hold the Parquet's labels"
echo "formatsui: converted again over the pair on screen: closed, written with the Parquet's labels, opened"

# 4. Hostile files: a footer claiming 2 GiB, an image that does not decode.
python3 - "$pq" "$work" <<'PY'
import struct, sys
open(sys.argv[2] + "/huge.parquet", "wb").write(b"PAR1" + b"\0" * 64 + struct.pack("<I", 0x7fffffff) + b"PAR1")
rows = ["label," + ",".join("pixel%d" % i for i in range(784))]
rows += ["1," + ",".join("0" for _ in range(784)), "2," + ",".join("300" for _ in range(784))]
open(sys.argv[2] + "/badrow.csv", "w").write("\n".join(rows) + "\n")
PY
for bad in huge.parquet badrow.csv; do
  open_file "$work/$bad"
  until_state "prompt=error:.*${bad/./[.]}" "$bad gave no error naming it"
  shot "${bad%.*}"
  xdotool key --clearmodifiers Escape
  until_state "prompt=- " "the error did not close"
  [ ! -e "$work/${bad%.*}-images-idx3-ubyte.gz" ] || fail "$bad left a pair"
done
echo "formatsui: a Parquet file claiming a 2 GiB footer and a CSV with a pixel of 300 are refused naming them; nothing written"
quit_app || fail "Ctrl+Q at the end"
! grep -qi "panic" "$log" || fail "the window panicked"
echo "formatsui: ok"
