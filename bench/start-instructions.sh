#!/bin/bash
# Instructions from spawning the built server to its first page and exit, counted by callgrind:
# the same for the same build whatever else the machine does (docs/benchmark.md). Run it twice:
# the first run fills the compile cache. Usage: [DATA_DIR=folder] bench/start-instructions.sh [checkout]
# (a new data folder each run unless DATA_DIR names one: a replica's start on a database it made).
set -euo pipefail
root=$(cd "${1:-.}" && pwd)
port=${PORT:-3999}
data=${DATA_DIR:-$(mktemp -d)}
out=$(mktemp)
trap '[ -n "${DATA_DIR:-}" ] || rm -rf "$data"; rm -f "$out"' EXIT
cd "$root"
NODE_ENV=production HOST=127.0.0.1 PORT=$port METRICS_PORT=0 DATA_DIR=$data LOG_LEVEL=warn \
  NODE_COMPILE_CACHE=$root/dist/compile-cache NODE_OPTIONS='--max-semi-space-size=2 --max-old-space-size=256' \
  valgrind --tool=callgrind --callgrind-out-file="$out" node_modules/.bin/node --no-maglev dist/node/server.js \
  >/dev/null 2>&1 &
server=$!
status=000
for _ in $(seq 1 600); do
  status=$(curl -s -o /dev/null -w '%{http_code}' -H 'accept: text/html' "http://127.0.0.1:$port/" || true)
  [ "$status" = 200 ] && break
  sleep 0.2
done
kill -TERM "$server"
wait "$server" || true
[ "$status" = 200 ] || { echo "no first page (HTTP $status)" >&2; exit 1; }
grep -E '^summary:' "$out" | awk '{ printf "%.3f billion instructions\n", $2 / 1e9 }'
