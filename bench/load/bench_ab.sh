#!/usr/bin/env bash
# bench_ab.sh: two ttt-server binaries and the baseline relay, interleaved in
# one run, so that a change is compared on the same machine at the same time.
#
#   bench/load/bench_ab.sh --a OLD_SERVER --b NEW_SERVER [--bench TTT_BENCH]
#       [--connections "100 1000"] [--rounds 3] [--seconds 10] [--transports "plain tls"]
#
# For each round and each connection count: A plain, B plain, A TLS, B TLS
# (those of --transports), then the relay; each server fresh, as ./ttt bench
# starts it (--db none --rate-limit 0, no caps per address). One line a run:
#   round C who transport moves_per_s p50_us p99_us server_cpu_us_per_move
# (the server's user + system time over its whole life, warm-up included,
# divided by the moves measured). Each run waits for the machine to be quiet
# (no compiler, linker or ctest); run it under nice -n -5.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
a="" b="" bench="$here/../../build/bin/ttt-bench"
connections="100 1000" rounds=3 seconds=10 transports="plain tls"
while [ $# -gt 0 ]; do
  case "$1" in
    --a) a="$2"; shift ;;
    --b) b="$2"; shift ;;
    --bench) bench="$2"; shift ;;
    --connections) connections="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --seconds) seconds="$2"; shift ;;
    --transports) transports="$2"; shift ;;
    *) echo "bench_ab: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$a" ] && [ -x "$b" ] && [ -x "$bench" ] || { echo "bench_ab: --a, --b and --bench must be programs" >&2; exit 2; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/bench_ab.XXXXXX")"
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

field() {  # field LINE KEY
  tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"
}

# start SERVER TRANSPORT: starts it fresh; sets pid and port.
start() {
  local server="$1" transport=(--no-tls)
  [ "$2" = tls ] && transport=(--tls-dir "$tmp/tls")
  rm -f "$tmp/stdout"
  "$server" --bind 127.0.0.1 --port 0 --log-level warn --db none --rate-limit 0 \
    --max-connections 20000 --max-games-per-address 0 --max-bot-games-per-address 0 \
    --max-connections-per-ip 0 --max-connection-rate-per-ip 0 --max-new-names-per-address 0 \
    "${transport[@]}" \
    >"$tmp/stdout" 2>"$tmp/server.log" &
  pid=$!
  port=""
  for _ in $(seq 100); do
    port="$(sed -n 's/^listening on port \([0-9][0-9]*\)$/\1/p' "$tmp/stdout")"
    [ -n "$port" ] && return 0
    sleep 0.1
  done
  cat "$tmp/server.log" >&2
  exit 1
}

# quiet: waits (up to 5 minutes, looking every 15 s) until no compiler, linker
# or test run competes for the cores; says so on stderr when it gave up.
quiet() {
  local tries=0
  while pgrep -x cc1plus >/dev/null || pgrep -x ld >/dev/null || pgrep -x ctest >/dev/null; do
    tries=$((tries + 1))
    if [ "$tries" -gt 20 ]; then
      echo "bench_ab: the machine is still busy; measuring anyway" >&2
      return 0
    fi
    sleep 15
  done
}

# cpu_us PID: user + system time of a process so far, in microseconds.
cpu_us() {
  awk -v hz="$(getconf CLK_TCK)" '{ print int(($14 + $15) * 1000000 / hz) }' "/proc/$1/stat"
}

echo "round C who transport moves_per_s p50_us p99_us server_cpu_us_per_move"
for round in $(seq "$rounds"); do
  for c in $connections; do
    for transport in $transports; do
      for who in A B; do
        server="$a"
        [ "$who" = B ] && server="$b"
        quiet
        start "$server" "$transport"
        tls_flag=()
        [ "$transport" = tls ] && tls_flag=(--tls)
        line="$("$bench" --port "$port" "${tls_flag[@]}" --connections "$c" --seconds "$seconds" | tail -n 1)"
        used="$(cpu_us "$pid")"
        kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; pid=""
        moves="$(field "$line" moves_per_s)"
        per_move="$(awk -v u="$used" -v m="$moves" -v s="$seconds" 'BEGIN { printf "%.1f", (m > 0 ? u / (m * s) : 0) }')"
        echo "$round $c $who $transport $moves $(field "$line" p50_us) $(field "$line" p99_us) $per_move"
      done
    done
    quiet
    line="$("$bench" --baseline --connections "$c" --seconds "$seconds" | tail -n 1)"
    echo "$round $c relay plain $(field "$line" moves_per_s) $(field "$line" p50_us) $(field "$line" p99_us) -"
  done
done
