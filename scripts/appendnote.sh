#!/usr/bin/env bash
# Real-window test of File → Append Dataset… telling what opening the appended pair found, as
# File → Open tells it. Pair B's accepted-marks file lists samples 0, 7, 20 and 41: appended to
# pair A, the status bar says 4 of them are accepted suggestions, with no note. Undone (Ctrl+Z), B's marks file is then damaged and B
# appended again: its samples come without the marks, and a note must be on top naming the
# marks file (before, nothing said why the accepted suggestions now count as typed labels). Run
# in the dark and the light theme; every wait is on the window's state line
# (IDXLABEL_TEST_STATE), never on time alone. Screenshots: /tmp/appendnote-THEME-*.png.
# Usage: scripts/appendnote.sh BINARY
set -euo pipefail
bin=$(realpath "$1")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
work=$XVFB_CFG/data
state=$XVFB_CFG/state
mkdir -p "$work"
python3 - "$work" <<'PY'
import struct, sys
def pair(base, n, off):
    open(base + "-images-idx3-ubyte", "wb").write(struct.pack(">IIII", 0x803, n, 28, 28) + bytes((i * 37 + i // 784 + off) % 256 for i in range(n * 784)))
    open(base + "-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, n) + bytes((i + off) % 10 for i in range(n)))
pair(sys.argv[1] + "/a", 200, 0)
pair(sys.argv[1] + "/b", 50, 3)
PY
marks=$work/b-labels-idx1-ubyte.idxlabel-accepted
theme=
shot() { xwd -root -silent | /usr/bin/convert xwd:- "png:/tmp/appendnote-$theme-$1.png" 2>/dev/null || true; }
fail() { shot fail; echo "appendnote ($theme): $* (screenshot /tmp/appendnote-$theme-fail.png)" >&2; cat "$log" >&2; exit 1; }

# append_b: File → Append Dataset… (the File menu's seventh item) with B's image file typed.
append_b() {
  menu 20 100 279
  xdotool key --clearmodifiers ctrl+a
  xdotool type --delay 5 "$work/b-images-idx3-ubyte"
  xdotool key --clearmodifiers Return
}

for theme in dark light; do
  accepted_marks "$work"/b-images-idx3-ubyte "$work"/b-labels-idx1-ubyte 0 7 20 41
  rm -f "$state"
  FYNE_THEME=$theme IDXLABEL_TEST_STATE=$state "$bin" "$work/a-images-idx3-ubyte" "$work/a-labels-idx1-ubyte" >>"$log" 2>&1 &
  APP_PID=$!
  main=$(wait_window) || fail "no window appeared"
  ready "$main"
  append_b
  until_state "status=Appended_50_samples_from_b-images-idx3-ubyte,_4_of_them_accepted_suggestions" "the status bar does not say that 50 samples were appended, 4 of them accepted suggestions"
  grep -q " prompt=- " "$state" || fail "a prompt is open after appending a pair whose marks fit: $(cat "$state")"
  shot appended
  xdotool key --clearmodifiers ctrl+z
  wait_clean "$main"

  printf 'damaged\n' >"$marks"
  append_b
  until_state "prompt=question" "no note on top after appending a pair whose marks file is damaged"
  until_state "status=Appended_50_samples_from_b-images-idx3-ubyte_" "the status bar does not say that 50 samples were appended"
  shot note
  xdotool key --clearmodifiers Return
  until_state "prompt=- " "Enter did not close the note"
  xdotool key --clearmodifiers ctrl+z
  wait_clean "$main"
  quit_app || fail "the app did not quit cleanly"
done
grep -qi "panic\|fatal" "$log" && fail "the app logged a panic"
echo "appendnote: ok (marks that fit: 4 accepted, no note; a damaged marks file: a note on top, in both themes)"
