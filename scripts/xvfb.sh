# Sourced by scripts that run the app in a real window: start_xvfb starts Xvfb on a free display
# (1400×900), exports DISPLAY, LANG and a temporary XDG_CONFIG_HOME, and stops it all on exit.
# WAIT_TENTHS bounds every wait below on the window (tenths of a second: 10 minutes). It only
# ends a script whose window hangs: the scripts wait on the window's state, never on the clock,
# so a loaded machine makes them slower, never makes them fail.
WAIT_TENTHS=${WAIT_TENTHS:-6000}

start_xvfb() {
  local n
  XVFB_CFG=$(mktemp -d)
  # -displayfd: Xvfb takes the first free display itself (its lock file made atomically) and
  # writes its number when ready, so two scripts started at once never share a display.
  Xvfb -displayfd 3 -screen 0 1400x900x24 -nolisten tcp 3>"$XVFB_CFG/display" >/dev/null 2>&1 &
  XVFB_PID=$!
  trap 'stop_xvfb' EXIT
  for _ in $(seq 100); do [ -s "$XVFB_CFG/display" ] && break; sleep 0.1; done
  n=$(tr -dc 0-9 <"$XVFB_CFG/display")
  [ -n "$n" ] || { echo "Xvfb did not start (no display number)" >&2; return 1; }
  XVFB_DISPLAY=":$n"
  export DISPLAY=$XVFB_DISPLAY LANG=en_US.UTF-8 XDG_CONFIG_HOME=$XVFB_CFG
  for _ in $(seq 50); do xdotool getmouselocation >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "Xvfb did not start" >&2
  return 1
}

