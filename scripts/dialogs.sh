#!/usr/bin/env bash
# Real-window regression tests for keys that did nothing or opened the wrong dialog:
#  1. F1 and ? open the keyboard reference, Escape closes it.
#  2. A second window on a pair open for editing (read-only): a fast burst of digits, Delete,
#     Ctrl+Z and a letter opens no dialog and changes no file; before, the first digit opened a
#     modal error.
# Each window's state line (IDXLABEL_TEST_STATE: its prompt on top, its cursor) says when a dialog
# is open and when keys were handled: the script waits on it, not on the clock.
#  4. Save As into a folder that does not exist, all by keys: Ctrl+Shift+S, Tab to the folder
#     field, type the new folder, Enter (it did nothing in a field), Enter again to create the
#     folder: the pair is saved there.
#  3. Questions answer Escape and Enter the same with one of their buttons focused by Tab (their
#     buttons pass the keys they do not use on to the window): Save As with its Save button
#     focused (Shift+Tab) closes on Escape, with its Cancel focused Enter presses Cancel; the
#     question "Create the folder?" with No focused (Tab) answers Enter with No, with Yes focused
#     (Tab Tab) answers Escape with No: nothing saved, no folder made. An error (Export to the
#     pair's own label file) with its OK focused closes on Escape, the keyboard reference (F1)
#     with its Close focused on Enter. Before, a focused widget.Button took Escape and Enter and
#     dropped them: the dialog stayed open.
#  5. Drop-downs, check boxes and radio buttons focused by Tab in Export, Save As and New
#     Dataset answer Escape (cancel) and Enter (Export) as the dialog's buttons do (below).
#  6. The class picker's and the file chooser's lists focused by Tab answer Escape; Enter
#     picks the class, opens the file (below).
#  7. A folder opened by Space or Enter from the file chooser's list keeps the keys on the list,
#     on the folder's first row (below).
#  8. The file chooser's list, walked down, then given another folder in the path field, takes
#     its keys from that folder's first row (below).
# Each window must quit cleanly with Ctrl+Q.
# DIALOGS_SHOTS=/tmp/d writes screenshots /tmp/d-*.png of the questions (FYNE_THEME=light for the
# light theme).
# Usage: scripts/dialogs.sh BINARY
set -euo pipefail
bin=$(realpath "$1")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
state=$XVFB_CFG/state
state2=$XVFB_CFG/state.2
work=$XVFB_CFG/data
mkdir -p "$work"
images=$work/pair-images-idx3-ubyte
labels=$work/pair-labels-idx1-ubyte
python3 - "$images" "$labels" <<'PY'
import struct, sys
n = 200
open(sys.argv[1], "wb").write(struct.pack(">IIII", 0x803, n, 28, 28) + bytes((i * 37 + i // 784) % 256 for i in range(n * 784)))
open(sys.argv[2], "wb").write(struct.pack(">II", 0x801, n) + bytes(i % 10 for i in range(n)))
PY

ro=""
fail() {
  xwd -root -silent | /usr/bin/convert xwd:- png:/tmp/dialogs-fail.png 2>/dev/null || true
  [ -z "$ro" ] || kill "$ro" 2>/dev/null || true
  echo "dialogs: $* (screenshot /tmp/dialogs-fail.png)" >&2; cat "$log" "$log.2" 2>/dev/null >&2; exit 1
}

# quits PID NAME: waits up to 15 s for the app PID to exit cleanly after Ctrl+Q.
quits() {
  for _ in $(seq 150); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$1" 2>/dev/null && fail "$2: still running after Ctrl+Q"
  local status=0
  wait "$1" || status=$?
  [ "$status" -eq 0 ] || fail "$2: exited with status $status"
}

IDXLABEL_TEST_STATE=$state "$bin" "$images" "$labels" >"$log" 2>&1 &
APP_PID=$!
first=$(wait_window) || fail "no window appeared"
ready "$first"

# 1. F1 and ?.
for k in F1 question; do
  xdotool key --clearmodifiers "$k"
  until_state "prompt=[^-]" "$k opened no dialog"
  xdotool key --clearmodifiers Escape
  until_state "prompt=- " "Escape did not close the keyboard reference opened by $k"
done
echo "dialogs: F1 and ? open the keyboard reference"

# 2. A read-only window and a burst of edit keys.
sum=$(md5sum "$images" "$labels")
IDXLABEL_TEST_STATE=$state2 "$bin" "$images" "$labels" >"$log.2" 2>&1 &
ro=$!
for _ in $(seq 100); do
  second=$(xdotool search --onlyvisible --name "IDX Labeler" 2>/dev/null | grep -vx "$first" | head -n 1 || true)
  [ -n "$second" ] && break
  sleep 0.2
done
[ -n "$second" ] || fail "no second window"
state=$state2 until_state "prompt=[^-]" "the second window did not ask whether to open the pair read-only"
xdotool windowfocus --sync "$second"
xdotool key --clearmodifiers Return # Open read-only? Yes
for _ in $(seq 300); do xdotool getwindowname "$second" | grep -q "read-only" && break; sleep 0.2; done
xdotool getwindowname "$second" | grep -q "read-only" || fail "the second window is not read-only: $(xdotool getwindowname "$second")"
state=$state2 until_state "cursor=0 .* prompt=- " "the read-only window's question did not close"
xdotool key --delay 0 --clearmodifiers 5 6 7 Delete ctrl+z 8 9 a 3 BackSpace 2
xdotool key --clearmodifiers End # handled after the burst: the burst is over when it is
at_end "the read-only window's burst" "$state2"
grep -q " prompt=- " "$state2" || fail "a key in the read-only window opened a dialog: $(cat "$state2")"
[ "$(md5sum "$images" "$labels")" = "$sum" ] || fail "the read-only window changed the files"
xdotool key --clearmodifiers ctrl+q
quits "$ro" "the read-only window"
ro=""
echo "dialogs: the read-only window took a burst of edit keys without a dialog"

# 3. Questions with a button focused.
shots=${DIALOGS_SHOTS:-}
# shot NAME: a screenshot to $DIALOGS_SHOTS-NAME.png when that is set (once the frame is drawn).
shot() { [ -z "$shots" ] || { sleep 1; xwd -root -silent | /usr/bin/convert xwd:- png:"$shots-$1.png"; }; }
xdotool windowfocus --sync "$first"
files=$(ls "$work")
# focused_key WHAT OPEN TABS KEY: OPEN (a function) opens a question, TABS (key names) focus one of
# its buttons, KEY is typed on it: the question must close (the state line's prompt "-").
focused_key() {
  "$2"
  # shellcheck disable=SC2086 # TABS is a list of key names
  xdotool key --clearmodifiers $3
  shot "$(tr ' ' _ <<<"$1")"
  xdotool key --clearmodifiers "$4"
  until_state "prompt=- " "$4 on $1 did nothing: the question is still open"
}
save_as() {
  xdotool key --clearmodifiers ctrl+shift+s
  until_state "prompt=save_as " "Ctrl+Shift+S opened no Save As dialog"
}
new_folder() {
  save_as
  xdotool key --clearmodifiers Tab ctrl+a
  xdotool type --delay 20 "$work/asked/folder"
  xdotool key --clearmodifiers Return
  until_state "prompt=question " "Save As into a new folder did not ask to create it"
}
focused_key "Save As with Save focused" save_as shift+Tab Escape
focused_key "Save As with Cancel focused" save_as "shift+Tab shift+Tab" Return
focused_key "Create the folder with No focused" new_folder Tab Return
focused_key "Create the folder with Yes focused" new_folder "Tab Tab" Escape
export_error() {
  xdotool key --clearmodifiers ctrl+shift+e
  until_state "prompt=export " "Ctrl+Shift+E opened no Export dialog"
  xdotool key --clearmodifiers Tab Tab Tab ctrl+a # the target's field
  xdotool type --delay 20 "$labels"
  xdotool key --clearmodifiers Return
  until_state "prompt=error:_cannot_export_there" "an export to the pair's own label file was not refused"
}
keys() {
  xdotool key --clearmodifiers F1
  until_state "prompt=keys " "F1 did not open the keyboard reference"
}
focused_key "an error with OK focused" export_error Tab Escape
focused_key "the keyboard reference with Close focused" keys Tab Return
[ ! -e "$work/asked" ] || fail "a question answered no (Escape, or Enter on No) made the folder $work/asked"
[ "$(ls "$work")" = "$files" ] || fail "a question answered no wrote files: $(ls "$work")"
echo "dialogs: questions answered Escape and Enter with a button focused (Save As, Create the folder?, an error, the keyboard reference)"

# 4. Save As into a new folder, by keys.
xdotool windowfocus --sync "$first"
xdotool key --clearmodifiers ctrl+shift+s
until_state "prompt=[^-]" "Ctrl+Shift+S opened no dialog"
xdotool key --clearmodifiers Tab ctrl+a
xdotool type --delay 20 "$work/new/folder"
xdotool key --clearmodifiers Return
until_state "prompt=question " "Save As into a new folder did not ask to create it"
xdotool key --clearmodifiers Return # Create the folder? Yes
for _ in $(seq "$WAIT_TENTHS"); do [ -f "$work/new/folder/pair-labels-idx1-ubyte" ] && break; sleep 0.1; done
[ -f "$work/new/folder/pair-images-idx3-ubyte" ] && [ -f "$work/new/folder/pair-labels-idx1-ubyte" ] || fail "Save As wrote no pair into the new folder"
cmp -s "$labels" "$work/new/folder/pair-labels-idx1-ubyte" || fail "the label file saved differs"
wait_clean "$first"
echo "dialogs: Save As created the new folder and saved there"

# 5. Drop-downs, check boxes and radio buttons focused in a dialog answer Escape and Enter as
# the dialog's buttons do (widgets.DialogSelect, PassingCheck, PassingRadioGroup keep only the
# keys that operate them): Escape cancels Export with its format list focused (Tab, Right,
# Left: the arrows still step through it) or its check box focused (Tab Tab, Space still
# toggles it), Save As with its check box or its format list focused, New Dataset with a radio
# button focused (Space still chooses it); Enter exports with Export's format list focused (CSV
# chosen by Right) and with its check box focused. Before, a focused widget.Select, widget.Check
# or radio button took Escape and Enter and dropped them: the dialog stayed open.
export_open() {
  xdotool key --clearmodifiers ctrl+shift+e
  until_state "prompt=export " "Ctrl+Shift+E opened no Export dialog"
}
new_dataset() {
  xdotool key --clearmodifiers ctrl+n
  until_state "prompt=new_dataset " "Ctrl+N opened no New Dataset dialog"
}
files=$(ls -R "$work")
focused_key "Export with its format list focused" export_open "Tab Right Left" Escape
focused_key "Export with its check box focused" export_open "Tab Tab space" Escape
focused_key "Save As with its check box focused" save_as "Tab Tab Tab Tab" Escape
focused_key "Save As with its format list focused" save_as "Tab Tab Tab Tab Tab Tab Right" Escape
focused_key "New Dataset with a radio button focused" new_dataset "Tab Tab Tab Tab space" Escape
now=$(ls -R "$work")
[ "$now" = "$files" ] || fail "a dialog cancelled by Escape on a focused control wrote files: $(diff <(echo "$files") <(echo "$now") | tr '\n' ' ')"
# exported_by WHAT KEYS: Export opened, KEYS typed (the last one Return), the export must end
# with its message, which Escape closes.
exported_by() {
  export_open
  # shellcheck disable=SC2086 # KEYS is a list of key names
  xdotool key --delay 100 --clearmodifiers $2
  until_state "prompt=exported " "Enter on $1 did not export (the dialog stayed open?)"
  xdotool key --clearmodifiers Escape
  until_state "prompt=- " "Escape did not close the export's message"
}
exported_by "Export's format list (CSV chosen by Right)" "Tab Right Return"
[ -n "$(find "$work" -name 'pair-export.csv')" ] || fail "Enter on Export's format list wrote no pair-export.csv"
exported_by "Export's check box (checked by Space)" "Tab Tab space Return"
[ -n "$(find "$work" -type d -name 'pair-export')" ] || fail "Enter on Export's check box wrote no pair-export folder"
echo "dialogs: drop-downs, check boxes and radio buttons focused in Export, Save As and New Dataset answered Escape and Enter"

# 6. Lists focused by Tab in a dialog answer Escape (cancel) as the dialog's buttons do, and
# Enter does what a person expects of the list (widgets.PassingList): the class picker
# (Ctrl+L) with its list focused (Shift+Tab from its field) closes on Escape, and Enter picks
# the class of the row focused (Down Down: class 2); the file chooser (Ctrl+O) with its list
# focused (Shift+Tab Shift+Tab from its path field, over "Show every file") closes on Escape,
# and Enter on a file's row opens it. Before, a focused widget.List dropped Escape and Enter:
# the dialog stayed open.
pick_class() {
  xdotool key --clearmodifiers ctrl+l
  until_state "prompt=pick_class " "Ctrl+L opened no class picker"
}
choose_open() {
  xdotool key --clearmodifiers ctrl+o
  until_state "prompt=choose_open " "Ctrl+O opened no file chooser"
}
files=$(ls -R "$work")
focused_key "the class picker with its list focused" pick_class shift+Tab Escape
focused_key "the file chooser with its list focused" choose_open "shift+Tab shift+Tab" Escape
[ "$(ls -R "$work")" = "$files" ] || fail "a list's dialog cancelled by Escape wrote files"
python3 - "$work/lists" <<'PY'
import os, struct, sys
os.makedirs(sys.argv[1])
open(sys.argv[1] + "/b-images-idx3-ubyte", "wb").write(struct.pack(">IIII", 0x803, 3, 28, 28) + bytes(range(256)) * 9 + bytes(3 * 784 - 256 * 9))
open(sys.argv[1] + "/b-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, 3) + bytes([0, 1, 2]))
PY
choose_open
xdotool key --clearmodifiers ctrl+a
xdotool type --delay 20 "$work/lists/"
# The rows: ../, b-images-idx3-ubyte, b-labels-idx1-ubyte.
xdotool key --delay 100 --clearmodifiers shift+Tab shift+Tab Down Return
until_state "samples=3 dataset=b-labels-idx1-ubyte .*prompt=- " "Enter on a file's row in the file chooser's focused list did not open it"
before=$(stat -c %i "$work/lists/b-labels-idx1-ubyte")
pick_class
xdotool key --delay 100 --clearmodifiers shift+Tab Down Down Return
until_state "prompt=- " "Enter on the class picker's focused list did not pick a class"
xdotool key --clearmodifiers ctrl+s
for _ in $(seq "$WAIT_TENTHS"); do [ "$(stat -c %i "$work/lists/b-labels-idx1-ubyte")" != "$before" ] && break; sleep 0.1; done
python3 - "$work/lists/b-labels-idx1-ubyte" <<'PY' || fail "Enter on the class picker's list (Down Down) did not relabel sample 0 as 2"
import sys
got = open(sys.argv[1], "rb").read()[8:]
if got != bytes([2, 1, 2]):
    print("dialogs: labels saved", list(got), "want [2, 1, 2]", file=sys.stderr)
    sys.exit(1)
PY
wait_clean "$first"
echo "dialogs: lists focused in the class picker and the file chooser answered Escape; Enter picked the class and opened the file"

# 7. A folder opened from the file chooser's focused list keeps the keys on the list, on the
# opened folder's first row: in nav/ (rows ../, a/, b/, c/) Down Down Down Space opens c/, Down
# Return opens c/x/ (rows ../, x/), Down Down Return opens the label file there (rows ../, the
# image file, the label file). Before, each folder opened gave the keys to the path field, where
# Down did nothing and Return opened the folder typed there again: nothing was opened.
python3 - "$work/nav" <<'PY'
import os, struct, sys
for d in ("a", "b", "c/x"):
    os.makedirs(os.path.join(sys.argv[1], d))
x = os.path.join(sys.argv[1], "c", "x")
open(x + "/n-images-idx3-ubyte", "wb").write(struct.pack(">IIII", 0x803, 4, 28, 28) + bytes(4 * 784))
open(x + "/n-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, 4) + bytes([0, 1, 2, 3]))
PY
choose_open
xdotool key --clearmodifiers ctrl+a
xdotool type --delay 20 "$work/nav/"
xdotool key --delay 100 --clearmodifiers shift+Tab shift+Tab Down Down Down space Down Return Down Down Return
until_state "samples=4 dataset=n-labels-idx1-ubyte .*prompt=- " "folders opened by Space and Enter in the file chooser's list did not keep the keys on the list (Down Down Return in c/x/ opened no file)"
shot chooser-list-kept
echo "dialogs: folders opened from the file chooser's list by Space and Enter kept the keys on the list, on the first row"

# 8. The keys on the file chooser's list act on the rows of the folder typed in the path field
# since: in nav/ Down Down Down puts the list's row on c/ (its fourth row), Tab Tab gives the keys
# back to the path field, where nav/b/ is typed (rows ../, the image file, the label file), and
# on the list again Down Down Return opens the label file. Before, the list's row stayed the
# fourth, beyond b/'s last: Down and Return did nothing and no file was opened.
python3 - "$work/nav/b" <<'PY'
import struct, sys
open(sys.argv[1] + "/m-images-idx3-ubyte", "wb").write(struct.pack(">IIII", 0x803, 5, 28, 28) + bytes(5 * 784))
open(sys.argv[1] + "/m-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, 5) + bytes([0, 1, 2, 3, 4]))
PY
choose_open
xdotool key --clearmodifiers ctrl+a
xdotool type --delay 20 "$work/nav/"
xdotool key --delay 100 --clearmodifiers shift+Tab shift+Tab Down Down Down Tab Tab ctrl+a
xdotool type --delay 20 "$work/nav/b/"
xdotool key --delay 100 --clearmodifiers shift+Tab shift+Tab
shot chooser-row-typed
xdotool key --delay 100 --clearmodifiers Down Down Return
until_state "samples=5 dataset=m-labels-idx1-ubyte .*prompt=- " "the file chooser's list walked down, then given nav/b/ in the path field, did not open b/'s label file on Down Down Return"
echo "dialogs: the file chooser's list took its keys from the first row of the folder typed in the path field"

xdotool key --clearmodifiers ctrl+q
quits "$APP_PID" "the first window"
APP_PID=""
! grep -qi "panic" "$log" "$log.2" || fail "a window panicked"
echo "dialogs: ok"
