#!/bin/sh
# libslog.api.exports: the shared library exports exactly the functions
# slog.h declares, and each of them carries SLOG_API.
#
#   check_exports.sh LIBSLOG_SO SLOG_H
#
# The declared names come from the header itself: comments and preprocessor
# lines dropped, the rest cut into statements at ';', '{' and '}', and in
# each statement that is not a typedef the identifier before the first '('.
# Names beginning with '_' are the toolchain's (_init, __bss_start, and the
# sanitizers' own) and are not counted.
set -u
so=$1
header=$2
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

sed -e ':a' -e '/\/\*/{' -e '/\*\//!{N;ba' -e '}' -e 's|/\*.*\*/||' -e 'ba' -e '}' "$header" |
  grep -v '^[[:space:]]*#' | tr '\n' ' ' | tr ';{}' '\n\n\n' >"$tmp/statements"
grep -v '^[[:space:]]*typedef' "$tmp/statements" | grep '(' >"$tmp/functions"
sed -E 's/^([^(]*[^[:alnum:]_])?([[:alpha:]_][[:alnum:]_]*)[[:space:]]*\(.*/\2/' "$tmp/functions" |
  sort -u >"$tmp/declared"
n_declared=$(wc -l <"$tmp/declared")
if [ "$n_declared" -lt 10 ]; then
  echo "FAIL: found only $n_declared declarations in $header; the parser is broken"
  exit 1
fi

status=0
# Every declaration carries the export macro.
if grep -v -E '^[[:space:]]*SLOG_API[[:space:]]' "$tmp/functions" >"$tmp/unmarked"; then
  echo "FAIL: declared in slog.h without SLOG_API:"
  sed -E 's/[[:space:]]+/ /g; s/^/  /' "$tmp/unmarked"
  status=1
fi

nm -D --defined-only "$so" | awk 'NF >= 3 { print $3 }' | sed 's/@.*//' |
  grep -v '^_' | sort -u >"$tmp/exported"
comm -13 "$tmp/declared" "$tmp/exported" >"$tmp/extra"
comm -23 "$tmp/declared" "$tmp/exported" >"$tmp/missing"
if [ -s "$tmp/extra" ]; then
  echo "FAIL: $so exports symbols slog.h does not declare:"
  sed 's/^/  /' "$tmp/extra"
  status=1
fi
if [ -s "$tmp/missing" ]; then
  echo "FAIL: slog.h declares functions $so does not export:"
  sed 's/^/  /' "$tmp/missing"
  status=1
fi
if grep -v '^slog_' "$tmp/declared" >"$tmp/badname"; then
  echo "FAIL: public functions not named slog_*:"
  sed 's/^/  /' "$tmp/badname"
  status=1
fi
[ "$status" = 0 ] && echo "ok: $(wc -l <"$tmp/exported") functions exported, as declared in slog.h"
exit "$status"
