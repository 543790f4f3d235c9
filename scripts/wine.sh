#!/usr/bin/env bash
# Runs a Windows program under Wine, where Wine is installed; elsewhere says so and exits 0.
#   scripts/wine.sh PROGRAM.exe [ARGS...]
# `make windows-check` runs the Windows build's `info` on the MNIST test images this way. A test
# binary runs too: GOOS=windows CGO_ENABLED=0 go test -c -o store.test.exe ./store, then
# scripts/wine.sh store.test.exe. Linux paths work as arguments (Wine's drive Z: is /).
#
# Wine is not part of `make deps` or CI: Debian's wine and wine64 are about 105 MB to download
# and 650 MB installed (apt-get install --no-install-recommends wine wine64).
#
# It uses a fresh Wine prefix in a temporary folder, removed afterwards with its wineserver
# stopped, so ~/.wine is never touched. Programs built with Go 1.24 or later need ProcessPrng
# from bcryptprimitives.dll, which Debian 12's Wine 8.0 lacks: a stand-in built with mingw-w64
# (ProcessPrng through RtlGenRandom) goes into the prefix's system32. Wine 8 gaps that make
# tests fail where Windows would not: os.RemoveAll ("Invalid function", so every t.TempDir
# cleanup fails), symbolic links (os.Symlink succeeds and makes nothing), Unix permission bits.
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: scripts/wine.sh PROGRAM.exe [ARGS...]" >&2
  exit 2
fi
if ! command -v wine >/dev/null 2>&1; then
  echo "wine: not installed, so the Windows build was not run (Debian: apt-get install --no-install-recommends wine wine64)"
  exit 0
fi
cc=x86_64-w64-mingw32-gcc
if ! command -v "$cc" >/dev/null 2>&1; then
  echo "wine: $cc is needed to build the bcryptprimitives.dll stand-in (make windows installs it)" >&2
  exit 1
fi

prefix=$(mktemp -d)
export WINEPREFIX=$prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
cleanup() {
  wineserver -k 2>/dev/null || true
  rm -rf "$prefix"
}
trap cleanup EXIT

wineboot -i >/dev/null 2>&1
cat >"$prefix/prng.c" <<'EOF'
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length); /* RtlGenRandom */
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size) {
	while (size > 0) {
		ULONG n = size > 0x10000000 ? 0x10000000 : (ULONG)size;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		size -= n;
	}
	return TRUE;
}
EOF
printf 'LIBRARY bcryptprimitives\nEXPORTS\nProcessPrng\n' >"$prefix/prng.def"
"$cc" -shared -O2 -o "$prefix/drive_c/windows/system32/bcryptprimitives.dll" "$prefix/prng.c" "$prefix/prng.def" -ladvapi32

status=0
wine "$@" || status=$?
exit $status
