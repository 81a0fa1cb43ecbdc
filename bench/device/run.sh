#!/usr/bin/env bash
# bench/device/run.sh: the scale-out benchmark on a bare many-core machine (no Node.js, no PostgreSQL, no
# network), such as the one the `device` tool lends some sessions (docs/benchmarks.md, "Several hosts on
# many cores"). Run from the repository root:   bash bench/device/run.sh   (after bench/device/pack.sh)
# Everything comes from bench/device/out/*.tar.xz, unpacked into /tmp; PostgreSQL 15 runs as an unprivileged
# user with pg_stat_statements. What comes back (in $OUT, default /tmp/device-out): device-log.txt (all
# output), device-summary.txt (machine + the result tables), device-results.json (every result JSON).
#
# What it runs, in this order, within DEVICE_BUDGET_S (default 420):
#   0. bench/machine/wakeups.mjs: what a thread woken from another core costs (DEVICE_WAKEUPS=0 skips it),
#      the unit of a delivery's CPU at 1,000 events/s (docs/benchmarks.md, "What a wake-up costs");
#   1. bench/delivery/scale-out.mjs --hosts=$DEVICE_HOSTS (default 1,2,4) in the CPU-bound configuration
#      (--delay-ms=0 --slots=64 --post-concurrency=32 per host), --count=$DEVICE_COUNT (40000),
#      --rounds=$DEVICE_ROUNDS (3), with the built host of this checkout ("after");
#   2. the same with the host packed from DEVICE_BEFORE's checkout, if pack.sh packed one ("before");
#   (DEVICE_SCALE=0 skips 1 and 2; DEVICE_BEFORE=0 skips 2; DEVICE_SCALE_ARGS adds options, e.g. --apart=1,
#   or --paced=1000 for every host at 1,000 events/s instead of the burst: what a delivery costs as hosts are added,
#   or --host-node-args=--single-threaded-gc: V8's collector on the collecting thread, docs/benchmarks.md "The
#   wake-ups that grow with hosts", to measure on many cores before it could become the default,
#   or --host-node-args=--no-parallel-scavenge: young-generation collections without V8's helper threads,
#   docs/benchmarks.md "Young-generation collections on one thread: tried, not kept",
#   or --host-node-args=--min-semi-space-size=0: V8's own sizing of the young generation instead of the
#   16 MiB floor every host gets from npm start's options, docs/benchmarks.md "A young generation of fixed size")
#   DEVICE_PG_CONF adds postgresql.conf lines (';'-separated); during 1 and 2 a sampler counts what PostgreSQL's
#   active backends wait on (pg-waits-*.txt; DEVICE_PG_WAITS=0 turns it off).
#   3. bench/delivery/run.mjs --backend=both --hosts=2 --rounds=1 --no-bullmq (burst, paced 1,000/s, retries), if time
#      is left (no BullMQ row: pack.sh carries neither Redis nor the bullmq package)
#      (DEVICE_DELIVERY=0 skips it).
# Rehearse here before a device session (a 2-core machine, about 2 minutes; it runs the same way):
#   bash bench/device/pack.sh && OUT=/tmp/devout DEVICE_BUDGET_S=200 DEVICE_COUNT=2000 DEVICE_WARMUP=500 \
#     DEVICE_ROUNDS=1 DEVICE_HOSTS=1,2 bash bench/device/run.sh   # then read /tmp/devout/device-summary.txt
# (A benchmark file that imports a package pack.sh does not carry fails there in its first second.)
set -uo pipefail
START=$(date +%s)
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/out
OUT=${OUT:-/tmp/device-out}
mkdir -p "$OUT"
LOG=$OUT/device-log.txt
: >"$LOG"

BUDGET=${DEVICE_BUDGET_S:-420}
COUNT=${DEVICE_COUNT:-40000}
WARMUP=${DEVICE_WARMUP:-10000}
ROUNDS=${DEVICE_ROUNDS:-3}
HOSTS=${DEVICE_HOSTS:-1,2,4}
AUTOVACUUM=${DEVICE_AUTOVACUUM:-off}
CPU_BOUND="--delay-ms=0 --slots=64 --post-concurrency=32"

now() { date +%s; }
elapsed() { echo $(($(now) - START)); }
left() { echo $((START + BUDGET - $(now))); }
say() { echo "[device +$(elapsed)s] $*"; }

