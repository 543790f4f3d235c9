#!/usr/bin/env bash
# Builds an installable idxlabel into dist/ with the fyne tool pinned in go.mod's tool block
# (fyne.io/tools v1.7.0), as a release build (fyne's -release: -trimpath, stripped, Fyne's
# release mode). The version in the name is FyneApp.toml's [Details] Version.
#
#   scripts/package.sh linux    dist/idxlabel-<version>-linux-amd64.tar.xz, laid out as
#       `fyne package -os linux` makes it (usr/local/bin/idxlabel, the .desktop entry, the icon
#       and fyne's Makefile: `sudo make install`), plus the IDX MIME types
#       (scripts/mime-types.xml) named in the .desktop entry and installed by that Makefile, so
#       "Open with" offers the app. Build tags from scripts/tags.sh; libdeflate, when used, is
#       linked from its static archive where installed, so the binary needs no libdeflate.so.
#   scripts/package.sh windows  dist/idxlabel-<version>-windows-amd64.exe, cross-compiled with
#       mingw-w64 (CC=x86_64-w64-mingw32-gcc): a GUI-subsystem program (-H=windowsgui) with the
#       icon and version embedded; gzip through the pure-Go decoder (no libdeflate tag).
#   scripts/package.sh version  prints the version.
#
# fyne builds in the source folder, leaves files there while it runs (fyne_metadata_init.go,
# fyne.syso) and raises FyneApp.toml's Build afterwards, so it runs on a copy of the tree in a
# temporary folder: the work tree is left as it was, and a `go build` in it meanwhile is safe.
set -euo pipefail
cd "$(dirname "$0")/.."

field() { sed -n "s/^$1 *= *\"\\([^\"]*\\)\".*/\\1/p" FyneApp.toml | head -n 1; }
version=$(field Version)
name=$(field Name)
id=$(field ID)
if [ -z "$version" ] || [ -z "$name" ] || [ -z "$id" ]; then
  echo "package: FyneApp.toml needs Version, Name and ID in [Details]" >&2
  exit 1
fi

os=${1:-}
case "$os" in
linux | windows) ;;
version)
  echo "$version"
  exit 0 ;;
*)
  echo "usage: scripts/package.sh linux|windows|version" >&2
  exit 2 ;;
esac
if [ "$(uname -s)" != Linux ]; then
  echo "package: the packages are built on Linux; on macOS see the README's Install section" >&2
  exit 1
fi
go=${GO:-go}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$tmp/src
mkdir "$src"
tar -cf - --exclude=./.git --exclude=./bin --exclude=./dist --exclude=./.scratch --exclude=./idxlabel . |
  tar -xf - -C "$src"
# The tool itself is built for this machine, whatever the target.
GOOS= GOARCH= "$go" build -o "$tmp/fyne" fyne.io/tools/cmd/fyne
mkdir -p dist

if [ "$os" = windows ]; then
  cc=x86_64-w64-mingw32-gcc
  if ! command -v "$cc" >/dev/null 2>&1; then
    echo "package: $cc not found: make windows installs it (Debian's gcc-mingw-w64-x86-64)" >&2
    exit 1
  fi
  (cd "$src" && CC=$cc GOARCH=amd64 "$tmp/fyne" package -os windows -release -tags migrated_fynedo)
  exe="$src/$name.exe"
  kind=$(file -b "$exe")
  case "$kind" in
  "PE32+ executable (GUI) x86-64"*) ;;
  *)
    echo "package: $exe is not a 64-bit GUI-subsystem program: $kind" >&2
    exit 1 ;;
  esac
  out=dist/idxlabel-$version-windows-amd64.exe
  cp "$exe" "$out.tmp"
  mv "$out.tmp" "$out"
  echo "$out: $kind"
  exit 0
fi

tags=$(scripts/tags.sh)
if [[ ",$tags," == *,libdeflate,* ]]; then
  archive=$(${CC:-gcc} -print-file-name=libdeflate.a)
  if [ -f "$archive" ]; then
    # cgo asks pkg-config for libdeflate's flags (idx/gunzip_libdeflate.go): this .pc, first
    # on the path, names the static archive instead of -ldeflate.
    mkdir "$tmp/pkgconfig"
    cat >"$tmp/pkgconfig/libdeflate.pc" <<EOF
Name: libdeflate
Description: libdeflate, linked statically into the packaged idxlabel
Version: $(pkg-config --modversion libdeflate)
Cflags: $(pkg-config --cflags libdeflate)
Libs: $archive
EOF
    export PKG_CONFIG_PATH="$tmp/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  fi