# copy_t10k IMAGES copies the image file IMAGES and its label file (named as MNIST names its
# pairs) into $XVFB_CFG/data as t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz,
# writable, and sets work to that folder: the app edits the copy, never the shared files.
copy_t10k() {
  work=$XVFB_CFG/data
  mkdir -p "$work"
  cp "$1" "$work/t10k-images-idx3-ubyte.gz"
  cp "${1/images-idx3/labels-idx1}" "$work/t10k-labels-idx1-ubyte.gz"
  chmod u+w "$work"/*
}

# stop_xvfb ends the app (waiting up to 5 s for it to exit, then killing it, so that it writes
# nothing into the folder being removed), then Xvfb, and removes the temporary folder.
stop_xvfb() {
  if [ -n "${APP_PID:-}" ] && kill "$APP_PID" 2>/dev/null; then
    for _ in $(seq 50); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$APP_PID" 2>/dev/null || true
  fi
  [ -n "${XVFB_PID:-}" ] && kill "$XVFB_PID" 2>/dev/null || true
  [ -n "${XVFB_CFG:-}" ] && { rm -rf "$XVFB_CFG" || rm -rf "$XVFB_CFG" || true; }
  return 0
}

# end_app LOG sends the app (APP_PID) SIGTERM, as a person's kill does, and waits (up to
# WAIT_TENTHS) for it to exit. An app still running then is sent SIGQUIT, so that the Go runtime
# writes its goroutines' stacks into LOG; that log is kept at a printed path, the stack of the
# window's goroutine (goroutine 1) shown, and end_app returns 1: an app that does not end on
# SIGTERM is a fault to be named, never a test that waits for ever.
end_app() {
  local log=${1:-} kept
  [ -n "${APP_PID:-}" ] || return 0
  if kill "$APP_PID" 2>/dev/null; then
    for _ in $(seq "$WAIT_TENTHS"); do
      kill -0 "$APP_PID" 2>/dev/null || { wait "$APP_PID" 2>/dev/null || true; APP_PID=""; return 0; }
      sleep 0.1
    done
    kill -QUIT "$APP_PID" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$APP_PID" 2>/dev/null || true
    wait "$APP_PID" 2>/dev/null || true
    APP_PID=""
    echo "the app did not exit within $((WAIT_TENTHS / 10)) s of SIGTERM" >&2
    if [ -n "$log" ] && [ -f "$log" ]; then
      kept=$(mktemp "${TMPDIR:-/tmp}/app-sigterm-XXXXXX.log")
      cp "$log" "$kept"
      echo "its log, with its goroutines' stacks after SIGQUIT: $kept" >&2
      awk '/^goroutine 1 /{p=1} p{print; if (++n >= 40) exit}' "$kept" >&2
    fi
    return 1
  fi
  wait "$APP_PID" 2>/dev/null || true
  APP_PID=""
}

# wait_window waits (up to WAIT_TENTHS) for the app's window and prints its id.
wait_window() {
  timeout $((WAIT_TENTHS / 10)) xdotool search --sync --onlyvisible --name "IDX Labeler" | head -n 1
}

# open_draw presses Ctrl+D and waits (up to 20 s) for the draw window; it fails when none opens.
# It sets DRAW_WIN to the window's id and DRAW_X, DRAW_Y to its top left on the screen (it opens
# centred on the screen).
open_draw() {
  xdotool key --clearmodifiers ctrl+d
  DRAW_WIN=$(timeout 20 xdotool search --sync --onlyvisible --name "Draw digits" | head -n 1) || return 1
  [ -n "$DRAW_WIN" ] || return 1
  sleep 1
  local X Y WIDTH HEIGHT SCREEN WINDOW
  eval "$(xdotool getwindowgeometry --shell "$DRAW_WIN")"
  DRAW_X=$X DRAW_Y=$Y
}

# quit_app presses Ctrl+Q and waits (up to WAIT_TENTHS) for the app (APP_PID) to exit; it says why on
# stderr and returns 1 when the app does not quit (unsaved edits?) or exits with another status
# than 0.
quit_app() {
  xdotool key --clearmodifiers ctrl+q
  for _ in $(seq "$WAIT_TENTHS"); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$APP_PID" 2>/dev/null; then
    echo "the app did not quit on Ctrl+Q (unsaved edits?)" >&2
    return 1
  fi
  local status=0
  wait "$APP_PID" || status=$?
  APP_PID=""
  [ "$status" -eq 0 ] || { echo "the app exited with status $status" >&2; return 1; }
}

# until_state REGEX WHAT: waits (up to WAIT_TENTHS) until the window's state line (the file $state,
# written by the app run with IDXLABEL_TEST_STATE=$state: ui/testhooks.go) matches the extended
# REGEX; else it calls the script's fail with WHAT.
until_state() {
  for _ in $(seq "$WAIT_TENTHS"); do grep -Eq "$1" "$state" 2>/dev/null && return 0; sleep 0.1; done
  fail "$2 (the window's state never matched $1)"
}

# wait_round N [refined]: waits (up to 10 min, the networks' training on a loaded machine) for
# the Suggested list's dump ($list: the app run with IDXLABEL_TEST_SUGGEST=$list) of a round
# that learnt from N labels: its first suggestions or its refined ones, or with "refined" only
# the refined ones. Fails when the app ($APP_PID) has exited.
wait_round() {
  local want="^# learnt from $1 labels(, refining)?\$"
  [ "${2:-}" = refined ] && want="^# learnt from $1 labels\$"
  for _ in $(seq 3000); do
    [ -f "$list" ] && head -n 1 "$list" | grep -Eq "$want" && return 0
    kill -0 "$APP_PID" 2>/dev/null || fail "the app exited"
    sleep 0.2
  done
  fail "no round learnt from $1 labels within 10 minutes (the list's first line: $(head -n 1 "$list" 2>/dev/null))"
}

# ready WINDOW [REGEX]: waits (as until_state) until the window's state line ($state: the app run
# with IDXLABEL_TEST_STATE=$state) shows its cursor on a sample (or matches REGEX: for a dataset
# without samples), then gives WINDOW the keys (windowfocus --sync): the first keys and clicks
# meet a window that shows its dataset, however loaded the machine, where a sleep of a few
# seconds would not be enough under load. (The window shows "nothing open", cursor=-1, before
# its files are read.) It removes nothing: start the app after rm -f "$state" when an earlier run
# wrote the file.
ready() {
  until_state "${2:-cursor=[0-9]}" "the window never showed its dataset"
  xdotool windowfocus --sync "$1"
}

# wait_clean WINDOW: waits (up to WAIT_TENTHS) until WINDOW's title has lost its star (ui/state.go:
# nothing unsaved), so that a save is over and Ctrl+Q quits without asking; else it calls fail.
wait_clean() {
  for _ in $(seq "$WAIT_TENTHS"); do xdotool getwindowname "$1" | grep -q ' \*$' || return 0; sleep 0.1; done
  fail "the window still has unsaved edits (its title: $(xdotool getwindowname "$1"))"
}

# at_end WHAT [STATE]: waits (up to WAIT_TENTHS) until the state line (STATE, default $state) has its
# cursor on the last sample shown: End, typed after other keys, was handled, and so were they (a
# window handles its keys in order). Else it calls fail with WHAT.
at_end() {
  local line cursor shown file=${2:-$state}
  for _ in $(seq "$WAIT_TENTHS"); do
    line=$(cat "$file" 2>/dev/null || true)
    cursor=$(sed -n 's/.* cursor=\(-\{0,1\}[0-9]*\) .*/\1/p' <<<"$line")
    shown=$(sed -n 's/.* shown=\([0-9]*\) .*/\1/p' <<<"$line")
    [ -n "$cursor" ] && [ -n "$shown" ] && [ "$cursor" -eq $((shown - 1)) ] && return 0
    sleep 0.1
  done
  fail "$1: End was not handled (state: $line)"
}