W="" DATA="" PGBIN="" PG_STARTED=0 HOSTLOGS=()
REDIS_PID="" REDIS_DIR="" RECEIVER_PID="" PEERS_TMP="" WATCH_S=20
as_pg_env() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TZ=GMT LC_ALL=C LD_LIBRARY_PATH="$W/pg/libs" "$@"; }
as_pg() { # run "$@" as the unprivileged PostgreSQL user (initdb and postgres refuse root)
  if command -v setpriv >/dev/null 2>&1; then
    as_pg_env "$(command -v setpriv)" --reuid="$PGUID" --regid="$PGGID" --clear-groups -- "$@"
  elif command -v runuser >/dev/null 2>&1; then
    as_pg_env "$(command -v runuser)" -u "$PGUSER" -- "$@"
  else
    as_pg_env python3 -c 'import os,sys; os.setgroups([]); os.setgid(int(sys.argv[1])); os.setuid(int(sys.argv[2])); os.execv(sys.argv[3], sys.argv[3:])' "$PGGID" "$PGUID" "$@"
  fi
}

# The executables of the processes of process group $1 (to show which node / postgres really run).
exes_of_group() {
  local d pg
  for d in /proc/[0-9]*; do
    pg=$(awk '{sub(/.*\) /, ""); print $3}' "$d/stat" 2>/dev/null) || continue
    [ "$pg" = "$1" ] && readlink "$d/exe" 2>/dev/null
  done | sort | uniq -c
}

# Runs one benchmark in a process group of its own, under `timeout`; afterwards kills whatever is left
# in that group (a host orphaned by a SIGKILL). $1 name, $2 seconds, then the command.
run_group() {
  local name=$1 secs=$2
  shift 2
  say "$name: starting (timeout ${secs}s): $*"
  setsid bash -c 'exec timeout -k 15 "$@"' _ "$secs" "$@" &
  local pid=$!
  (for _ in $(seq "$WATCH_S"); do sleep 1 </dev/null >/dev/null 2>&1; kill -0 "$pid" 2>/dev/null || exit 0; done
    echo "[device] $name: executables running in its process group $WATCH_S s in:"; exes_of_group "$pid"
    if exes_of_group "$pid" | grep -v " $W/" | grep -q node; then echo "[device] ASSERTION FAILED: a node outside the bundle runs"; fi
  ) &
  local watcher=$!
  wait "$pid"
  local rc=$?
  kill "$watcher" 2>/dev/null; wait "$watcher" 2>/dev/null
  kill -KILL -- "-$pid" 2>/dev/null
  say "$name: exit code $rc$([ "$rc" = 124 ] && echo ' (timed out: no JSON from it; its per-round lines are above)')"
  return "$rc"
}

# The first of the candidate folders ($3...) that is writable and has $2 KiB free; with $1 = exec, one
# whose files may be executed (no noexec mount); with $1 = disk, not a tmpfs (fsync would be free there).
pick_root() {
  local need=$1 min=$2 d t
  shift 2
  for d in "$@"; do
    [ -d "$d" ] && [ -w "$d" ] || continue
    [ "$(df -Pk "$d" | awk 'NR==2{print $4}')" -ge "$min" ] 2>/dev/null || continue
    [ "$need" = disk ] && [ "$(stat -f -c %T "$d")" = tmpfs ] && continue
    if [ "$need" = exec ]; then
      t=$(mktemp "$d/.device-exec.XXXXXX") || continue
      printf '#!/bin/sh\nexit 0\n' >"$t" && chmod 755 "$t"
      if ! "$t" 2>/dev/null; then rm -f "$t"; continue; fi
      rm -f "$t"
    fi
    echo "$d"
    return 0
  done
  return 1
}

# Stops process $1 (started by this script) by PID if it still runs the executable $2: SIGTERM, up to 10 s, SIGKILL.
stop_pid() {
  local pid=$1 exe=$2
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$(readlink -f "$exe")" ] || return 0 # not ours any more
  kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null
}

