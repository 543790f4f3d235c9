#!/usr/bin/env bash
# Real-window smoke test: runs the built app under Xvfb on a real IDX pair, waits for its window,
# takes a screenshot, checks that it is not blank and that the title names the files, then quits
# with Ctrl+Q and checks a clean exit.
# With no IMAGES file (the real MNIST files absent) it runs on the demo dataset instead.
# Usage: scripts/smoke.sh BINARY [IMAGES] [SCREENSHOT.png]
set -euo pipefail
bin=$1
images=${2:-}
shot=${3:-$(mktemp --suffix=.png)}
args=("$images")
expect="*labels*"
if [ -z "$images" ] || [ ! -f "$images" ]; then
  echo "smoke: ${images:-no image file given} not found; running on the demo dataset"
  args=()
  expect="*demo*"
fi

display=""
for n in $(seq 90 120); do
  if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || { echo "smoke: no free X display" >&2; exit 1; }

cfg=$(mktemp -d)
app_pid=""
Xvfb "$display" -screen 0 1400x900x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
cleanup() {
  [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
  kill "$xvfb_pid" 2>/dev/null || true
  rm -rf "$cfg"
}
trap cleanup EXIT
export DISPLAY=$display LANG=en_US.UTF-8 XDG_CONFIG_HOME=$cfg

for _ in $(seq 50); do xdotool getmouselocation >/dev/null 2>&1 && break; sleep 0.2; done

"$bin" "${args[@]}" >"$cfg/app.log" 2>&1 &
app_pid=$!
if ! wid=$(timeout 60 xdotool search --sync --onlyvisible --name "IDX Labeler" | head -n 1); then
  echo "smoke: no window appeared within 60 s" >&2; cat "$cfg/app.log" >&2; exit 1
fi
sleep 3 # let the first frames render
title=$(xdotool getwindowname "$wid")
# shellcheck disable=SC2254
case "$title" in
  $expect) ;;
  *) echo "smoke: window title '$title' does not match $expect" >&2; exit 1 ;;
esac

xwd -root -silent | /usr/bin/convert xwd:- png:"$shot"
sd=$(/usr/bin/convert "$shot" -format "%[fx:standard_deviation]" info:)
colors=$(/usr/bin/convert "$shot" -format "%k" info:)
echo "smoke: window '$title', screenshot $shot: $colors colours, standard deviation $sd"
awk -v sd="$sd" -v k="$colors" 'BEGIN { exit !(sd > 0.05 && k > 16) }' || { echo "smoke: the screenshot is blank" >&2; exit 1; }

xdotool mousemove 600 400
xdotool key --clearmodifiers ctrl+q
for _ in $(seq 100); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$app_pid" 2>/dev/null; then echo "smoke: the app did not quit on Ctrl+Q" >&2; exit 1; fi
status=0
wait "$app_pid" || status=$?
app_pid=""
[ "$status" -eq 0 ] || { echo "smoke: the app exited with status $status" >&2; cat "$cfg/app.log" >&2; exit 1; }
if grep -qi "panic\|fatal" "$cfg/app.log"; then cat "$cfg/app.log" >&2; exit 1; fi
echo "smoke: ok (quit cleanly)"