# patch X Y: the mean grey level of the 60×8 pixels at X, Y on the screen.
patch() { xwd -root -silent | /usr/bin/convert xwd:- -crop 60x8+$(($1 - 30))+$(($2 - 4)) -colorspace gray -format "%[fx:mean]" info:; }
# menu MX IX IY: clicks the main window's menu bar at MX (the window at the screen's top left), waits (up to WAIT_TENTHS) until its popup is drawn (the
# screen at the item, IX IY, changed), clicks the item, and waits for the dialog it opens (the
# window's state line: a prompt on top).
menu() {
  local before
  before=$(patch "$2" "$3")
  xdotool mousemove "$1" 12 click 1
  for _ in $(seq $((WAIT_TENTHS / 5))); do [ "$(patch "$2" "$3")" != "$before" ] && break; sleep 0.5; done
  xdotool mousemove "$2" "$3" click 1
  until_state "prompt=[^-]" "the menu's item at $2,$3 opened no dialog"
}

# start_state ARGS…: starts the app ($bin) on ARGS with its state line in $state and its output
# appended to $log, sets APP_PID and MAIN (its window), and gives that window the keys once it
# shows its dataset (with no ARGS: the demo, whose cursor is on a sample).
start_state() {
  rm -f "$state"
  IDXLABEL_TEST_STATE=$state "$bin" "$@" >>"$log" 2>&1 &
  APP_PID=$!
  MAIN=$(wait_window) || fail "no window appeared"
  ready "$MAIN"
}

# loop_pair NAME SRC STEM [N] (after start_xvfb): the first N images (1,000 by default; all of
# them when SRC holds fewer) of MNIST's t10k file SRC (its label file beside it, MNIST's names)
# as images with no label file yet in $XVFB_CFG/data, for a labelling loop. Sets work (the
# folder), images (STEM-images-idx3-ubyte), labels (STEM-labels-idx1-ubyte, not written), truth
# (their true labels, one a line) and list (where the window dumps its Suggested list). Exits
# naming NAME when SRC has no label file beside it.
loop_pair() {
  local name=$1 src=$2 stem=$3 n=${4:-1000}
  local truth_src=${src/images-idx3/labels-idx1}
  [ -f "$truth_src" ] || { echo "$name: no label file beside $src ($truth_src)" >&2; exit 1; }
  work=$XVFB_CFG/data
  mkdir -p "$work"
  images=$work/$stem-images-idx3-ubyte
  labels=$work/$stem-labels-idx1-ubyte
  truth=$work/truth.txt
  list=$work/list.csv
  first_images "$src" "$truth_src" "$n" "$images" "$truth"
}

# first_images SRC TRUTH_SRC N IMAGES TRUTH: writes the first N images of the IDX image file SRC
# (gzip or not; all of them when it holds fewer) to IMAGES, ubyte and without a label file, and
# their labels in the label file TRUTH_SRC, one a line, to TRUTH: the truth a script types from
# (suggestloop.sh, acceptreopen.sh, scratchlabel.sh).
first_images() {
  python3 - "$@" <<'PY'
import gzip, struct, sys
src, tsrc, n, out, truth = sys.argv[1:]
n = int(n)
op = gzip.open if src.endswith(".gz") else open
with op(src, "rb") as f:
    magic, count, h, w = struct.unpack(">IIII", f.read(16))
    n = min(n, count)
    data = f.read(n * h * w)
with (gzip.open if tsrc.endswith(".gz") else open)(tsrc, "rb") as f:
    f.read(8)
    lab = f.read(n)
with open(out, "wb") as f:
    f.write(struct.pack(">IIII", 0x803, n, h, w) + data)
open(truth, "w").write("\n".join(map(str, lab)) + "\n")
PY
}