cleanup() {
  if [ -n "$RECEIVER_PID" ]; then stop_pid "$RECEIVER_PID" "$W/node/bin/node"; wait "$RECEIVER_PID" 2>/dev/null; RECEIVER_PID=""; fi
  if [ "$PG_STARTED" = 1 ]; then
    as_pg "$PGBIN/pg_ctl" -D "$DATA" -m fast -w -t 30 stop >/dev/null 2>&1 || true
    PG_STARTED=0
  fi
  if [ -z "${DEVICE_KEEP:-}" ]; then
    [ -n "$W" ] && rm -rf "$W"
    [ -n "$DATA" ] && rm -rf "$(dirname "$DATA")"
    for d in "${HOSTLOGS[@]}"; do rm -rf "$d"; done
  fi
}

main() {
  trap cleanup EXIT
  say "run.sh from $HERE, OUT=$OUT, budget ${BUDGET}s"
  # ---- a. the machine ---------------------------------------------------------------------------------
  echo "nproc: $(nproc)"
  echo "machine: $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM, $( . /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-unknown OS}"), kernel $(uname -r), $(ldd --version 2>/dev/null | head -1 | sed 's/^ldd //')"
  echo "cgroup cpu.max: $(cat /sys/fs/cgroup/cpu.max 2>/dev/null || echo none); load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "/tmp: $(df -hT /tmp | awk 'NR==2{print $2", "$4" free"}'); /dev/shm: $(df -h /dev/shm 2>/dev/null | awk 'NR==2{print $2}')"
  echo "system node: $(command -v node || echo none); system postgres: $(command -v postgres || ls /usr/lib/postgresql/*/bin/postgres 2>/dev/null || echo none); system redis-server: $(command -v redis-server || echo none)"
  ulimit -n 65536 2>/dev/null || true

  # ---- unpack --------------------------------------------------------------------------------------------
  local wroot
  wroot=$(pick_root exec 1048576 /tmp /var/tmp /dev/shm) || { echo "no folder with 1 GiB free that allows executables (/tmp, /var/tmp, /dev/shm)"; return 1; }
  [ "$wroot" = /tmp ] || echo "NOTE: /tmp is full or noexec: unpacking into $wroot"
  W=$(mktemp -d "$wroot/device.XXXXXX") && chmod 755 "$W" && touch "$W/.start" || { echo "cannot make a folder in $wroot"; return 1; }
  unxz() { if xz --version >/dev/null 2>&1; then xz -dc "$1"; else python3 -c 'import lzma,shutil,sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer, 1<<20)' "$1"; fi; }
  local part pids=() parts="node pg app"
  [ -f "$HERE/before.tar.xz" ] && [ "${DEVICE_BEFORE:-1}" = 1 ] && parts="$parts before"
  for part in $parts; do (unxz "$HERE/$part.tar.xz" | tar -C "$W" -xf -) & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p" || { echo "unpacking failed"; return 1; }; done
  say "unpacked into $W ($(du -sh "$W" | cut -f1))"

  NODE=$W/node/bin/node
  if ! "$NODE" -v >/dev/null 2>&1; then
    # No libstdc++/libgcc_s on this machine: the hosts are spawned with a minimal environment (no
    # LD_LIBRARY_PATH), so register the carried copies with the dynamic loader instead.
    echo "node does not start with the system's libraries:"; ldd "$NODE" | grep 'not found'
    mkdir -p /usr/local/lib/device-node && cp "$W"/node/lib/* /usr/local/lib/device-node/
    echo /usr/local/lib/device-node >/etc/ld.so.conf.d/device-node.conf && ldconfig
    "$NODE" -v >/dev/null 2>&1 || { echo "node still does not start"; ldd "$NODE"; return 1; }
    echo "using the carried libstdc++ / libgcc_s (registered in /etc/ld.so.conf.d/device-node.conf)"
  fi
  mkdir -p "$W/shim"
  command -v getconf >/dev/null 2>&1 || printf '#!/bin/sh\necho 100\n' >"$W/shim/getconf"
  chmod 755 "$W/shim"/* 2>/dev/null
  export PATH="$W/node/bin:$PATH:$W/shim"
  echo "node used: $NODE ($("$NODE" -v)); \`command -v node\` now: $(command -v node)"

  # ---- PostgreSQL as an unprivileged user, on a free port, 127.0.0.1 only --------------------------------
  PGBIN=$W/pg/usr/lib/postgresql/15/bin
  if getent passwd 65534 >/dev/null 2>&1; then PGUID=65534; PGGID=$(getent passwd 65534 | cut -d: -f4)
  else useradd -r -M -s /usr/sbin/nologin devicepg && PGUID=$(id -u devicepg) && PGGID=$(id -g devicepg) || { echo "no unprivileged user"; return 1; }; fi
  PGUSER=$(getent passwd "$PGUID" | cut -d: -f1)
  local root
  # the data on disk with room for the WAL (max_wal_size 4GB) and the tables: 12 GiB free, else what there is
  root=$(pick_root disk 12582912 /tmp /var/tmp) || root=$(pick_root any 4194304 /tmp /var/tmp) || root=/tmp
  [ "$(stat -f -c %T "$root")" = tmpfs ] && echo "WARNING: PostgreSQL's data is on tmpfs: commits do not reach a disk (fsync is free)"
  local pgroot; pgroot=$(mktemp -d "$root/device-pg.XXXXXX") && chmod 755 "$pgroot"
  DATA=$pgroot/data
  mkdir -p "$DATA" "$pgroot/sock" "$pgroot/log" && chown "$PGUID:$PGGID" "$DATA" "$pgroot/sock" "$pgroot/log" && chmod 700 "$DATA"
  local PORT
  PORT=$("$NODE" -e '
    const net = require("net");
    (async () => { for (let p = 25432; p < 25632; p++) {
      const ok = await new Promise((r) => { const s = net.createServer(); s.once("error", () => r(false)); s.listen(p, "127.0.0.1", () => s.close(() => r(true))); });
      if (ok) { console.log(p); return; } } process.exit(1); })();') || { echo "no free port"; return 1; }
  local locale=C.UTF-8
  if ! as_pg "$PGBIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync >"$pgroot/log/initdb.log" 2>&1; then
    echo "initdb with C.UTF-8 failed ($(tail -1 "$pgroot/log/initdb.log")); trying locale C"
    rm -rf "${DATA:?}"/* && locale=C
    as_pg "$PGBIN/initdb" -D "$DATA" -U postgres --auth=trust -E UTF8 --locale=C --no-sync >"$pgroot/log/initdb.log" 2>&1 \
      || { cat "$pgroot/log/initdb.log"; return 1; }
  fi
  local dsm=posix
  [ "$(df -k /dev/shm 2>/dev/null | awk 'NR==2{print $2}')" -ge 1048576 ] 2>/dev/null || dsm=mmap
  cat >>"$DATA/postgresql.conf" <<EOF
# --- bench/device/run.sh ---
listen_addresses = '127.0.0.1'
port = $PORT
unix_socket_directories = '$pgroot/sock'
max_connections = 300
shared_buffers = 2GB
max_wal_size = 4GB
synchronous_commit = on
fsync = on
shared_preload_libraries = 'pg_stat_statements'
autovacuum = $AUTOVACUUM
jit = off  # llvmjit.so (libLLVM, 100 MB) is not carried: no JIT either way
dynamic_shared_memory_type = $dsm
timezone = 'GMT'
log_timezone = 'GMT'
EOF
  # DEVICE_PG_CONF: extra postgresql.conf lines, separated by ';' (e.g. 'commit_delay = 100;commit_siblings = 2')
  if [ -n "${DEVICE_PG_CONF:-}" ]; then
    tr ';' '\n' <<<"$DEVICE_PG_CONF" >>"$DATA/postgresql.conf"
    say "extra PostgreSQL settings: $DEVICE_PG_CONF"
  fi
  as_pg "$PGBIN/pg_ctl" -D "$DATA" -l "$pgroot/log/postgres.log" -w -t 60 start >/dev/null \
    || { echo "PostgreSQL did not start:"; tail -20 "$pgroot/log/postgres.log"; return 1; }
  PG_STARTED=1
  local pgpid; pgpid=$(head -1 "$DATA/postmaster.pid")
  say "PostgreSQL started: port $PORT, data $DATA ($(stat -f -c %T "$DATA")), locale $locale, user $PGUSER ($PGUID), dsm $dsm, exe $(readlink /proc/"$pgpid"/exe)"
  echo "libraries the postmaster mapped from outside the bundle (glibc's own expected): $(grep -oE '/[^ ]+\.so[^ ]*' /proc/"$pgpid"/maps | sort -u | grep -v "^$W/" | xargs -r -n1 basename | tr '\n' ' ')"
  local URL=postgres://postgres@127.0.0.1:$PORT/test
  (cd "$W/app" && "$NODE" -e '
    const pg = require("pg");
    (async () => {
      const base = process.argv[1].replace(/\/test$/, "/postgres");
      const a = new pg.Client({ connectionString: base }); await a.connect(); await a.query("CREATE DATABASE test"); await a.end();
      const c = new pg.Client({ connectionString: process.argv[1] }); await c.connect();
      await c.query("CREATE EXTENSION pg_stat_statements");
      const v = (await c.query("SELECT version()")).rows[0].version;
      const s = (await c.query("SELECT name, current_setting(name) AS v FROM pg_settings WHERE name IN (\x27max_connections\x27,\x27shared_buffers\x27,\x27synchronous_commit\x27,\x27fsync\x27,\x27autovacuum\x27,\x27max_wal_size\x27,\x27wal_sync_method\x27,\x27huge_pages\x27,\x27lc_collate\x27,\x27jit\x27,\x27commit_delay\x27,\x27commit_siblings\x27,\x27wal_buffers\x27) ORDER BY 1")).rows;
      console.log(v); console.log(s.map((r) => `${r.name}=${r.v}`).join(" "));
      await c.end();
    })().catch((e) => { console.error(e); process.exit(1); });' "$URL") || return 1

  # ---- 0. what a wake-up costs this machine (bench/machine/wakeups.mjs, about 40 s; DEVICE_WAKEUPS=0 skips it) --
  if [ "${DEVICE_WAKEUPS:-1}" = 1 ] && [ -f "$W/app/bench/machine/wakeups.mjs" ]; then
    say "wake-ups: bench/machine/wakeups.mjs --seconds=2 --rounds=2"
    (cd "$W/app" && timeout 90 "$NODE" bench/machine/wakeups.mjs --seconds=2 --rounds=2) || say "wake-ups: failed or timed out (rc $?)"
  fi

  # ---- 1. and 2. bench:scale-out, CPU-bound, 1/2/4 hosts on one database: this checkout's host, then "before" --
  local variants="app" v t
  [ -d "$W/before" ] && variants="app before"
  [ "${DEVICE_SCALE:-1}" = 0 ] && variants="" && say "scale-out skipped (DEVICE_SCALE=0)"
  for v in $variants; do
    if [ "$v" = before ]; then
      # the same benchmark files, the host packed from the other checkout
      cp -a "$W/app" "$W/app-before" && rm -rf "$W/app-before/packages" && cp -a "$W/before/packages" "$W/app-before/packages"
      v=app-before
    fi
    t=$(( $(left) - 30 )); [ "$v" = app ] && [ -d "$W/before" ] && t=$(( t / 2 ))
    [ "${DEVICE_DELIVERY:-1}" = 1 ] && t=$(( t * 2 / 3 ))
    [ "$t" -gt 400 ] && t=400
    if [ "$t" -lt 60 ]; then say "scale-out ($v) skipped: only ${t}s"; continue; fi
    # What PostgreSQL's busy backends wait on, sampled every 50 ms during the run (DEVICE_PG_WAITS=0: off):
    # counts per wait event in $OUT/pg-waits-$v.txt (where the server's commit path spends its time).
    local sampler=""
    if [ "${DEVICE_PG_WAITS:-1}" = 1 ]; then
      (cd "$W/app" && exec "$NODE" -e '
        const pg = require("pg"); const fs = require("fs");
        const c = new pg.Client({ connectionString: process.argv[1] }); const counts = new Map(); let samples = 0;
        const dump = () => { const rows = [...counts].sort((a, b) => b[1] - a[1]);
          fs.writeFileSync(process.argv[2], `${samples} samples of active backends every 50 ms\n` + rows.map(([k, n]) => `${(n / Math.max(samples, 1)).toFixed(2).padStart(7)} ${k}`).join("\n") + "\n"); };
        process.on("SIGTERM", () => { dump(); process.exit(0); });
        (async () => { await c.connect();
          for (;;) { const r = await c.query("SELECT coalesce(wait_event_type, \x27CPU\x27) AS t, coalesce(wait_event, \x27running\x27) AS e, count(*)::int AS n FROM pg_stat_activity WHERE state = \x27active\x27 AND pid <> pg_backend_pid() AND backend_type = \x27client backend\x27 GROUP BY 1, 2");
            samples++; for (const x of r.rows) counts.set(`${x.t}:${x.e}`, (counts.get(`${x.t}:${x.e}`) ?? 0) + x.n);
            if (samples % 100 === 0) dump(); await new Promise((res) => setTimeout(res, 50)); } })().catch((e) => { console.error("pg wait sampler:", e.message); dump(); });' "$URL" "$OUT/pg-waits-$v.txt") &
      sampler=$!
    fi
    (cd "$W/$v" && run_group "scale-out ($v)" "$t" "$NODE" bench/delivery/scale-out.mjs $CPU_BOUND \
      --hosts="$HOSTS" --count="$COUNT" --warmup="$WARMUP" --rounds="$ROUNDS" ${DEVICE_SCALE_ARGS:-} --database-url="$URL")
    if [ -n "$sampler" ]; then kill -TERM "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null; cat "$OUT/pg-waits-$v.txt" 2>/dev/null | head -15; fi
  done

  # ---- 3. bench:delivery on both backends, two hosts on PostgreSQL (burst, paced 1,000/s, retries) ------------
  local td=$(( $(left) - 25 ))
  if [ "${DEVICE_DELIVERY:-1}" = 0 ]; then say "bench:delivery skipped (DEVICE_DELIVERY=0)"
  elif [ "$td" -lt 60 ]; then say "bench:delivery skipped: only ${td}s left"
  else
    (cd "$W/app" && run_group delivery "$td" "$NODE" bench/delivery/run.mjs --backend=both --hosts=2 \
      --rounds=1 --no-bullmq --database-url="$URL")
  fi

  # ---- results -----------------------------------------------------------------------------------------
  as_pg "$PGBIN/pg_ctl" -D "$DATA" -m fast -w -t 30 stop >/dev/null 2>&1; PG_STARTED=0
  local keep=$W/keep
  mkdir -p "$keep"
  cp -a "$W/app/bench/results" "$keep/results"
  [ -d "$W/app-before/bench/results" ] && cp -a "$W/app-before/bench/results" "$keep/results-before"
  cp -a "$pgroot/log" "$keep/postgres-log"
  cp "$DATA/postgresql.conf" "$keep/postgres-log/" 2>/dev/null
  mapfile -t HOSTLOGS < <(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'platform-bench-*-logs-*' -newer "$W/.start" 2>/dev/null)
  for d in "${HOSTLOGS[@]}"; do cp -a "$d" "$keep/"; done
  tar -C "$keep" -czf "$OUT/device-results.tar.gz" . && say "wrote $OUT/device-results.tar.gz"
  "$NODE" -e '
    const fs = require("fs"); const dir = process.argv[1];
    const all = ["results", "results-before"].filter((d) => fs.existsSync(`${dir}/${d}`)).flatMap((d) =>
      fs.readdirSync(`${dir}/${d}`).filter((f) => f.endsWith(".json")).sort().map((f) => ({ file: `${d}/${f}`, content: JSON.parse(fs.readFileSync(`${dir}/${d}/${f}`, "utf8")) })));
    fs.writeFileSync(process.argv[2], JSON.stringify(all, null, 1) + "\n"); console.log(`${all.length} result JSON file(s) into ${process.argv[2]}`);' \
    "$keep" "$OUT/device-results.json"
  say "done"
}

main 2>&1 | tee -a "$LOG"
rc=${PIPESTATUS[0]}
# The summary: the machine, the per-round lines and the tables, from the log.
{
  grep -E '^(nproc|machine|cgroup|/tmp|system node|node used|PostgreSQL 15|\[device .*PostgreSQL started|kernel command line|ping-pong|a timer every|a 1 ms ticker)' "$LOG"
  awk '/^\[device .*: starting/{print; p=1; next} /^\[device .*: exit code/{print; p=0; print ""} p && !/^\[device/{print}' "$LOG" |
    grep -vE '^(  warm|warming)' | cut -c1-400
  grep -E 'ASSERTION|skipped' "$LOG"
} >"$OUT/device-summary.txt"
echo "[device] exit $rc after $(( $(date +%s) - START ))s; files in $OUT: $(ls "$OUT" | tr '\n' ' ')" | tee -a "$LOG"
echo "===== device-summary.txt ====="
cat "$OUT/device-summary.txt"
exit "$rc"
