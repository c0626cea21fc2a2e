#!/usr/bin/env bash
# bench_all.sh: the table of docs/performance.md in one run. ttt-bench loads
# fresh servers (plain TCP, TLS, SQLite, PostgreSQL, a node of PostgreSQL and
# Redis) and the baseline relay at each connection count, then the web
# client's CPU per move against TCP, and the lobby's p99 per request with
# 1,000 and with 10,000 players online; prints every run, each row's mean of
# its two runs, the ratios the targets are set on and whether each is met, and
# writes the same as JSON.
#
#   bench/load/bench_all.sh --bin DIR [--seconds S] [--connections "100 1000"]
#       [--json FILE] [--no-web] [--no-lobby]
#
# DIR holds ttt-server and ttt-bench. Runs inside pg_virtualenv (the PG*
# variables name a PostgreSQL it may make databases in: one fresh database a
# run); starts a redis-server of its own for the node. `./ttt bench --all`
# runs it so. Exit status 0 when every run ran without errors (whether the
# targets are met or not: it measures); 1 otherwise.
set -euo pipefail

bin="" seconds=10 connections="100 1000" json="" web=1 lobby=1
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin="$2"; shift ;;
    --seconds) seconds="$2"; shift ;;
    --connections) connections="$2"; shift ;;
    --json) json="$2"; shift ;;
    --no-web) web=0 ;;
    --no-lobby) lobby=0 ;;
    *) echo "bench_all: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
server="$bin/ttt-server" bench="$bin/ttt-bench"
[ -x "$server" ] && [ -x "$bench" ] || { echo "bench_all: --bin must hold ttt-server and ttt-bench" >&2; exit 2; }
[ -n "${PGHOST:-}" ] || { echo "bench_all: no PostgreSQL (run it inside pg_virtualenv: ./ttt bench --all)" >&2; exit 2; }
command -v redis-server >/dev/null || { echo "bench_all: redis-server not found" >&2; exit 2; }
[ -n "$json" ] || json="$bin/../bench/all-$(date -u +%Y%m%dT%H%M%SZ).json"
mkdir -p "$(dirname "$json")"

