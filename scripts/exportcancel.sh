#!/usr/bin/env bash
# Real-window regression test: File → Export… cancelled midway says so on the status bar, "Export
# cancelled: nothing was written", and writes nothing: the folder it wrote in is as before, no
# part of the output and no temporary file or folder left. Before, a cancelled export said
# nothing. On a generated pair of 3,000 samples, all by keys, for three formats: Ctrl+Shift+E,
# Tab to the format list, Right to step to the format (CSV once, Parquet three times, the PNG tree
# none), Tab to the target's field (for the PNG tree past its check box), Enter; the export,
# once it has written some of its samples, waits for a gate file that is never made
# (IDXLABEL_TEST_EXPORT_WRITE_GATE, ui/testhook), and its temporary file or folder is beside
# the target; then the export is cancelled: by Escape
# (CSV, PNG), or by Tab to its Cancel button and Enter (Parquet). Then a digit typed relabels
# the sample at the cursor (the grid has the keys back) and Ctrl+S saves it. Last, the pair
# renamed as MNIST's test files is exported as Parquet to the end: its split is test, as the
# command line names it (data/test-00000-of-00001.parquet, the same dataset card header).
# The window's state comes from IDXLABEL_TEST_STATE (the prompt on top, the jobs, the status bar);
# the script waits on it and on the folder, never on the clock, and the gate holds the export
# midway however fast or loaded the machine is. EXPORTCANCEL_SHOTS=PREFIX saves each progress
# (PREFIX-csv.png, …) and the status bar after its Cancel (PREFIX-csv-cancelled.png, …).
# Usage: scripts/exportcancel.sh BINARY
set -euo pipefail
bin=$(realpath "$1")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state
work=$XVFB_CFG/data
shots=${EXPORTCANCEL_SHOTS:-}
mkdir -p "$work"

fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/exportcancel-fail.png 2>/dev/null || true
  echo "exportcancel: $* (screenshot /tmp/exportcancel-fail.png)" >&2
  [ -f "$state" ] && echo "state: $(cat "$state")" >&2
  cat "$log" >&2; exit 1
}
# shot NAME: a screenshot to $EXPORTCANCEL_SHOTS-NAME.png when that is set (once the frame is drawn).
shot() { [ -z "$shots" ] || { sleep 1; xwd -root -silent | /usr/bin/convert xwd:- png:"$shots-$1.png"; }; }

# 3,000 samples: more than twice the 1,000 after which the CSV, .npz and Parquet writers look for
# a Cancel, so the export is midway at the gate.
plain_pair "$work" 3000
IDXLABEL_TEST_EXPORT_WRITE_GATE=$XVFB_CFG/never start_state "$images" "$labels"
before=$(ls -A "$work")

# cancelled NAME KEYS CANCEL: exports in the format KEYS choose in the Export dialog (they end in
# the target's field, where Enter exports), waits until it is midway (its temporary file or
# folder beside the target), cancels it with the keys CANCEL, and checks what the window says
# and what is left.
cancelled() {
  xdotool key --clearmodifiers ctrl+shift+e
  until_state "prompt=export " "Ctrl+Shift+E opened no Export dialog"
  # shellcheck disable=SC2086 # KEYS is a list of key names
  xdotool key --delay 100 --clearmodifiers $2
  xdotool key --clearmodifiers Return # in the target's field: Export
  until_state "prompt=progress " "the $1 export did not start"
  for _ in $(seq "$WAIT_TENTHS"); do [ "$(ls -A "$work")" != "$before" ] && break; sleep 0.1; done
  [ "$(ls -A "$work")" != "$before" ] || fail "the $1 export wrote nothing beside its target"
  echo "exportcancel: $1 midway: $(comm -13 <(echo "$before") <(ls -A "$work") | tr '\n' ' ')"
  shot "$1"
  # shellcheck disable=SC2086 # CANCEL is a list of key names
  xdotool key --clearmodifiers $3
  until_state "prompt=- .* jobs=0 .*status=Export_cancelled:_nothing_was_written" "the cancelled $1 export did not say so (Export cancelled: nothing was written)"
  shot "$1-cancelled"
  [ "$(ls -A "$work")" = "$before" ] || fail "the cancelled $1 export left: $(comm -13 <(echo "$before") <(ls -A "$work") | tr '\n' ' ')"
  echo "exportcancel: the $1 export, cancelled by $3, said so and left nothing"
}
cancelled csv "Tab Right Tab" Escape
cancelled parquet "Tab Right Right Right Tab" "Tab Return"
cancelled png "Tab Tab Tab" Escape

# The grid has the keys back: 7 relabels sample 0, Ctrl+S saves it.
xdotool key --clearmodifiers 7
until_state "cursor=1 .*_1_edited," "7 typed after the cancelled exports did not relabel sample 0"
save_keys "$labels" "after the cancelled exports"
python3 - "$labels" <<'PY' || fail "the label file saved is not the pair's with sample 0 labelled 7"
import sys
got = open(sys.argv[1], "rb").read()[8:]
want = bytes([7]) + bytes(i % 10 for i in range(1, 3000))
sys.exit(got != want)
PY
quit_app || fail "the app did not quit"

# An export not cancelled names its Parquet split as `idxlabel export --format parquet` does,
# from the image file's name: the pair renamed as MNIST's test files (t10k-…) is the test split,
# data/test-00000-of-00001.parquet (before, the window wrote every dataset as train). The
# command line's export of the same pair has the same card header (the splits, the features).
rm -f "$labels".idxlabel-*
mv "$images" "$work/t10k-images-idx3-ubyte"
mv "$labels" "$work/t10k-labels-idx1-ubyte"
images=$work/t10k-images-idx3-ubyte labels=$work/t10k-labels-idx1-ubyte
start_state "$images" "$labels"
xdotool key --clearmodifiers ctrl+shift+e
until_state "prompt=export " "Ctrl+Shift+E opened no Export dialog"
xdotool key --delay 100 --clearmodifiers Tab Right Right Right Tab
xdotool key --clearmodifiers Return
until_state "prompt=exported " "the Parquet export of the t10k pair did not end with its note"
shot parquet-done
hf=$work/t10k-export # the dialog's target: the pair's base name and -export
[ "$(ls "$hf/data")" = "test-00000-of-00001.parquet" ] || fail "the window's Parquet export of t10k-… wrote data/$(ls "$hf/data" | tr '\n' ' '), not data/test-00000-of-00001.parquet"
"$bin" export --format parquet "$images" "$labels" "$work/cli-hf" 2>/dev/null || fail "idxlabel export --format parquet of the t10k pair failed"
[ "$(ls "$work/cli-hf/data")" = "test-00000-of-00001.parquet" ] || fail "the command line's Parquet export of t10k-… wrote data/$(ls "$work/cli-hf/data")"
# front FILE: a dataset card's YAML header (features, splits, files), which the hub reads.
front() { awk '/^---$/ { n++; print; if (n == 2) exit; next } { print }' "$1"; }
cmp -s <(front "$hf/README.md") <(front "$work/cli-hf/README.md") ||
  fail "the window's dataset card's header differs from the command line's: $(diff <(front "$hf/README.md") <(front "$work/cli-hf/README.md"))"
echo "exportcancel: the window's Parquet export of a t10k-… pair is the test split, as the command line's, with the same card header"
xdotool key --clearmodifiers Escape
until_state "prompt=- " "the export's note did not close"
quit_app || fail "the app did not quit after the Parquet export"
! grep -qi "panic" "$log" || fail "the window panicked"
echo "exportcancel: ok"
