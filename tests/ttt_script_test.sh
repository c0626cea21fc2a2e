#!/usr/bin/env bash
# The ./ttt entry point: its help, its refusal of unknown commands and options
# (exit 2), and that a failing build stops it (exit 1) instead of passing on.
# Usage: ttt_script_test.sh PATH/TO/ttt
set -uo pipefail

TTT="$1"
# The checks below want ./ttt's defaults, not the settings of the run that
# started them: CI's TTT_WERROR=ON would make the broken build directory
# below be configured afresh (a whole build) instead of failing at once.
unset TTT_WERROR TTT_BUILD_TYPE TTT_BUILD_DIR TTT_TEST_JOBS
failures=0
check() {  # check NAME CONDITION-EXIT-CODE
  if [ "$2" -eq 0 ]; then
    printf 'ok   %s\n' "$1"
  else
    printf 'FAIL %s\n' "$1"
    failures=$((failures + 1))
  fi
}
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

out="$("$TTT" --help 2>&1)"; code=$?
[ "$code" -eq 0 ] && grep -q '^usage: ./ttt <command>' <<<"$out" && grep -q '^  play' <<<"$out" \
  && grep -q '^  test' <<<"$out"
check "--help lists the commands, exit 0" $?

out="$("$TTT" frobnicate 2>&1)"; code=$?
[ "$code" -eq 2 ] && grep -q 'unknown command: frobnicate' <<<"$out"
check "an unknown command is named, exit 2" $?

out="$("$TTT" test --frobnicate 2>&1)"; code=$?
[ "$code" -eq 2 ] && grep -q 'unknown test option: --frobnicate' <<<"$out"
check "an unknown test option is named, exit 2" $?

out="$("$TTT" package --frobnicate 2>&1)"; code=$?
[ "$code" -eq 2 ] && grep -q 'unknown package option: --frobnicate' <<<"$out"
check "an unknown package option is named, exit 2" $?

out="$("$TTT" bench --frobnicate 2>&1)"; code=$?
[ "$code" -eq 2 ] && grep -q 'unknown bench option: --frobnicate' <<<"$out"
check "an unknown bench option is named, exit 2" $?

# A build directory whose build fails (it looks configured, but holds no
# CMake cache): ./ttt build must stop with an error.
mkdir -p "$scratch/broken" && : >"$scratch/broken/build.ninja"
out="$(TTT_BUILD_DIR="$scratch/broken" "$TTT" build 2>&1)"; code=$?
[ "$code" -eq 1 ] && grep -q 'ttt: error: build failed' <<<"$out"
check "a failed build stops ./ttt build with an error, exit 1" $?

out="$(TTT_WERROR=maybe TTT_BUILD_DIR="$scratch/broken" "$TTT" build 2>&1)"; code=$?
[ "$code" -eq 1 ] && grep -q 'ttt: error: TTT_WERROR must be ON or OFF, got maybe' <<<"$out"
check "a bad TTT_WERROR is named, exit 1" $?

for bad in 0 two -1; do
  out="$(TTT_TEST_JOBS="$bad" "$TTT" test 2>&1)"; code=$?
  [ "$code" -eq 1 ] && grep -qF "ttt: error: TTT_TEST_JOBS must be a positive whole number, got $bad" <<<"$out"
  check "a bad TTT_TEST_JOBS ($bad) is named before anything is built, exit 1" $?
done

[ "$failures" -eq 0 ]