tmp="$(mktemp -d "${TMPDIR:-/tmp}/bench_all.XXXXXX")"
server_pid="" redis_pid="" failed=0
stop_server() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  server_pid=""
}
cleanup() {
  stop_server
  [ -n "$redis_pid" ] && kill "$redis_pid" 2>/dev/null && wait "$redis_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

# A redis-server of our own on a free loopback port, keeping nothing, and the
# key its node shares.
start_redis() {
  (umask 077 && od -An -tx1 -N32 /dev/urandom | tr -d " \n" >"$tmp/cluster.key")
  for _ in $(seq 10); do
    redis_port=$((20000 + RANDOM % 40000))
    redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no \
      --loglevel warning >/dev/null 2>&1 &
    redis_pid=$!
    for _ in $(seq 100); do
      kill -0 "$redis_pid" 2>/dev/null || break  # the port was taken: another one
      redis-cli -p "$redis_port" ping 2>/dev/null | grep -q PONG && return 0
      sleep 0.05
    done
    kill "$redis_pid" 2>/dev/null || true
  done
  echo "bench_all: redis-server did not start" >&2
  exit 1
}

# start_server ARGS: a fresh ttt-server on a free loopback port (sets port),
# as ./ttt bench starts it: every cap per address off (every connection
# comes from 127.0.0.1), no rate limit, a stats token for --web.
stats_token="bench-$(od -An -N16 -tx1 /dev/urandom | tr -d " \n")"
start_server() {
  stop_server
  rm -rf "$tmp/server" && mkdir -p "$tmp/server"
  : >"$tmp/server/stdout"
  "$server" --bind 127.0.0.1 --port 0 --log-level warn --rate-limit 0 \
    --max-connections 20000 --max-games-per-address 0 --max-bot-games-per-address 0 \
    --max-connections-per-ip 0 --max-connection-rate-per-ip 0 --max-new-names-per-address 0 \
    --stats-token "$stats_token" \
    "$@" >"$tmp/server/stdout" 2>"$tmp/server/server.log" &
  server_pid=$!
  port=""
  for _ in $(seq 300); do
    port="$(sed -n 's/^listening on port \([0-9][0-9]*\)$/\1/p' "$tmp/server/stdout")"
    [ -n "$port" ] && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$tmp/server/server.log" >&2
  echo "bench_all: ttt-server $* did not start" >&2
  exit 1
}

# A fresh PostgreSQL database for one run.
databases=0
fresh_database() {
  databases=$((databases + 1))
  database="ttt_bench_$$_$databases"
  createdb "$database"
}

# field LINE KEY: the value of KEY=value in a ttt-bench line.
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p" | head -n 1; }

results="$tmp/results"  # row connections moves_per_s p50 p99 p999 games errors
: >"$results"
# measure ROW C [ttt-bench args...]: one run, its line kept.
measure() {
  local row="$1" c="$2" line key values=()
  shift 2
  line="$("$bench" --connections "$c" --seconds "$seconds" "$@" | tail -n 1)" || true
  if [ -z "$(field "$line" moves_per_s)" ]; then
    echo "bench_all: $row at $c connections gave no result" >&2
    line="moves_per_s=0 errors=1"
  fi
  for key in moves_per_s p50_us p99_us p999_us games errors; do
    values+=("$(field "$line" "$key")")
    [ -n "${values[-1]}" ] || values[-1]=0
  done
  [ "${values[5]}" = 0 ] || failed=1
  echo "$row $c ${values[*]}" >>"$results"
  printf '%-9s %11s %10s %9s %9s %10s %7s\n' "$row" "$c" "${values[0]}" "${values[1]}" \
    "${values[2]}" "${values[3]}" "${values[5]}"
}

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
started="$(date +%s)"
commit="$(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo unknown)"
cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
echo "bench --all: $seconds s a run; $(nproc) cores, $cpu; commit $commit"
echo "load average before: $load_before"
echo "servers: --rate-limit 0, 1 I/O thread, caps per address off; plain TCP except tls (TLS 1.3)"
echo "sqlite: --db FILE (WAL, synchronous FULL); postgres: --postgres, PostgreSQL 15 (fsync on,"
echo "synchronous_commit on), a fresh database a run; node: postgres + --redis (one node)"
echo
# The lobby with N idle players online: each request's p99 (a fresh server
# for each count, no database, plain TCP), measured first, before the rows
# that write: what the disk and PostgreSQL flush after those runs would
# stall the lobby's round trips now and then, and those stalls are not the
# lobby's. 2,000 round trips of each request: a p99 is their 20th slowest,
# which one stall of the machine does not make.
lobby_counts="1000 10000" lobby_lines=()
if [ "$lobby" = 1 ]; then
  for n in $lobby_counts; do
    start_server --db none --no-tls
    line="$("$bench" --port "$port" --lobby "$n" --rounds 2000 | tail -n 1)" || true
    stop_server
    [ -n "$(field "$line" who_p99_us)" ] || { echo "bench_all: --lobby $n gave no result" >&2; failed=1; }
    [ "$(field "$line" errors)" = 0 ] || failed=1
    lobby_lines+=("$n $(field "$line" hello_p99_us) $(field "$line" list_p99_us) $(field "$line" who_p99_us) $(field "$line" challenge_p99_us)")
  done
fi
printf '%-9s %11s %10s %9s %9s %10s %7s\n' row connections moves_per_s p50_us p99_us p999_us errors
start_redis
# run_row ROW C: a fresh server for ROW (none for the relay) and its run.
run_row() {
  local row="$1" c="$2"
  case "$row" in
    relay) measure relay "$c" --baseline ;;
    plain)
      start_server --db none --no-tls
      measure plain "$c" --port "$port" ;;
    tls)
      start_server --db none --tls-dir "$tmp/server"
      measure tls "$c" --port "$port" --tls ;;
    sqlite)
      start_server --db "$tmp/server/ttt.db" --no-tls
      measure sqlite "$c" --port "$port" ;;
    postgres)
      fresh_database
      start_server --postgres "dbname=$database" --no-tls
      measure postgres "$c" --port "$port" ;;
    node)
      fresh_database
      # SIGTERM drains a node: here its drain ends at once.
      start_server --postgres "dbname=$database" --redis "127.0.0.1:$redis_port" \
        --cluster-key-file "$tmp/cluster.key" --drain-timeout 0 --no-tls
      measure node "$c" --port "$port" ;;
  esac
  stop_server
  # Dropped at once (DROP DATABASE checkpoints first): what a row wrote is on
  # disk before the next row starts, and no vacuum of it runs during another.
  if [ "$row" = postgres ] || [ "$row" = node ]; then
    dropdb --force --if-exists "$database" || echo "bench_all: could not drop $database" >&2
  fi
  # The next node starts from an empty Redis, as the first did.
  if [ "$row" = node ]; then redis-cli -p "$redis_port" FLUSHALL >/dev/null || true; fi
}
# Each row twice, in an order that reads the same both ways (relay ... node
# node ... relay): a machine that speeds up or slows down over the minutes of
# a run (PostgreSQL warming up, another program starting) moves both rows of
# every ratio alike, and each row is the mean of its two runs.
rows="relay plain tls sqlite postgres node"
web_lines=()
for c in $connections; do
  for row in $rows $(tr ' ' '\n' <<<"$rows" | tac); do run_row "$row" "$c"; done