# pick_suggestion LIST: prints the class suggested most confidently in the Suggested list's
# dump LIST (IDXLABEL_TEST_SUGGEST) and the sample of its 25th suggestion (or its last), among
# the samples without a label that were not asked: "CLASS INDEX".
pick_suggestion() {
  python3 - "$1" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
sugg = [r for r in rows if r["asked"] == "0" and r["label"] == "-2147483648" and r["suggested"] != "-2147483648"]
c = sugg[0]["suggested"]
of = [r for r in sugg if r["suggested"] == c]
print(c, of[min(24, len(of) - 1)]["index"])
PY
}

# progress_cancel WINDOW: prints "X Y", the screen point at the middle of the Cancel button of a
# job's progress dialog shown in WINDOW, once its bar is filled past its middle (full when the
# job waits at a gate; adding.Start's dialog: centred on the window, its bar above its one
# button, which is centred at its foot), as the screen shows it now. Down the window's middle column from a quarter of its height: the first run of 8
# pixels or more of the bar's fill (Fyne's primary colour, colorBlue in theme/color.go), then
# the first such run of the theme's button colour (colorDarkButton or, with FYNE_THEME=light,
# colorLightButton), whose middle is that of its pixels within 60 (the label cuts them). Move the
# pointer off the dialog first: a button under it is drawn in its hover colour. Returns 1 when
# the screen shows no such bar and button (the frame with the dialog not drawn yet): call it
# again.
progress_cancel() {
  local X Y WIDTH HEIGHT SCREEN WINDOW button=28292e
  eval "$(xdotool getwindowgeometry --shell "$1")"
  [ "${FYNE_THEME:-}" != light ] || button=f5f5f5
  xwd -root -silent | /usr/bin/convert xwd:- ppm:- | python3 -c '
import re, sys
x, y, end = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
data = sys.stdin.buffer.read()
head = re.match(rb"P6\s*(?:#[^\n]*\n\s*)*(\d+)\s+(\d+)\s+255\s", data)  # (xwd adds a comment) then RGB pixels
w, px = int(head[1]), data[head.end():]
at = lambda y: px[3 * (y * w + x):3 * (y * w + x) + 3]
def run(want, y):  # the first row of the first run of 8 rows of colour want from y on
    n = 0
    for v in range(y, end):
        n = n + 1 if at(v) == want else 0
        if n == 8:
            return v - 7
    sys.exit(1)
bar = run(bytes.fromhex("296ff6"), y)
top = run(bytes.fromhex(sys.argv[4]), bar)
bottom = max(v for v in range(top, min(top + 60, end)) if at(v) == at(top))
print(x, (top + bottom) // 2)
' $((X + WIDTH / 2)) $((Y + HEIGHT / 4)) $((Y + HEIGHT)) "$button"
}

# find_progress_cancel WHAT: with a job's progress the prompt on top of the window MAIN, moves the
# pointer off the dialog (to the window's status bar) and waits (up to WAIT_TENTHS) until
# progress_cancel finds its Cancel button, setting PROGRESS_CANCEL_AT to its point ("X Y"): find
# it before a Tab focuses it (the focus changes its colour). It calls fail naming WHAT when the
# button never shows.
find_progress_cancel() {
  local pos="" X Y WIDTH HEIGHT SCREEN WINDOW
  eval "$(xdotool getwindowgeometry --shell "$MAIN")"
  xdotool mousemove $((X + 20)) $((Y + HEIGHT - 10))
  for _ in $(seq "$WAIT_TENTHS"); do pos=$(progress_cancel "$MAIN") && break; sleep 0.1; done
  [ -n "$pos" ] || fail "the $1's progress dialog (its bar full, its Cancel button) never showed"
  PROGRESS_CANCEL_AT=$pos
}

# click_progress_cancel WHAT [SHOT]: find_progress_cancel WHAT, then saves the screen to SHOT
# when given (a red ring marks the point) and clicks the button. It calls fail naming WHAT when
# the button never shows or the progress closed before the click.
click_progress_cancel() {
  find_progress_cancel "$1"
  local pos=$PROGRESS_CANCEL_AT
  if [ -n "${2:-}" ]; then
    xwd -root -silent | /usr/bin/convert xwd:- -fill none -stroke red -strokewidth 2 \
      -draw "circle ${pos/ /,} $((${pos% *} + 12)),${pos#* }" png:"$2"
  fi
  grep -q "prompt=progress " "$state" || fail "the $1's progress closed before its button was clicked"
  # shellcheck disable=SC2086 # pos is "X Y"
  xdotool mousemove $pos click 1
}

# save_keys FILE WHAT: presses Ctrl+S in the window MAIN and waits (up to WAIT_TENTHS) until FILE
# is replaced (its inode changes: a save renames a new file over it) and the window has nothing
# unsaved (wait_clean); it calls fail naming WHAT when FILE is not replaced.
save_keys() {
  local before
  before=$(stat -c %i "$1")
  xdotool key --clearmodifiers ctrl+s
  for _ in $(seq "$WAIT_TENTHS"); do [ "$(stat -c %i "$1")" != "$before" ] && break; sleep 0.1; done
  [ "$(stat -c %i "$1")" != "$before" ] || fail "Ctrl+S $2 did not save"
  wait_clean "$MAIN"
}

# journal_edits_in JOURNAL...: prints how many edit records the fullest of the journals holds
# (the records after its pair record, version 3 and later, and its base record; 0 when none is there). A
# link is not read.
journal_edits_in() {
  python3 - "$@" <<'PY'
import os, struct, sys
best = 0
for p in sys.argv[1:]:
    if not os.path.isfile(p) or os.path.islink(p):
        continue
    b = open(p, "rb").read()
    off, n = 8, 0
    while off + 8 <= len(b):
        size = struct.unpack("<I", b[off:off+4])[0]
        if off + 8 + size > len(b):
            break
        off += 8 + size
        n += 1
    first = 2 if b[:8] in (b"IDXLJRN3", b"IDXLJRN4") else 1  # the pair record (version 3 on) and the base are no edits
    best = max(best, n - first)
print(best)
PY
}

# plain_pair DIR N: writes DIR/p-images-idx3-ubyte (N 28×28 samples of a fixed pattern, grey
# levels (i·37 + i/784) mod 256) and DIR/p-labels-idx1-ubyte (sample k labelled k mod 10), and
# sets images and labels to them.
plain_pair() {
  python3 - "$1" "$2" <<'PY'
import struct, sys
d, n = sys.argv[1], int(sys.argv[2])
open(d + "/p-images-idx3-ubyte", "wb").write(struct.pack(">IIII", 0x803, n, 28, 28) + bytes((i * 37 + i // 784) % 256 for i in range(n * 784)))
open(d + "/p-labels-idx1-ubyte", "wb").write(struct.pack(">II", 0x801, n) + bytes(i % 10 for i in range(n)))
PY
  images=$1/p-images-idx3-ubyte
  labels=$1/p-labels-idx1-ubyte
}

# accepted_marks IMAGES LABELS I...: writes LABELS.idxlabel-accepted marking samples I...
# (ascending) as a window's save writes it (pairfile/accepted.go), keyed by the pair's contents
# (pairfile.KeyOf: the SHA-256 of the label array's dtype, rank, dimensions and data, i.e. the
# uncompressed label file after its first two bytes; the CRC-32C of the image data after its
# header).
accepted_marks() {
  python3 - "$@" <<'PY'
import hashlib, sys
images, labels, marks = sys.argv[1], sys.argv[2], [int(i) for i in sys.argv[3:]]
lab, img = open(labels, "rb").read(), open(images, "rb").read()
table = []
for b in range(256):
    c = b
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    table.append(c)
crc = 0xFFFFFFFF
for b in img[4 + 4 * img[3]:]:
    crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
n = int.from_bytes(lab[4:8], "big")
with open(labels + ".idxlabel-accepted", "w") as f:
    f.write("idxlabel accepted-marks 1\nsamples %d\nlabels sha256 %s\nimages crc32c %08x\nmarks %d\n"
            % (n, hashlib.sha256(lab[2:]).hexdigest(), crc ^ 0xFFFFFFFF, len(marks)))
    f.write("".join("%d\n" % i for i in marks))
PY
}
