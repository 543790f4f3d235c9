#!/usr/bin/env bash
# Real-window regression test: a pair opened in a folder that cannot be written says so at once
# (pairfile.UnwritableNotice, shown as File → Open shows its other notices: a note on top), and
# the keys typed right after it are all kept. The t10k pair is copied into a folder that is then
# mounted read-only over itself, in a mount namespace of this script's own (unshare -m: as root,
# changing the folder's mode is not enough; the mount is seen by this script alone and goes with
# it). Opened, a note must be on top before any key; Enter closes it and "5 7 3", typed in the
# same breath, must relabel samples 0–2 (the cursor then on sample 3), with no file created in
# the folder and the three edits in the per-user journal ($XDG_CONFIG_HOME/idxlabel/journals:
# its records counted). Ctrl+S must then be refused with a dialog, not save. The app is killed
# (SIGKILL) and opened again: it must offer the three edits (the recovery question).
# Every wait is on the window's state line (IDXLABEL_TEST_STATE), never on time alone.
# With READONLYOPEN_LOCKS_LEFT=1, lock files are left beside the pair before the folder is made
# read-only (the locks are then taken there without writing): the note must say the same.
# Screenshots: /tmp/readonlyopen-*.png (FYNE_THEME=light or dark to choose the theme).
# Usage: scripts/readonlyopen.sh BINARY T10K_IMAGES (its labels beside it, MNIST's names)
set -euo pipefail
if [ -z "${READONLYOPEN_NS:-}" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    # Without root, a folder of mode 0555 cannot be written: no mount is needed.
    export READONLYOPEN_NS=chmod
  else
    export READONLYOPEN_NS=mount
    exec unshare -m --propagation private "$0" "$@"
  fi
fi
bin=$(realpath "$1")
src=$(realpath "$2")
. "$(dirname "$0")/xvfb.sh"
start_xvfb
copy_t10k "$src"
images=$work/t10k-images-idx3-ubyte.gz
labels=$work/t10k-labels-idx1-ubyte.gz
state=$XVFB_CFG/state
log=$XVFB_CFG/app.log
journals=$XDG_CONFIG_HOME/idxlabel/journals

shot() { xwd -root -silent | /usr/bin/convert xwd:- "png:/tmp/readonlyopen-$1.png" || true; }
fail() { shot fail; echo "readonlyopen: $*; screenshot /tmp/readonlyopen-fail.png" >&2; cat "$log" >&2; exit 1; }

if [ "${READONLYOPEN_LOCKS_LEFT:-}" = 1 ]; then
  : >"$images.idxlabel-lock"
  : >"$labels.idxlabel-lock"
fi
if [ "$READONLYOPEN_NS" = mount ]; then
  mount --bind "$work" "$work"
  mount -o remount,bind,ro "$work"
  # The app first (it holds files there), then the mount, then the rest (stop_xvfb removes the
  # folder, which it could not while mounted read-only).
  cleanup() {
    if [ -n "${APP_PID:-}" ]; then
      kill -9 "$APP_PID" 2>/dev/null || true
      wait "$APP_PID" 2>/dev/null || true
      APP_PID=""
    fi
    umount "$work" 2>/dev/null || true
    stop_xvfb
  }
  trap cleanup EXIT
else
  chmod 0555 "$work"
  trap 'stop_xvfb_ro' EXIT
  stop_xvfb_ro() { chmod 0755 "$work" 2>/dev/null || true; stop_xvfb; }
fi
touch "$work/probe" 2>/dev/null && fail "the folder $work can still be written"
before=$(ls -A "$work")

# journal_edits: the edit records of the one journal in the per-user folder (its records, less
# the pair and base records: pairfile/journal's framing, u32 length and u32 CRC-32C, little-endian).
journal_edits() {
  python3 - "$journals" <<'PY'
import glob, struct, sys
files = glob.glob(sys.argv[1] + "/*t10k-labels-idx1-ubyte.gz.idxlabel-journal")
if len(files) != 1:
    print("journals:", files); sys.exit(0)
b = open(files[0], "rb").read()
at, n = 8, 0
while at + 8 <= len(b):
    size = struct.unpack_from("<I", b, at)[0]
    if at + 8 + size > len(b):
        break
    at, n = at + 8 + size, n + 1
print(n - 2)
PY
}

start() {
  rm -f "$state"
  IDXLABEL_TEST_STATE=$state "$bin" "$images" >>"$log" 2>&1 &
  APP_PID=$!
  MAIN=$(wait_window) || fail "no window appeared"
  xdotool windowactivate --sync "$MAIN" >/dev/null 2>&1 || true
  until_state "cursor=0 .*dataset=t10k-labels-idx1-ubyte.gz" "the window never showed the pair"
}

start
until_state "prompt=question" "no note on top after opening the pair in a folder that cannot be written"
shot note
xdotool windowfocus --sync "$MAIN"
xdotool key --clearmodifiers Return 5 7 3
until_state "cursor=3 .*prompt=- " "Enter then 5 7 3: the cursor is not on sample 3 with no prompt on top: $(cat "$state")"
shot typed
[ "$(journal_edits)" = 3 ] || fail "the per-user journal holds $(journal_edits) edits, not the 3 typed"
[ "$(ls -A "$work")" = "$before" ] || fail "something was written in the read-only folder: $(ls -A "$work")"
echo "readonlyopen: a note on top at open; Enter, 5 7 3 made 3 edits, in the per-user journal"
xdotool key --clearmodifiers ctrl+s
until_state "prompt=error" "Ctrl+S in a folder that cannot be written showed no error"
shot save-refused
kill -9 "$APP_PID"
wait "$APP_PID" 2>/dev/null || true
APP_PID=""
start
until_state "prompt=recovery" "reopened after a kill, the window does not offer the 3 edits"
shot recovery
grep -qi "panic\|fatal" "$log" && fail "the app logged a panic"
echo "readonlyopen: ok (the note at open; the keys typed right after it all journaled in the per-user folder; Save refused; the edits offered after a kill)"
