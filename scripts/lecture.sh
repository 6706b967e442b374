#!/usr/bin/env bash
# Serve Kernel Lab to a lecture: two Streamlit workers per core on loopback ports, behind HAProxy on $PORT.
#
# One Streamlit process runs every session's script under one GIL, so it uses at most one core, and its
# sessions' reruns queue for that interpreter. Two per core: 100 simulated students on 2 cores
# (bench/bench_lecture.py) got a p95 of 1.19 s with 2 workers, 0.57 s with 3, 0.34 s with 4, at the same
# CPU per move; each worker costs ~0.5-1 GB of peak memory. A student's session lives in one worker (its websocket, its uploaded files),
# so HAProxy pins each browser to a worker with a cookie it sets on the first response (KLAB_WORKER),
# not by client IP: a classroom behind one NAT is one address. New browsers go to the worker with the
# fewest open connections (websockets), i.e. the fewest students.
#
# A worker that dies is started again on its port; HAProxy's health checks (the app's page, GET /) take it
# out meanwhile, and a browser pinned to it is sent to a living worker, where it reconnects with a new
# session (its view comes back from the URL). HAProxy also limits each browser's request rate and open
# connections (a browser is told apart by a cookie of its own, KLAB_CLIENT), with a far higher ceiling per
# address: a classroom behind one NAT is one address. One SIGTERM or Ctrl-C stops the workers and HAProxy (Ctrl-C in
# a terminal; a script started in the background with & or nohup ignores SIGINT, as every background job does:
# stop it with kill <pid>).
#
#   PORT=8501 WORKERS=$((2 * $(nproc))) ADDRESS=0.0.0.0 bash scripts/lecture.sh
#
# Environment: PORT (default 8501), WORKERS (default 2 × nproc), ADDRESS the balancer listens on (default
# 0.0.0.0: the students' machines), WORKER_PORT_BASE (default PORT+1: workers on WORKER_PORT_BASE ..
# +WORKERS-1, on 127.0.0.1), MALLOC_ARENA_MAX (default 2); the limits, above which HAProxy answers 429:
# CLIENT_REQUESTS_PER_10S (default 300) and CLIENT_CONNECTIONS (30) per browser, ADDRESS_REQUESTS_PER_10S
# (20000) and ADDRESS_CONNECTIONS (4000) per client address. Extra arguments go to every `streamlit run`.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-8501}
WORKERS=${WORKERS:-$((2 * $(nproc)))}
ADDRESS=${ADDRESS:-0.0.0.0}
WORKER_PORT_BASE=${WORKER_PORT_BASE:-$((PORT + 1))}
HAPROXY=${HAPROXY:-$(command -v haproxy || echo /usr/sbin/haproxy)}
# a page open is a few dozen requests and a move one; a browser opens up to 6 connections, and a websocket per tab
CLIENT_REQUESTS_PER_10S=${CLIENT_REQUESTS_PER_10S:-300}
CLIENT_CONNECTIONS=${CLIENT_CONNECTIONS:-30}
ADDRESS_REQUESTS_PER_10S=${ADDRESS_REQUESTS_PER_10S:-20000}
ADDRESS_CONNECTIONS=${ADDRESS_CONNECTIONS:-4000}
# glibc gives each thread that allocates its own malloc arena (up to 8 per core) and keeps freed memory in
# it; Streamlit runs every session's script in a thread of its own. Two arenas: the workers' summed peak RSS
# went from 991 to 806 MB (bench/bench_lecture.py, 100 students, 30 s; 1465 -> 930 MB over 60 s), same moves/s
export MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2}

bash scripts/setup.sh requirements.txt
if [ ! -x "$HAPROXY" ]; then
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -q haproxy
  HAPROXY=$(command -v haproxy || echo /usr/sbin/haproxy)
fi

run_dir=$(mktemp -d "${TMPDIR:-/tmp}/kernel-lab-lecture.XXXXXX")
stopping=0
haproxy_pid=""
declare -a ports pids

stop() {
  stopping=1
  trap '' INT TERM  # a second Ctrl-C must not cut the cleanup short
  trap - EXIT
  local pid
  for pid in "${pids[@]}" $haproxy_pid; do
    kill -TERM "$pid" 2>/dev/null || true
  done
  # Streamlit closes its sessions and exits within a second or two; anything still there after 10 s is killed
  local deadline=$((SECONDS + 10)) alive=1
  while [ $alive = 1 ] && [ $SECONDS -lt $deadline ]; do
    alive=0
    for pid in "${pids[@]}" $haproxy_pid; do
      kill -0 "$pid" 2>/dev/null && alive=1
    done
    [ $alive = 0 ] || sleep 0.1
  done
  for pid in "${pids[@]}" $haproxy_pid; do
    kill -KILL "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  rm -rf "$run_dir"
}
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
trap 'stop' EXIT

start_worker() {
  local i=$1
  shift
  # the other server settings (no file watcher, no usage statistics) come from .streamlit/config.toml
  .venv/bin/python -m streamlit run serve.py \
    --server.port "${ports[$i]}" --server.address 127.0.0.1 --server.headless true \
    "$@" </dev/null >>"$run_dir/worker$i.log" 2>&1 &
  pids[$i]=$!
}

