#!/usr/bin/env bash
# `./ttt play` as a user meets it, with the programs already built in
# BUILD_DIR: a game against the perfect bot with no move clock; one player
# and one set of files however many runs; /quit mid-game keeps the game and
# says how to take it back, and the next run does; a second play at the same
# time gets a throwaway server and says so. And the programs run through
# ./ttt name `./ttt client` (etc.) in their hints. Everything it writes goes
# to a scratch home of its own.
# Usage: ttt_play_test.sh PATH/TO/ttt BUILD_DIR
set -uo pipefail

TTT="$1"
failures=0
check() {  # check NAME CONDITION-EXIT-CODE [OUTPUT]
  if [ "$2" -eq 0 ]; then
    printf 'ok   %s\n' "$1"
  else
    printf 'FAIL %s\n%s\n' "$1" "${3:-}"
    failures=$((failures + 1))
  fi
}
scratch="$(mktemp -d)"
holder=""
cleanup() {
  [ -n "$holder" ] && kill "$holder" 2>/dev/null && wait "$holder" 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT
trap '' PIPE  # a program that ended early is a failed check, not the end of this script
export TTT_BUILD_DIR="$2" XDG_STATE_HOME="$scratch/state" XDG_CONFIG_HOME="$scratch/config" \
  USER=player NO_COLOR=1
every_cell=$'a1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n'

# A port that was free a moment ago, for the play server.
"$2/bin/ttt-server" --bind 127.0.0.1 --port 0 --db none >"$scratch/probe" 2>&1 &
probe=$!
for _ in $(seq 50); do grep -q '^listening on port' "$scratch/probe" && break; sleep 0.1; done
TTT_PLAY_PORT="$(sed -n 's/^listening on port \([0-9]*\)$/\1/p' "$scratch/probe")"
kill "$probe"; wait "$probe" 2>/dev/null
export TTT_PLAY_PORT
files() { (cd "$scratch" && find state config -type f 2>/dev/null | sort); }

out="$(printf '%s' "$every_cell" | "$TTT" play 2>&1)"; code=$?
[ "$code" -eq 0 ] && grep -q "^Connected to 127.0.0.1:$TTT_PLAY_PORT as player (rating" <<<"$out" \
  && grep -q '^Game over: ' <<<"$out" && ! grep -q ' s left)' <<<"$out" \
  && ! grep -q 'seat is held' <<<"$out"
check "a game against the perfect bot, no move clock, exit 0" $? "$out"

first_files="$(files)"
grep -qx "state/ttt/play/ttt.db" <<<"$first_files" \
  && grep -qx "config/ttt/secrets/127.0.0.1-$TTT_PLAY_PORT-player" <<<"$first_files"
check "the database is in the state dir, the secret under the known port" $? "$first_files"

out="$(printf '%s' "$every_cell" | "$TTT" play 2>&1)"; code=$?
[ "$code" -eq 0 ] && grep -q " as player (rating" <<<"$out" && grep -q '^Game over: ' <<<"$out" \
  && [ "$(files)" = "$first_files" ]
check "a second run is the same player and adds no file" $? "$out
$(files)"

# Quit in the middle of a game, once the bot has answered.
mkfifo "$scratch/input"
"$TTT" play <"$scratch/input" >"$scratch/quit.out" 2>&1 &
holder=$!
exec 3>"$scratch/input"
printf 'b2\n' >&3
for _ in $(seq 300); do grep -q '(O) played' "$scratch/quit.out" && break; sleep 0.1; done
grep -q '(O) played' "$scratch/quit.out"
check "a game under way (the bot answered b2)" $? "$(cat "$scratch/quit.out")"

# Meanwhile, a second play: the database is taken, so a throwaway game.
out="$(printf '%s' "$every_cell" | "$TTT" play 2>&1)"; code=$?
# The client says it when the game starts and again as its last line (a
# full screen would have hidden a line said before it).
[ "$code" -eq 0 ] && grep -q '^Game over: ' <<<"$out" \
  && [ "$(grep -c 'another ./ttt play is running: this game is not kept' <<<"$out")" -eq 2 ] \
  && tail -n 1 <<<"$out" | grep -q 'another ./ttt play is running: this game is not kept'
check "a second play at the same time gets a throwaway server and says so, first and last" $? "$out"

printf '/quit\n' >&3
exec 3>&-
wait "$holder"; code=$?
holder=""
grep -qF "Your game is kept: run $TTT play again to take it back." "$scratch/quit.out"
check "/quit mid-game says the game is kept and how to take it back, exit $code" $? \
  "$(cat "$scratch/quit.out")"

out="$(printf '%s' "$every_cell" | "$TTT" play 2>&1)"; code=$?
[ "$code" -eq 0 ] && grep -q '^Back in game 3 as X\.' <<<"$out" && grep -q '^Game over: ' <<<"$out"
check "the next run takes the game back and finishes it" $? "$out"

# What ./ttt play builds on a first run (ttt-server and ttt-client, as
# ensure_built asks) needs no test, benchmark or fuzz target.
inputs="$(ninja -C "$2" -t inputs bin/ttt-server bin/ttt-client 2>&1)"; code=$?
root="$(cd "$(dirname "$TTT")" && pwd)"
needless() { grep -E "/(tests|bench|fuzz)/CMakeFiles/|^$root/(tests|bench|fuzz)/" <<<"$inputs"; }
[ "$code" -eq 0 ] && grep -q 'ttt-server.dir' <<<"$inputs" && grep -q 'ttt-client.dir' <<<"$inputs" \
  && ! needless >/dev/null
check "the programs ./ttt play builds need no test, benchmark or fuzz target" $? \
  "$code: $(needless | head)"
grep -q '^  ensure_built ttt-server ttt-client$' "$TTT"
check "./ttt play builds just those two" $?

for program in client bot server; do
  out="$("$TTT" "$program" --frobnicate 2>&1)"; code=$?
  [ "$code" -eq 2 ] && grep -qxF "(see $TTT $program --help)" <<<"$out" \
    && "$TTT" "$program" --help 2>&1 | grep -q "^usage: $TTT $program \[flags\]"
  check "./ttt $program names itself as ./ttt $program in its hints and usage" $? "$out"
done

[ "$failures" -eq 0 ]
