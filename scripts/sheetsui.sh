#!/usr/bin/env bash
# Real-window regression test of File → Import Sheets…, all by keys, on generated sheets:
# three 150 dpi scans of generated digits (bench/sheets -glyphs: the printed template, 10 rows ×
# 12 columns, row k the digit k) are imported into an open pair of 200 samples.
#  1. Ctrl+Shift+I opens the folder chooser; the folder typed opens the sheets dialog, which
#     lists the sheets and shows the first with the boxes found over it (the preview's line in
#     IDXLABEL_TEST_SHEETS: its counts, its size at most 1,000 pixels a side, the grid found).
#  2. Enter imports. The import is held back by a gate file (IDXLABEL_TEST_IMPORT_GATE) while 3
#     and 4 are typed on samples 0 and 1: they wait for it (held=2) and, once the gate opens,
#     label those samples, then the sheets' samples are added after them.
#  3. Ctrl+Z takes every sample added away in one step, Ctrl+Shift+Z brings them back; the last
#     sample's source names its sheet, box and writer.
#  4. Ctrl+S saves. From outside: the labels are the keys', the pair's, then import-sheets' on
#     the same folder (its column 0), the images byte for byte import-sheets' and each added
#     sample's label is the digit of its box's row on the layout (its source, saved beside the
#     labels, names the box and the writer: import-sheets' column 1).
# The window's state comes from IDXLABEL_TEST_STATE; the script waits on it and on files, never
# on the clock. It fails without File → Import Sheets… (Ctrl+Shift+I opens nothing).
# Usage: scripts/sheetsui.sh BINARY  (SHEETSUI_SHOTS=/tmp/x writes screenshots /tmp/x-*.png,
# SHEETSUI_THEME=dark|light the theme)
set -euo pipefail
bin=$(realpath "$1")
repo=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state
work=$XVFB_CFG/data
shots=${SHEETSUI_SHOTS:-}
[ -z "${SHEETSUI_THEME:-}" ] || export FYNE_THEME=$SHEETSUI_THEME
mkdir -p "$work"

fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/sheetsui-fail.png 2>/dev/null || true
  rm -rf /tmp/sheetsui-work; cp -r "$work" /tmp/sheetsui-work 2>/dev/null || true
  echo "sheetsui: $* (screenshot /tmp/sheetsui-fail.png, the files in /tmp/sheetsui-work)" >&2
  [ -f "$state" ] && echo "state: $(cat "$state")" >&2
  cat "$log" >&2; exit 1
}
# shot NAME: a screenshot to $SHEETSUI_SHOTS-NAME.png when that is set (once the frame is drawn).
shot() { [ -z "$shots" ] || { sleep 1; xwd -root -silent | /usr/bin/convert xwd:- png:"$shots-$1.png"; }; }
# until_file FILE REGEX WHAT: waits (up to 60 s) until FILE matches REGEX, else fails with WHAT.
until_file() {
  for _ in $(seq "$WAIT_TENTHS"); do grep -Eq "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  fail "$3 ($1 never matched $2: $(cat "$1" 2>/dev/null))"
}

# The sheets, generated (bench/sheets writes each with its preview and pairs beside it: only the
# sheets stay), and what import-sheets makes of them.
sheets=$work/sheets
(cd "$repo" && go run ./bench/sheets -n 3 -seeds 1 -kinds scan -glyphs -dpi 150 -keep "$sheets" >"$work/bench.txt" 2>&1) ||
  { cat "$work/bench.txt" >&2; fail "bench/sheets made no sheets"; }
