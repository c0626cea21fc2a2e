#!/usr/bin/env bash
# callgrind_per_move.sh: the instructions a ttt-server spends per move, counted
# by callgrind (repeatable, unlike a clock on a shared machine).
#
#   bench/load/callgrind_per_move.sh SERVER [--tls] [--connections 100] [--seconds 20]
#       [--bench TTT_BENCH] [--out FILE]
#
# Starts SERVER under callgrind (--db none --rate-limit 0), loads it with
# ttt-bench, and once every game runs, counts from zero for --seconds: the
# instructions counted over the moves the server accepted meanwhile (its
# ttt_moves_total on /metrics). Prints one line:
#   callgrind: transport=T connections=C moves=M instructions=I per_move=P
# --out keeps callgrind's file (callgrind_annotate reads it).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
server="" bench="$here/../../build/bin/ttt-bench" transport=plain c=100 seconds=20 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --tls) transport=tls ;;
    --connections) c="$2"; shift ;;
    --seconds) seconds="$2"; shift ;;
    --bench) bench="$2"; shift ;;
    --out) out="$2"; shift ;;
    -*) echo "callgrind_per_move: unknown option $1" >&2; exit 2 ;;
    *) server="$1" ;;
  esac
  shift
done
[ -x "$server" ] && [ -x "$bench" ] || { echo "callgrind_per_move: SERVER and --bench must be programs" >&2; exit 2; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/callgrind_per_move.XXXXXX")"
pid="" bench_pid=""
cleanup() {
  [ -n "$bench_pid" ] && kill "$bench_pid" 2>/dev/null || true
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

metrics_port=$((20000 + RANDOM % 20000))
transport_flags=(--no-tls)
[ "$transport" = tls ] && transport_flags=(--tls-dir "$tmp/tls")
valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind.out" --dump-instr=no --compress-strings=no \
  --collect-atstart=yes \
  "$server" --bind 127.0.0.1 --port 0 --log-level warn --db none --rate-limit 0 \
  --max-connections 20000 --max-games-per-address 0 --max-bot-games-per-address 0 \
  --max-connections-per-ip 0 --max-connection-rate-per-ip 0 --max-new-names-per-address 0 \
  --hello-timeout 60 \
  --metrics "127.0.0.1:$metrics_port" "${transport_flags[@]}" \
  >"$tmp/stdout" 2>"$tmp/server.log" &
pid=$!
port=""
for _ in $(seq 600); do
  port="$(sed -n 's/^listening on port \([0-9][0-9]*\)$/\1/p' "$tmp/stdout")"
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { cat "$tmp/server.log" >&2; exit 1; }

moves_total() {
  curl -s "http://127.0.0.1:$metrics_port/metrics" | awk '$1 == "ttt_moves_total" { print $2 }'
}

tls_flag=()
[ "$transport" = tls ] && tls_flag=(--tls)
"$bench" --port "$port" "${tls_flag[@]}" --connections "$c" --seconds $((seconds + 3600)) \
  >"$tmp/bench.out" 2>&1 &
bench_pid=$!
# Every game running: the moves counter moves steadily.
sleep 15
before_moves="$(moves_total)"
callgrind_control -z "$pid" >/dev/null
sleep "$seconds"
callgrind_control -d "$pid" >/dev/null
after_moves="$(moves_total)"
kill "$bench_pid" 2>/dev/null || true
wait "$bench_pid" 2>/dev/null || true
bench_pid=""
dump="$(ls -t "$tmp"/callgrind.out.* | head -n 1)"
instructions="$(sed -n 's/^summary: //p' "$dump" | awk '{ print $1 }')"
# The moves accepted from the counters' zero to their dump (the counter is
# read just outside that window: a few moves' error at most).
moves=$(awk -v a="$after_moves" -v b="$before_moves" 'BEGIN { printf "%d", a - b }')
[ -n "$out" ] && cp "$dump" "$out"
awk -v t="$transport" -v c="$c" -v m="$moves" -v i="$instructions" 'BEGIN {
  printf "callgrind: transport=%s connections=%s moves=%d instructions=%d per_move=%.0f\n", t, c, m, i, (m > 0 ? i / m : 0)
}'
