#!/bin/sh
# libslog.api.cxx: the public header compiles as C++ (extern "C", no C-only
# syntax), with every warning an error. Skips (77) without a C++ compiler.
#
#   check_cxx.sh INCLUDE_DIR
set -u
include_dir=$1
cxx=
for c in "${CXX:-}" c++ g++ clang++; do
  if [ -n "$c" ] && command -v "$c" >/dev/null 2>&1; then
    cxx=$c
    break
  fi
done
[ -n "$cxx" ] || { echo "SKIP: no C++ compiler"; exit 77; }
src='#include <slog2/slog.h>
static_assert(sizeof(slog_status) > 0, "slog_status is a complete type");
int main() { return slog_strerror(SLOG_OK) == nullptr; }'
status=0
for std in c++11 c++17; do
  if printf '%s\n' "$src" |
       "$cxx" -std=$std -x c++ -fsyntax-only -Wall -Wextra -Wpedantic -Werror -I"$include_dir" -; then
    echo "ok: slog.h compiles as $std with $cxx"
  else
    echo "FAIL: slog.h does not compile as $std with $cxx"
    status=1
  fi
done
exit "$status"
