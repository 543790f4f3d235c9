#!/usr/bin/env bash
# Real-window regression test: the Cancel button of a job's progress dialog (clicked with the
# mouse, not Escape) cancels the job. Before, the button only hid the dialog of File → Import
# Images…, Append Dataset… and Import Sheets… (adding.Start) while the job ran on and added its
# samples; Escape cancelled.
#  1. Dark theme, File → Import Images… of 60 MNIST images (PNG class folders) into a pair of 200:
#     the import is held by a gate file (IDXLABEL_TEST_IMPORT_GATE, ui/testhook) once its images
#     are read, 3 and 4 are typed (they wait for the job), the Cancel button is found on the
#     screen (progress_cancel in xvfb.sh: the bar full, the button below it) and clicked; once the
#     dialog is gone the gate opens, so a job the click left running would add its 60 samples.
#     The window must say "Import cancelled", still hold 200 samples, and have applied 3 and 4 to
#     samples 0 and 1; Ctrl+S then writes those two labels and nothing else (the images byte for
#     byte as before, no sources or class-name file).
#  2. Light theme, File → Append Dataset… of the same 60 as an IDX pair, the same way with 5 and 6.
# The window's state comes from IDXLABEL_TEST_STATE (the prompt on top, the samples, the inputs
# waiting, the status bar); the script waits on it and on the screen, never on the clock, and
# the gate holds the job however fast or loaded the machine is. CANCELBUTTON_SHOTS=PREFIX saves
# each dialog as clicked (PREFIX-import.png, PREFIX-append.png; a red ring marks the click).
# Usage: scripts/cancelbutton.sh BINARY T10K_IMAGES (MNIST's t10k image file, its labels beside it)
set -euo pipefail
bin=$(realpath "$1")
src=$2
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state
work=$XVFB_CFG/data
gate=$XVFB_CFG/gate
shots=${CANCELBUTTON_SHOTS:-}
mkdir -p "$work"

fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/cancelbutton-fail.png 2>/dev/null || true
  echo "cancelbutton: $* (screenshot /tmp/cancelbutton-fail.png)" >&2
  [ -f "$state" ] && echo "state: $(cat "$state")" >&2
  cat "$log" >&2; exit 1
}

# The pair opened: the first 200 t10k images and labels; the 60 after them as a pair (appended)
# and as PNG class folders 0 … 9 (imported), which keep their numbers in the pair's classes.
[ -f "${src/images-idx3/labels-idx1}" ] || fail "no label file beside $src"
python3 - "$src" "${src/images-idx3/labels-idx1}" "$work" <<'PY'
import gzip, struct, sys
src, lsrc, work = sys.argv[1:]
op = lambda p: gzip.open(p) if p.endswith(".gz") else open(p, "rb")
with op(src) as f:
    f.read(16)
    data = f.read(260 * 784)
with op(lsrc) as f:
    f.read(8)
    lab = f.read(260)