done
# Each row's mean of its runs that gave a result (a run that gave none is
# counted as failed): row connections moves_per_s p99_us
means="$tmp/means"
awk '$3 > 0 { k = $1 " " $2; if (!(k in n)) order[++rows] = k; n[k]++; m[k] += $3; p[k] += $5 }
  END { for (i = 1; i <= rows; i++) { k = order[i]; printf "%s %.0f %.0f\n", k, m[k] / n[k], p[k] / n[k] } }' \
  "$results" >"$means"
echo
printf '%-9s %11s %10s %9s   (the mean of each row'"'"'s two runs)\n' row connections moves_per_s p99_us
while read -r row c moves p99; do
  printf '%-9s %11s %10s %9s\n' "$row" "$c" "$moves" "$p99"
done <"$means"
if [ "$web" = 1 ]; then
  for c in $connections; do
    start_server --db none --no-tls
    line="$("$bench" --port "$port" --web --connections "$c" --seconds "$seconds" \
      --stats-token "$stats_token" | tail -n 1)" || true
    stop_server
    [ -n "$(field "$line" ratio)" ] || { echo "bench_all: --web at $c connections gave no result" >&2; failed=1; }
    [ "$(field "$line" errors)" = 0 ] || failed=1
    web_lines+=("$c $(field "$line" tcp_cpu_us_per_move) $(field "$line" web_cpu_us_per_move) $(field "$line" ratio)")
  done
fi
if [ "$lobby" = 1 ]; then
  echo
  printf '%-9s %11s %10s %9s %9s %12s
' lobby online hello_p99 list_p99 who_p99 challenge_p99
  for entry in "${lobby_lines[@]}"; do
    read -r n hello list who challenge <<<"$entry"
    printf '%-9s %11s %10s %9s %9s %12s
' lobby "$n" "${hello:-0}" "${list:-0}" "${who:-0}" "${challenge:-0}"
  done
fi
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
elapsed=$(($(date +%s) - started))

# The ratios and their targets: name, numerator row, denominator row, the
# target at each connection count (a floor; the web's a ceiling).
ratios="tls/plain tls plain 100:0.85 1000:0.80
plain/relay plain relay 100:0.85 1000:0.75
postgres/sqlite postgres sqlite 100:0.50 1000:0.50
node/postgres node postgres 100:0.90 1000:0.90"
echo
printf '%-16s %11s %8s %10s %s\n' ratio connections value target verdict
summary="$tmp/ratios"  # name connections value target met
: >"$summary"
while read -r name top bottom targets; do
  for c in $connections; do
    target="$(tr ' ' '\n' <<<"$targets" | sed -n "s/^$c://p")"
    awk -v name="$name" -v c="$c" -v top="$top" -v bottom="$bottom" -v target="$target" '
      $1 == top && $2 == c { t = $3 }
      $1 == bottom && $2 == c { b = $3 }
      END {
        value = b > 0 ? t / b : 0
        met = target == "" ? "-" : (value >= target ? "met" : "NOT_MET")
        printf "%s %s %.2f %s %s\n", name, c, value, (target == "" ? "-" : target), met
      }' "$means" >>"$summary"
  done
done <<<"$ratios"
for entry in "${web_lines[@]}"; do
  read -r c tcp_cpu web_cpu ratio <<<"$entry"
  awk -v c="$c" -v r="${ratio:-0}" 'BEGIN {
    printf "web_cpu/tcp_cpu %s %.2f 1.50 %s\n", c, r, (r > 0 && r <= 1.5 ? "met" : "NOT_MET") }' >>"$summary"