fi
(cd "$src" && "$tmp/fyne" package -os linux -release -tags "$tags")

stage=$tmp/stage
mkdir "$stage"
tar -xJf "$src/$name.tar.xz" -C "$stage"
desktop=$(find "$stage/usr" -path "*/share/applications/$id.desktop")
if [ ! -f "$desktop" ] || [ ! -f "$stage/Makefile" ]; then
  echo "package: fyne's archive lacks share/applications/$id.desktop or its Makefile" >&2
  exit 1
fi
prefix=${desktop%/share/applications/*} # $stage/usr/local, or $stage/usr where /usr/local is absent
rel=${prefix#"$stage/"}

# The .desktop entry names the IDX types, and the package carries their definition.
sed -i '/^Keywords=/a MimeType=application/x-idx;application/x-idx+gzip;' "$desktop"
grep -q '^MimeType=' "$desktop" || {
  echo "package: could not add MimeType to $desktop" >&2
  exit 1
}
install -Dm644 scripts/mime-types.xml "$prefix/share/mime/packages/$id.xml"

# fyne's Makefile installs three files; it also installs (and uninstalls) the MIME types and,
# when installing into the running system (no DESTDIR), refreshes the desktop's caches. Its
# PREFIX is /usr/local unless given: fyne's chose /usr when $(DESTDIR)/usr/local did not exist,
# so `make install DESTDIR=/tmp/stage` put the files in /tmp/stage/usr, not under the prefix.
awk -v rel="$rel" '
  function refresh(dir) {
    print "\t@[ -n \"$(DESTDIR)\" ] || ! command -v update-mime-database >/dev/null || update-mime-database " dir "/share/mime"
    print "\t@[ -n \"$(DESTDIR)\" ] || ! command -v update-desktop-database >/dev/null || update-desktop-database -q " dir "/share/applications"
  }
  /^# If PREFIX isn.t provided/ {
    print "# PREFIX is /usr/local unless given (make install PREFIX=/usr); DESTDIR stages the files"
    print "# under it as usual: make install DESTDIR=/tmp/stage puts them in /tmp/stage/usr/local."
    next
  }
  /^# Otherwise we fall back to using \/usr/ || /^LOCAL / { next }
  /^PREFIX \?= / { print "PREFIX ?= /usr/local"; p++; next }
  { print }
  /^\tinstall / && index($0, " $(DESTDIR)$(PREFIX)/share/pixmaps/$(Icon)") {
    print "\tinstall -Dm00644 " rel "/share/mime/packages/$(AppID).xml $(DESTDIR)$(PREFIX)/share/mime/packages/$(AppID).xml"
    refresh("$(PREFIX)"); n++
  }
  /^\t-rm / && index($0, " $(DESTDIR)$(PREFIX)/share/pixmaps/$(Icon)") {
    print "\t-rm $(DESTDIR)$(PREFIX)/share/mime/packages/$(AppID).xml"
    refresh("$(PREFIX)"); n++
  }
  /^\tinstall / && index($0, " $(DESTDIR)$(HOME)/.local/share/icons/$(Icon)") {
    print "\tinstall -Dm00644 " rel "/share/mime/packages/$(AppID).xml $(DESTDIR)$(HOME)/.local/share/mime/packages/$(AppID).xml"
    refresh("$(HOME)/.local"); n++
  }
  /^\t-rm / && index($0, " $(DESTDIR)$(HOME)/.local/share/icons/$(Icon)") {
    print "\t-rm $(DESTDIR)$(HOME)/.local/share/mime/packages/$(AppID).xml"
    refresh("$(HOME)/.local"); n++
  }
  END { if (n != 4 || p != 1) { print "package: expected 4 places and one PREFIX in fyne'\''s Makefile, found " n " and " p > "/dev/stderr"; exit 1 } }
' "$stage/Makefile" >"$tmp/Makefile"
mv "$tmp/Makefile" "$stage/Makefile"

out=dist/idxlabel-$version-linux-amd64.tar.xz
tar --owner=0 --group=0 --numeric-owner -C "$stage" -cJf "$out.tmp" usr Makefile
mv "$out.tmp" "$out"
echo "$out: $("$go" version -m "$prefix/bin/idxlabel" | sed -n 's/^[[:space:]]*build[[:space:]]*-tags=/tags /p')"
