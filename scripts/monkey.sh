#!/usr/bin/env bash
# Seeded random input ("monkey") in a real window: N keys and clicks chosen by a PRNG seeded with
# SEED (relabel digits, Delete, arrows with and without Shift, undo/redo, select all, zoom, page
# keys, Enter, Escape, Ctrl+S, the views of the CNN scan (Ctrl+K suspects, Ctrl+Shift+M the
# confusion matrix, Ctrl+M the map; the short scan of IDXLABEL_QUICK_CNN=1; Ctrl+Shift+U the
# labelling loop's Suggested view, its rounds in the background, Ctrl+Shift+A accepting many), clicks anywhere in
# the window, drags with and without Shift (the map's pan and lasso), some in bursts with no
# delay) on a copy of an IDX pair. The app must stay alive with no panic (nor, built with -race, a
# data race) in its log; at the end it saves (Ctrl+S), and the saved pair must pass
# `idxlabel verify`. On a failure it keeps the app's whole log at a path it prints, and prints the
# lines naming a Go crash's cause (fatal error, panic, the first goroutine's stack).
# With no IMAGES file (the real MNIST files absent) it runs on the demo dataset and skips the
# save and verify steps.
# Usage: scripts/monkey.sh BINARY [IMAGES] [SEED] [N]
set -euo pipefail
bin=$(realpath "$1")
images=${2:-}
seed=${3:-1}
n=${4:-300}

. "$(dirname "$0")/xvfb.sh"
start_xvfb
log=$XVFB_CFG/app.log
work=$XVFB_CFG/data
mkdir -p "$work"
args=()
if [ -n "$images" ] && [ -f "$images" ]; then
  labels=${images/images-idx3/labels-idx1}
  original_labels=$labels
  cp "$images" "$work/t10k-images-idx3-ubyte.gz"
  cp "$labels" "$work/t10k-labels-idx1-ubyte.gz"
  images=$work/t10k-images-idx3-ubyte.gz labels=$work/t10k-labels-idx1-ubyte.gz
  args=("$images" "$labels")
else
  echo "monkey: ${images:-no image file given} not found; running on the demo dataset"
  images=""
fi

# fail says why, keeps the app's whole log (the temporary folder goes on exit) at a path it prints,
# and shows the lines that name a crash's cause: a Go runtime's fatal error or panic, a race
# report (a -race binary), the first goroutine's stack (the crashing one), then the log's end.
fail() {
  echo "monkey: seed $seed: $*" >&2
  local keep
  keep=$(mktemp "${TMPDIR:-/tmp}/monkey-seed$seed-XXXXXX.log")
  cp "$log" "$keep" 2>/dev/null || true
  echo "monkey: seed $seed: the app's whole log ($(wc -l <"$keep") lines): $keep" >&2
  echo "--- its first lines naming a crash:" >&2
  grep -n -m 10 -E '^(fatal error|panic:|SIG[A-Z]+: |\[signal |unexpected (signal|fault)|runtime: )|concurrent map|WARNING: DATA RACE' "$keep" >&2 || true
  echo "--- its first goroutine:" >&2
  awk '/^goroutine [0-9]+ /{on=1} on{print; if (/^$/ || ++n == 60) exit}' "$keep" >&2
  echo "--- its last 40 lines:" >&2
  tail -40 "$keep" >&2
  exit 1
}
# alive fails when the app has exited (naming its exit status) or its log holds a panic or a data
# race report.
alive() {
  if ! kill -0 "$APP_PID" 2>/dev/null; then
    local status=0
    wait "$APP_PID" 2>/dev/null || status=$?
    APP_PID=""
    fail "the app died after $1 inputs (exit status $status)"
  fi
  ! grep -qi "panic" "$log" || fail "panic after $1 inputs"
  ! grep -q "DATA RACE" "$log" || fail "a data race after $1 inputs"
}

state=$XVFB_CFG/state
# GOTRACEBACK=all: a crash prints every goroutine, so one that raced the crashing one shows too.
GOTRACEBACK=all IDXLABEL_QUICK_CNN=1 IDXLABEL_TEST_STATE=$state "$bin" "${args[@]}" >"$log" 2>&1 &
APP_PID=$!
main=$(wait_window) || fail "no window appeared"
ready "$main" # the first frames: the window shows its cursor
eval "$(xdotool getwindowgeometry --shell "$main")"  # X, Y, WIDTH, HEIGHT

RANDOM=$seed
keys=(0 1 2 3 4 5 6 7 8 9 Delete Left Right Up Down shift+Right shift+Down ctrl+z ctrl+z ctrl+shift+z ctrl+a
  Escape Escape Return space ctrl+equal ctrl+minus Next Prior Home End ctrl+k ctrl+m ctrl+shift+m
  ctrl+shift+u ctrl+shift+a)
for ((k = 1; k <= n; k++)); do
  r=$((RANDOM % 100))
  if [ "$r" -lt 60 ]; then
    xdotool key --clearmodifiers "${keys[RANDOM % ${#keys[@]}]}"
  elif [ "$r" -lt 80 ]; then
    # A click in the window below its menu bar (the grid, the side panels, the status bar).
    xdotool mousemove $((X + RANDOM % WIDTH)) $((Y + 30 + RANDOM % (HEIGHT - 30))) click 1
  elif [ "$r" -lt 85 ]; then
    # A drag in the window, with Shift one time in two (on the map: a pan, or a lasso).
    mod=(); [ $((RANDOM % 2)) -eq 0 ] && mod=(keydown shift)
    xdotool mousemove $((X + RANDOM % WIDTH)) $((Y + 30 + RANDOM % (HEIGHT - 30))) "${mod[@]}" mousedown 1 \
      mousemove $((X + RANDOM % WIDTH)) $((Y + 30 + RANDOM % (HEIGHT - 30))) \
      mousemove $((X + RANDOM % WIDTH)) $((Y + 30 + RANDOM % (HEIGHT - 30))) mouseup 1
    xdotool keyup shift
  elif [ "$r" -lt 95 ]; then
    burst=()
    for _ in 1 2 3 4 5 6; do burst+=("${keys[RANDOM % ${#keys[@]}]}"); done
    xdotool key --delay 0 "${burst[@]}"
  else
    xdotool key --clearmodifiers ctrl+s
  fi
  sleep 0.03
  [ $((k % 25)) -ne 0 ] || alive "$k"
done
alive "$n"
echo "monkey: seed $seed: $n inputs, no crash"

if [ -n "$images" ]; then
  for _ in 1 2 3 4; do xdotool key --clearmodifiers Escape; sleep 0.2; done
  xdotool windowfocus "$main"
  xdotool key --clearmodifiers ctrl+s
  sleep 4 # a save of t10k takes well under a second; dialogs and a scan may be finishing
  alive "the save"
  out=$("$bin" verify "$images" "$labels") || fail "the saved pair does not verify: $out"
  echo "monkey: seed $seed: the saved pair verifies: $out"
  changed=$( { "$bin" diff "$original_labels" "$labels" 2>/dev/null || true; } | tail -n +2 | wc -l)
  echo "monkey: seed $seed: $changed rows of idxlabel diff against the labels as opened"
fi
kill "$APP_PID" 2>/dev/null || true
wait "$APP_PID" 2>/dev/null || true
APP_PID=""
