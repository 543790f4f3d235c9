#!/usr/bin/env bash
# Real-window smoke test: runs the built app under Xvfb on a real IDX pair, waits for its window,
# takes a screenshot, checks that it is not blank and that the title names the files, then quits
# with Ctrl+Q and checks a clean exit.
# With no IMAGES file (the real MNIST files absent) it runs on the demo dataset instead.
# Usage: scripts/smoke.sh BINARY [IMAGES] [SCREENSHOT.png]
set -euo pipefail
bin=$1
images=${2:-}
shot=${3:-}
args=("$images")
expect="*labels*"
if [ -z "$images" ] || [ ! -f "$images" ]; then
  echo "smoke: ${images:-no image file given} not found; running on the demo dataset"
  args=()
  expect="*demo*"
fi

. "$(dirname "$0")/xvfb.sh"
start_xvfb
cfg=$XVFB_CFG
if [ ${#args[@]} -gt 0 ]; then
  # A copy: the app takes a lock and may write a journal beside the files it edits.
  cp "$images" "${images/images-idx3/labels-idx1}" "$cfg/"
  args=("$cfg/$(basename "$images")")
fi
[ -n "$shot" ] || shot=$cfg/screenshot.png

state=$cfg/state
fail() { echo "smoke: $*" >&2; cat "$cfg/app.log" >&2; exit 1; }
IDXLABEL_TEST_STATE=$state "$bin" "${args[@]}" >"$cfg/app.log" 2>&1 &
APP_PID=$!
wid=$(wait_window) || fail "no window appeared"
ready "$wid" # the first frames: the window shows its cursor
title=$(xdotool getwindowname "$wid")
# shellcheck disable=SC2254
case "$title" in
  $expect) ;;
  *) echo "smoke: window title '$title' does not match $expect" >&2; exit 1 ;;
esac

# The screenshot, taken again (up to 60 s) until the window's frame is painted: not blank.
for _ in $(seq 120); do
  xwd -root -silent | /usr/bin/convert xwd:- png:"$shot"
  sd=$(/usr/bin/convert "$shot" -format "%[fx:standard_deviation]" info:)
  colors=$(/usr/bin/convert "$shot" -format "%k" info:)
  awk -v sd="$sd" -v k="$colors" 'BEGIN { exit !(sd > 0.05 && k > 16) }' && break
  sleep 0.5
done
echo "smoke: window '$title', screenshot $shot: $colors colours, standard deviation $sd"
awk -v sd="$sd" -v k="$colors" 'BEGIN { exit !(sd > 0.05 && k > 16) }' || { echo "smoke: the screenshot is blank" >&2; exit 1; }

xdotool mousemove 600 400
xdotool key --clearmodifiers ctrl+q
for _ in $(seq 100); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$APP_PID" 2>/dev/null; then echo "smoke: the app did not quit on Ctrl+Q" >&2; exit 1; fi
status=0
wait "$APP_PID" || status=$?
APP_PID=""
[ "$status" -eq 0 ] || { echo "smoke: the app exited with status $status" >&2; cat "$cfg/app.log" >&2; exit 1; }
if grep -qi "panic\|fatal" "$cfg/app.log"; then cat "$cfg/app.log" >&2; exit 1; fi
echo "smoke: ok (quit cleanly)"