def pair(stem, a, b):
    open(f"{work}/{stem}-images-idx3-ubyte", "wb").write(struct.pack(">IIII", 0x803, b - a, 28, 28) + data[a * 784:b * 784])
    open(f"{work}/{stem}-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, b - a) + lab[a:b])
pair("p", 0, 200)
pair("q", 200, 260)
PY
"$bin" export "$work/q-images-idx3-ubyte" "$work/q-labels-idx1-ubyte" "$work/png" >/dev/null
images=$work/p-images-idx3-ubyte
labels=$work/p-labels-idx1-ubyte
cp "$images" "$work/images.before"
cp "$labels" "$work/labels.before"

# cancel_by_button WHAT STATUS A B: with WHAT's progress on top (its job held by the gate), types
# the digits A and B (they wait for the job), clicks the dialog's Cancel button, opens the gate
# once the dialog is gone, and waits for the job's end: the status bar must say STATUS (its
# spaces written _), no sample added, and A and B applied (the cursor moved on to sample 2).
# It shuts the gate again after the job's end, before the next job starts.
cancel_by_button() {
  local what=$1 status=$2 pos shot=""
  until_state "prompt=progress " "the $what did not start"
  xdotool key --delay 150 --clearmodifiers "$3" "$4"
  until_state "held=2 " "the keys typed during the $what are not waiting for it"
  [ -z "$shots" ] || shot=$shots-$what.png
  click_progress_cancel "$what" "$shot"
  pos=$PROGRESS_CANCEL_AT
  until_state "prompt=- " "the click at $pos did not close the $what's progress"
  touch "$gate" # a job the click left running goes on now and adds its samples
  until_state "status=(Import|Append)_cancelled|prompt=import_report|status=Appended" "the $what never ended after its Cancel button"
  rm "$gate" # shut for the next job (which this job no longer reads)
  grep -q "samples=200 " "$state" || fail "the $what ran on after its Cancel button was clicked and added its samples"
  grep -q "status=${status// /_}" "$state" || fail "the status bar does not say \"$status\" after the $what's Cancel button"
  until_state "held=0 " "the keys typed during the $what were never applied"
  grep -q "cursor=2 " "$state" || fail "the keys typed during the $what did not move the cursor on to sample 2"
  echo "cancelbutton: the $what's Cancel button, clicked at $pos, cancelled it: nothing added, $3 and $4 typed meanwhile applied"
}

# save_has A B WHAT: Ctrl+S; the pair on disk must be the one before with labels A and B on
# samples 0 and 1, the images byte for byte, and no file of an import beside it.
save_has() {
  save_keys "$labels" "after the $3"
  cmp -s "$images" "$work/images.before" || fail "the image file changed after the cancelled $3"
  python3 - "$labels" "$work/labels.before" "$1" "$2" <<'PY' || fail "the labels saved after the cancelled $3 are not the ones before with the two keys'"
import sys
got, was = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
want = was[:8] + bytes([int(sys.argv[3]), int(sys.argv[4])]) + was[10:]
if got != want:
    print("cancelbutton: header", got[:8].hex(), "labels", list(got[8:12]), "…", len(got) - 8, "want", want[:8].hex(), list(want[8:12]), "…", len(want) - 8, file=sys.stderr)
    sys.exit(1)
PY
  for f in "$labels.sources.txt" "$labels.classes.txt"; do [ ! -e "$f" ] || fail "the cancelled $3 left $f"; done
  cp "$labels" "$work/labels.before"
  echo "cancelbutton: saved after the $3: $1 and $2 on samples 0 and 1, 200 samples, the image file unchanged"
}

# 1. Import Images…, dark theme.
export FYNE_THEME=dark IDXLABEL_TEST_IMPORT_GATE=$gate
start_state "$images" "$labels"
until_state "cursor=0 .*samples=200 " "the pair did not open with the cursor on sample 0"
xdotool key --clearmodifiers ctrl+i
until_state "prompt=choose_import" "Ctrl+I opened no folder chooser"
xdotool key --clearmodifiers ctrl+a
xdotool type --delay 5 "$work/png"
xdotool key --clearmodifiers Return
until_state "prompt=import_options" "no import dialog for $work/png"
xdotool key --clearmodifiers Return
cancel_by_button import "Import cancelled: nothing was added" 3 4
save_has 3 4 import
quit_app || fail "Ctrl+Q after the cancelled import"

# 2. Append Dataset… (File's seventh item), light theme.
export FYNE_THEME=light
start_state "$images" "$labels"
until_state "cursor=0 .*samples=200 " "the saved pair did not open with the cursor on sample 0"
menu 20 100 279
xdotool key --clearmodifiers ctrl+a
xdotool type --delay 5 "$work/q-images-idx3-ubyte"
xdotool key --clearmodifiers Return
cancel_by_button append "Append cancelled: nothing was added" 5 6
save_has 5 6 append
quit_app || fail "Ctrl+Q after the cancelled append"
! grep -qi "panic" "$log" || fail "the window panicked"
echo "cancelbutton: ok"