rm -f "$sheets"/*.png
[ "$(ls "$sheets" | wc -l)" = 3 ] || fail "bench/sheets made $(ls "$sheets" | wc -l) sheets, not 3"
"$bin" import-sheets "$sheets" "$work/cli-images-idx3-ubyte" "$work/cli-labels-idx2-int" >/dev/null 2>&1 ||
  fail "import-sheets did not read the sheets"
plain_pair "$work" 200
gate=$XVFB_CFG/gate
export IDXLABEL_TEST_IMPORT_GATE=$gate IDXLABEL_TEST_SHEETS=$XVFB_CFG/sheets-state
start_state "$work/p-images-idx3-ubyte" "$labels"
unset IDXLABEL_TEST_IMPORT_GATE
until_state "cursor=0 .*samples=200 " "the pair did not open with the cursor on sample 0"

# 1. The dialog: the sheets listed, the first previewed with its boxes.
xdotool key --clearmodifiers ctrl+shift+i
until_state "prompt=choose_import" "Ctrl+Shift+I opened no folder chooser for Import Sheets"
xdotool key --clearmodifiers ctrl+a
xdotool type --delay 5 "$sheets"
xdotool key --clearmodifiers Return
until_state "prompt=import_sheets" "no sheets dialog for $sheets"
until_file "$IDXLABEL_TEST_SHEETS" "^preview=0 filled=[0-9]+ .*grid=true" "the first sheet was not previewed with its grid"
read -r _ filled _ _ width height _ < <(tr '= ' '  ' <"$IDXLABEL_TEST_SHEETS" | awk '{print $1, $4, $5, $8, $10, $12, $14}')
[ "$filled" -gt 90 ] || fail "the preview shows $filled filled boxes"
[ "$width" -le 1000 ] && [ "$height" -le 1000 ] || fail "the preview is $width×$height, more than 1,000 pixels a side"
shot dialog
echo "sheetsui: the sheets dialog showed the first sheet with $filled filled boxes (preview $width×$height)"
# A wrong layout is seen before anything is added: 11 columns find no grid on the page shown;
# 12 again find it. Then Enter leaves the field, and Enter again imports.
rm -f "$IDXLABEL_TEST_SHEETS"
eval "$(xdotool getwindowgeometry --shell "$MAIN")"
xdotool mousemove $((X + 375)) $((Y + 127)) click 1
xdotool key --clearmodifiers ctrl+a
xdotool type --delay 50 11
until_file "$IDXLABEL_TEST_SHEETS" "^preview=0 .*grid=false" "11 columns did not show the first sheet without its grid"
until_state "samples=200 " "a layout changed added samples"
shot wrong
rm -f "$IDXLABEL_TEST_SHEETS"
xdotool key --clearmodifiers ctrl+a
xdotool type --delay 50 12
until_file "$IDXLABEL_TEST_SHEETS" "^preview=0 filled=$filled .*grid=true" "12 columns again did not show the first sheet's grid"
xdotool key --clearmodifiers Return
echo "sheetsui: 11 columns showed the page without a grid, 12 again with its boxes"

# 2. Enter imports; 3 and 4 typed while it runs label samples 0 and 1 first.
xdotool key --clearmodifiers Return
until_state "prompt=progress" "the import did not start"
xdotool key --delay 150 --clearmodifiers 3 4
until_state "held=2 " "the keys typed during the import are not waiting for it"
shot keys
touch "$gate"
until_state "prompt=sheets_report" "the gated import did not end with its report"
n=$(python3 -c "import sys; print(int.from_bytes(open(sys.argv[1], 'rb').read()[4:8], 'big'))" "$work/cli-labels-idx2-int")
until_state "samples=$((200 + n)) " "the import did not add import-sheets' $n samples"
shot report
xdotool key --clearmodifiers Return
until_state "prompt=- " "the report did not close"

# 3. One undoable step.
xdotool key --clearmodifiers ctrl+z
until_state "samples=200 " "Ctrl+Z did not take the $n samples away in one step"
xdotool key --clearmodifiers ctrl+shift+z
until_state "samples=$((200 + n)) " "Ctrl+Shift+Z did not bring the $n samples back"
xdotool key --clearmodifiers End
until_state "source=scan-1-002.jpg_row_9,_column_[0-9]+,_writer_2 " "the last sample's source does not name its sheet, box and writer"
shot added
echo "sheetsui: $n samples added after the keys, as one undoable step; the last one from scan-1-002.jpg, writer 2"

# 4. Save, and check from outside.
before=$(stat -c %i "$labels")
xdotool key --clearmodifiers ctrl+s
for _ in $(seq 300); do [ "$(stat -c %i "$labels")" != "$before" ] && [ -f "$labels.sources.txt" ] && break; sleep 0.1; done
[ "$(stat -c %i "$labels")" != "$before" ] || fail "Ctrl+S did not save"
python3 - "$work" "$labels" <<'PY' || fail "the pair saved is not the keys', the pair's and import-sheets'"
import re, sys
work, labels = sys.argv[1], sys.argv[2]
got = open(labels, "rb").read()[8:]
imgs = bytes((i * 37 + i // 784) % 256 for i in range(200 * 784))  # the pair's, as written above
cli = open(work + "/cli-labels-idx2-int", "rb").read()
n = int.from_bytes(cli[4:8], "big")
col = [int.from_bytes(cli[12 + 8 * i:16 + 8 * i], "big", signed=True) for i in range(n)]
writers = [int.from_bytes(cli[16 + 8 * i:20 + 8 * i], "big", signed=True) for i in range(n)]
want = bytes([3, 4]) + bytes(i % 10 for i in range(2, 200)) + bytes(col)
if got != want:
    print("sheetsui: labels", list(got[:4]), "…", len(got), "want", list(want[:4]), "…", len(want), file=sys.stderr); sys.exit(1)
saved = open(labels.replace("labels-idx1", "images-idx3"), "rb").read()[16:]
if saved[:200 * 784] != imgs or saved[200 * 784:] != open(work + "/cli-images-idx3-ubyte", "rb").read()[16:]:
    print("sheetsui: the images saved are not the pair's then import-sheets'", file=sys.stderr); sys.exit(1)
sources = open(labels + ".sources.txt").read().split("\n")[:-1]
if len(sources) != 200 + n:
    print("sheetsui:", len(sources), "sources for", 200 + n, "samples", file=sys.stderr); sys.exit(1)
for k in range(n):
    m = re.fullmatch(r"scan-1-00([0-2])\.jpg row (\d+), column (\d+), writer (\d+)", sources[200 + k])
    # The layout: 10 rows × 12 columns, row r holds the digit r; the writer the sheet's number.
    if not m or int(m[2]) != got[200 + k] or not 0 <= int(m[3]) < 12 or int(m[4]) != int(m[1]) or int(m[4]) != writers[k]:
        print("sheetsui: sample", 200 + k, "label", got[200 + k], "source", repr(sources[200 + k]), "writer", writers[k], file=sys.stderr); sys.exit(1)
PY
echo "sheetsui: saved: 3 and 4 on samples 0 and 1, then import-sheets' $n samples (images byte for byte), each labelled by its box's row, its sheet, box and writer in the sources file"
quit_app || fail "Ctrl+Q after the save"
! grep -qi "panic" "$log" || fail "the window panicked"
echo "sheetsui: ok"