done
# Each lobby request's p99 at 10,000 online over its p99 at 1,000 (a ceiling).
if [ "${#lobby_lines[@]}" = 2 ]; then
  read -r _ h1 l1 w1 c1 <<<"${lobby_lines[0]}"
  read -r _ h2 l2 w2 c2 <<<"${lobby_lines[1]}"
  for pair in "hello ${h1:-0} ${h2:-0}" "list ${l1:-0} ${l2:-0}" "who ${w1:-0} ${w2:-0}" \
              "challenge ${c1:-0} ${c2:-0}"; do
    read -r kind small large <<<"$pair"
    awk -v k="$kind" -v a="$small" -v b="$large" 'BEGIN {
      r = a > 0 ? b / a : 0
      printf "lobby_%s_p99 10000/1000 %.2f 2.00 %s\n", k, r, (r > 0 && r <= 2 ? "met" : "NOT_MET") }' >>"$summary"
  done
fi
while read -r name c value target met; do
  sign=">="
  [[ "$name" = web_cpu/tcp_cpu || "$name" = lobby_* ]] && sign="<="
  [ "$target" = - ] && sign=""
  printf '%-16s %11s %8s %10s %s\n' "$name" "$c" "$value" "$sign $target" "$met"
done <"$summary"
echo
echo "load average after: $load_after; $elapsed s in all"

# The same as JSON, for comparing runs.
{
  printf '{\n  "commit": "%s",\n  "seconds_per_run": %s,\n' "$commit" "$seconds"
  printf '  "machine": {"cores": %s, "cpu": "%s", "load_before": [%s], "load_after": [%s]},\n' \
    "$(nproc)" "${cpu//\"/}" "${load_before// /, }" "${load_after// /, }"
  printf '  "elapsed_s": %s,\n  "runs": [\n' "$elapsed"
  awk '{ printf "%s    {\"row\": \"%s\", \"connections\": %s, \"moves_per_s\": %s, \"p50_us\": %s, \"p99_us\": %s, \"p999_us\": %s, \"games\": %s, \"errors\": %s}", (NR > 1 ? ",\n" : ""), $1, $2, $3, $4, $5, $6, $7, $8 } END { print "" }' "$results"
  printf '  ],\n  "rows": [\n'
  awk '{ printf "%s    {\"row\": \"%s\", \"connections\": %s, \"moves_per_s\": %s, \"p99_us\": %s}", (NR > 1 ? ",\n" : ""), $1, $2, $3, $4 } END { print "" }' "$means"
  printf '  ],\n  "web": [\n'
  first=1
  for entry in "${web_lines[@]}"; do
    read -r c tcp_cpu web_cpu ratio <<<"$entry"
    [ "$first" = 1 ] || printf ',\n'
    first=0
    printf '    {"connections": %s, "tcp_cpu_us_per_move": %s, "web_cpu_us_per_move": %s}' \
      "$c" "${tcp_cpu:-0}" "${web_cpu:-0}"
  done
  printf '\n  ],\n  "lobby": [\n'
  first=1
  for entry in "${lobby_lines[@]}"; do
    read -r n hello list who challenge <<<"$entry"
    [ "$first" = 1 ] || printf ',\n'
    first=0
    printf '    {"online": %s, "hello_p99_us": %s, "list_p99_us": %s, "who_p99_us": %s, "challenge_p99_us": %s}' \
      "$n" "${hello:-0}" "${list:-0}" "${who:-0}" "${challenge:-0}"
  done
  printf '\n  ],\n  "ratios": [\n'
  awk '{ printf "%s    {\"name\": \"%s\", \"connections\": %s, \"value\": %s, \"target\": %s, \"met\": %s}", (NR > 1 ? ",\n" : ""), $1, ($2 ~ /^[0-9]+$/ ? $2 : "\"" $2 "\""), $3, ($4 == "-" ? "null" : $4), ($5 == "met" ? "true" : "false") } END { print "" }' "$summary"
  printf '  ],\n  "all_met": %s\n}\n' "$(grep -q NOT_MET "$summary" && echo false || echo true)"
} >"$json"
echo "json: $json"
exit "$failed"