healthy() {
  .venv/bin/python - "$1" <<'EOF'
import sys, urllib.request
try:
    with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/_stcore/health", timeout=2) as r:
        sys.exit(0 if r.read() == b"ok" else 1)
except OSError:
    sys.exit(1)
EOF
}

for ((i = 0; i < WORKERS; i++)); do
  ports[$i]=$((WORKER_PORT_BASE + i))
  start_worker "$i" "$@"
done

# HAProxy starts once every worker answers: it counts a server as up until its checks fail
deadline=$((SECONDS + 180))
for ((i = 0; i < WORKERS; i++)); do
  until healthy "${ports[$i]}"; do
    if ! kill -0 "${pids[$i]}" 2>/dev/null || [ $SECONDS -ge $deadline ]; then
      echo "worker $i (port ${ports[$i]}) did not start:" >&2
      tail -n 30 "$run_dir/worker$i.log" >&2
      exit 1
    fi
    sleep 0.5
  done
done

{
  cat <<EOF
global
    maxconn 8192
    log stderr format short local0 notice

defaults
    mode http
    log global
    option dontlognull
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout http-request 15s
    # an open websocket (/_stcore/stream) is a tunnel: a student may sit through a whole lecture on it
    timeout tunnel 4h
    timeout client-fin 10s
    # a request no worker took (refused, or a kept-alive connection a dead worker closed with no answer) is sent
    # to another worker, not shown to the student as a 502; a slow answer is waited for, never asked again (no
    # response-timeout), and only GET and HEAD are ever sent twice
    retries 2
    option redispatch 1
    retry-on conn-failure empty-response
    # a request whose browser went away while it waited in the queue is dropped, not run for nobody
    option abortonclose

frontend lecture
    bind ${ADDRESS}:${PORT}
    http-request disable-l7-retry unless METH_GET
    # per browser: its KLAB_CLIENT cookie, a random id given on its first response (KLAB_WORKER names the worker,
    # the same for all its students); per address: a whole class behind one NAT stays well below the ceiling
    http-request set-var(txn.client) req.cook(KLAB_CLIENT)
    http-request track-sc0 var(txn.client) table per_client if { var(txn.client) -m found }
    http-request track-sc1 src table per_address
    http-request deny deny_status 429 if { sc_http_req_rate(0) gt ${CLIENT_REQUESTS_PER_10S} } || { sc_conn_cur(0) gt ${CLIENT_CONNECTIONS} }
    http-request deny deny_status 429 if { sc_http_req_rate(1) gt ${ADDRESS_REQUESTS_PER_10S} } || { sc_conn_cur(1) gt ${ADDRESS_CONNECTIONS} }
    http-response add-header Set-Cookie "KLAB_CLIENT=%[uuid]; Path=/; HttpOnly; SameSite=Lax" unless { var(txn.client) -m found }
    default_backend workers

backend per_client
    stick-table type string len 36 size 100k expire 10m store http_req_rate(10s),conn_cur

backend per_address
    stick-table type ipv6 size 100k expire 10m store http_req_rate(10s),conn_cur

backend workers
    # a new browser goes to the worker with the fewest open connections (students' websockets)
    balance leastconn
    # the worker's name in a cookie set on the first response; every later request of that browser (the
    # websocket, uploads to /_stcore/upload_file) carries it and goes to the same worker
    cookie KLAB_WORKER insert indirect nocache httponly
    # healthy = the page a browser asks first answers, not only the server core (/_stcore/health)
    option httpchk
    http-check send meth GET uri /
    http-check expect status 200
    default-server check inter 1s fall 2 rise 2
EOF
  for ((i = 0; i < WORKERS; i++)); do
    echo "    server w$i 127.0.0.1:${ports[$i]} cookie w$i"
  done
} >"$run_dir/haproxy.cfg"

"$HAPROXY" -db -f "$run_dir/haproxy.cfg" </dev/null &
haproxy_pid=$!
shown=$ADDRESS
[ "$ADDRESS" != 0.0.0.0 ] || shown=$(hostname)
echo "Kernel Lab lecture: http://${shown}:${PORT} -> $WORKERS Streamlit workers on 127.0.0.1:${ports[0]}..${ports[$((WORKERS - 1))]} (pids ${pids[*]}; HAProxy pid $haproxy_pid)"

while [ $stopping = 0 ]; do
  # returns when a child exits or a signal arrives (the trap then stops everything)
  exited=""
  wait -n -p exited || true
  [ $stopping = 0 ] || break
  if [ "$exited" = "$haproxy_pid" ]; then
    echo "HAProxy exited; stopping the workers" >&2
    exit 1
  fi
  for ((i = 0; i < WORKERS; i++)); do
    if [ "${pids[$i]}" = "$exited" ] || ! kill -0 "${pids[$i]}" 2>/dev/null; then
      echo "worker $i (port ${ports[$i]}, pid ${pids[$i]}) exited; starting it again" >&2
      tail -n 20 "$run_dir/worker$i.log" >&2
      sleep 1
      start_worker "$i" "$@"
    fi
  done
done
