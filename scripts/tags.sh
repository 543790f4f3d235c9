#!/bin/sh
# Prints the Go build tags for this machine: migrated_fynedo always (FyneApp.toml's
# [Migrations] fyneDo = true), and libdeflate when its headers and library are installed
# (pkg-config finds libdeflate): the fast whole-buffer gzip decoder (see idx/gunzip_libdeflate.go).
tags=migrated_fynedo
if pkg-config --exists libdeflate 2>/dev/null; then
  tags="$tags,libdeflate"
fi
echo "$tags"
