#!/usr/bin/env bash
# Installs what building and testing idxlabel needs on Debian/Ubuntu, only what is missing
# (with sudo when not root); elsewhere prints what to install by hand.
# Usage: scripts/deps.sh [extra Debian packages...]
# Targets name their extras: make test python3-numpy, make package xz-utils, make windows the
# cross compiler gcc-mingw-w64-x86-64 and file (so only that target installs mingw-w64).
set -euo pipefail

packages=(gcc pkg-config libdeflate-dev libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev
  libxi-dev libxxf86vm-dev xvfb xdotool x11-apps imagemagick "$@")

if ! command -v go >/dev/null 2>&1; then
  echo "deps: Go 1.26 or newer is needed: https://go.dev/dl/ (Debian's golang package is too old)" >&2
  exit 1
fi

case "$(uname -s)" in
Darwin)
  echo "deps: on macOS install Xcode's command line tools (xcode-select --install) and, for fast gzip, libdeflate and pkg-config (brew install libdeflate pkg-config)."
  exit 0 ;;
MINGW* | MSYS* | CYGWIN*)
  echo "deps: on Windows install a gcc for cgo (MSYS2's mingw-w64-x86_64-gcc or TDM-GCC) and Go; MSYS2's mingw-w64-x86_64-libdeflate and pkg-config enable fast gzip."
  exit 0 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "deps: not a Debian/Ubuntu system; install by hand the equivalents of: ${packages[*]}"
  echo "      Fedora: sudo dnf install gcc pkgconf libdeflate-devel libXcursor-devel libXrandr-devel mesa-libGL-devel libXi-devel libXinerama-devel libXxf86vm-devel xorg-x11-server-Xvfb xdotool xwd ImageMagick"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
  fi
  echo "deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

# A first build compiles Fyne's C code (GLFW and OpenGL, through cgo): about 20 minutes on two
# cores, with nothing printed once the modules are downloaded. Say so before it starts (go list
# reports whether the build cache holds those packages; it downloads the modules if need be).
cd "$(dirname "$0")/.."
if go list -tags "$(scripts/tags.sh)" -f '{{.Stale}}' github.com/go-gl/gl/v2.1/gl github.com/go-gl/glfw/v3.3/glfw 2>/dev/null | grep -q true; then
  echo "deps: first build: compiling Fyne's C code (GLFW, OpenGL) takes about 20 minutes on 2 cores and prints nothing meanwhile"
fi
