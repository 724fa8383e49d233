#!/bin/sh
# libslog.install.pkgconfig / libslog.install.cmake: install the build tree
# into a temporary prefix and build a small program against it, as another
# project would: with pkg-config (shared, then --static), or with
# find_package(slog2) (slog2::slog, slog2::slog_static). Each program built runs and
# must write and read back a file.
#
#   check_install.sh pkgconfig|cmake BUILD_DIR CONSUMER_DIR CC [GENERATOR]
set -u
mode=$1
build=$2
consumer=$3
cc=$4
generator=${5:-}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

run() {
  echo "+ $*"
  "$@" || { echo "FAIL: $*"; exit 1; }
}

# Quiet: the whole install manifest is long; show it only on failure.
if ! cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
  cat "$tmp/install.log"
  echo "FAIL: cmake --install"
  exit 1
fi
[ -f "$prefix/include/slog2/slog.h" ] || { echo "FAIL: no include/slog2/slog.h in the prefix"; exit 1; }

case "$mode" in
  pkgconfig)
    command -v pkg-config >/dev/null 2>&1 || { echo "SKIP: no pkg-config"; exit 77; }
    pcdir=$(dirname "$(find "$prefix" -name libslog.pc | head -n 1)")
    [ -f "$pcdir/libslog.pc" ] || { echo "FAIL: no libslog.pc installed"; exit 1; }
    export PKG_CONFIG_PATH=$pcdir
    cflags=$(pkg-config --cflags libslog) || exit 1
    libs=$(pkg-config --libs libslog) || exit 1
    libs_static=$(pkg-config --static --libs libslog) || exit 1
    libdir=$(pkg-config --variable=libdir libslog) || exit 1
    echo "pkg-config: --cflags '$cflags' --libs '$libs' --static --libs '$libs_static'"
    # shellcheck disable=SC2086 # the flags are words
    run "$cc" -std=c11 -Wall -Wextra -Werror $cflags -o "$tmp/consumer" "$consumer/main.c" $libs
    LD_LIBRARY_PATH=$libdir run "$tmp/consumer" "$tmp/shared.slog2"
    # shellcheck disable=SC2086
    run "$cc" -std=c11 -Wall -Wextra -Werror $cflags -o "$tmp/consumer_static" "$consumer/main.c" \
      "$libdir/libslog.a" $(pkg-config --static --libs-only-l libslog | sed 's/-lslog//')
    run "$tmp/consumer_static" "$tmp/static.slog2"
    ;;
  cmake)
    set -- -S "$consumer" -B "$tmp/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_C_COMPILER="$cc"
    [ -n "$generator" ] && set -- "$@" -G "$generator"
    run cmake "$@"
    run cmake --build "$tmp/build"
    run "$tmp/build/consumer" "$tmp/shared.slog2"
    run "$tmp/build/consumer_static" "$tmp/static.slog2"
    ;;
  *)
    echo "usage: check_install.sh pkgconfig|cmake BUILD_DIR CONSUMER_DIR CC [GENERATOR]"
    exit 2
    ;;
esac
echo "ok: built and ran against the installed libslog ($mode)"
