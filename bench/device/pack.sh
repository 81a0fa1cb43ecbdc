#!/usr/bin/env bash
# bench/device/pack.sh: packs what bench/device/run.sh needs on a bare many-core machine into
# bench/device/out/ (git-ignored): this machine's Node binary, Debian's PostgreSQL 15 with the shared
# libraries it needs, and the built host with only the node_modules it loads (about 45 MiB together; the
# device tool carries at most 64 MiB). Run on the project's Debian 12 machine after `npm run build`:
#   bash bench/device/pack.sh [a checkout of the "before" build, built]
# With a second checkout, its packages/*/dist go into before.tar.xz, and run.sh measures both builds with
# the same benchmark files in the same run. Then: the device tool with `bash bench/device/run.sh` and
# carry ["bench/device/out"] (docs/benchmarks.md, "Several hosts on many cores").
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
MAIN=$(cd "$HERE/../.." && pwd)
BEFORE=${1:-}
PARTS=${PARTS:-node pg app}
[ -n "$BEFORE" ] && [[ " $PARTS " != *" before "* ]] && PARTS="$PARTS before"
OUTDIR=$HERE/out
mkdir -p "$OUTDIR"
want() { [[ " $PARTS " == *" $1 "* ]]; }
if [ -n "${STAGE_DIR:-}" ]; then S=$STAGE_DIR; rm -rf "$S"; mkdir -p "$S"; else
  S=$(mktemp -d /tmp/device-stage.XXXXXX); trap 'rm -rf "$S"' EXIT; fi

# --- node: the machine's own binary (v20, nodesource build: needs only glibc, libstdc++, libgcc_s) ----
if want node; then
mkdir -p "$S/node/bin" "$S/node/lib"
cp -a "$(readlink -f "$(command -v node)")" "$S/node/bin/node"
# fallback only (used by run.sh if the far side lacks them): the C++ runtime node links against
for l in libstdc++.so.6 libgcc_s.so.1; do cp -L "$(ldd "$S/node/bin/node" | awk -v l=$l '$1==l{print $3}')" "$S/node/lib/$l"; done
fi

# --- PostgreSQL 15 (Debian's), laid out as under / so that its relocatable paths resolve -------------
if want pg; then
P=$S/pg
mkdir -p "$P/usr/lib/postgresql/15/bin" "$P/usr/lib/postgresql/15/lib" "$P/usr/share/postgresql" "$P/libs"
for b in postgres initdb pg_ctl pg_controldata; do cp -a /usr/lib/postgresql/15/bin/$b "$P/usr/lib/postgresql/15/bin/"; done
for f in /usr/lib/postgresql/15/lib/*.so; do
  case "$(basename "$f")" in llvmjit.so | sepgsql.so) continue ;; esac # no JIT (libLLVM), no SELinux
  cp -a "$f" "$P/usr/lib/postgresql/15/lib/"
done
cp -a /usr/share/postgresql/15 "$P/usr/share/postgresql/15"
rm -rf "$P/usr/share/postgresql/15/man"
{
  ldd "$P"/usr/lib/postgresql/15/bin/*
  for f in "$P"/usr/lib/postgresql/15/lib/*.so; do ldd "$f"; done
} 2>/dev/null | awk '/=> \//{print $1" "$3}' | sort -u | while read -r name path; do
  case "$name" in libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | libresolv.so.* | ld-linux* | libutil.so.*) continue ;; esac
  cp -L "$path" "$P/libs/$name"
done
fi

# --- the app: built files + only the node_modules the benchmark and host load at run time -------------
if want app; then
A=$S/app
mkdir -p "$A/bench/delivery" "$A/bench/results" "$A/node_modules/@platform"
cp -a "$MAIN/package.json" "$A/"
cp -a "$MAIN"/bench/delivery/*.mjs "$A/bench/delivery/"
mkdir -p "$A/bench/machine" && cp -a "$MAIN"/bench/machine/wakeups.mjs "$A/bench/machine/"
for p in $(cd "$MAIN" && node bench/device/closure.mjs --linked); do
  mkdir -p "$A/packages/$p"
  cp -a "$MAIN/packages/$p/package.json" "$MAIN/packages/$p/dist" "$A/packages/$p/"
  ln -s "../../packages/$p" "$A/node_modules/@platform/$p"
done
mkdir -p "$A/integrations/webhook"
cp -a "$MAIN"/integrations/webhook/{package.json,dist,assets,src,platform-manifest.yaml} "$A/integrations/webhook/"
ln -s ../../integrations/webhook "$A/node_modules/@platform/integration-webhook"
# The production dependency closure of the packages the host and the benchmark load, less what is handled
# below (better-sqlite3, miniflare and workerd) and what never loads in a benchmark (the bundler's esbuild):
# bench/device/closure.mjs, which imports.test.mjs also reads.
NM=$MAIN/node_modules
CLOSURE=$(cd "$MAIN" && node bench/device/closure.mjs)
for p in $CLOSURE; do
  mkdir -p "$A/node_modules/$(dirname "$p")"
  cp -a "$NM/$p" "$A/node_modules/$p"
done
rm -rf "$A/node_modules/zod/src"
# better-sqlite3 (imported by the host; its addon loads only for SQLite): JS + the built addon
mkdir -p "$A/node_modules/better-sqlite3/build/Release"
cp -a "$NM/better-sqlite3/"{package.json,lib} "$A/node_modules/better-sqlite3/"
cp -a "$NM/better-sqlite3/build/Release/better_sqlite3.node" "$A/node_modules/better-sqlite3/build/Release/"
# miniflare is imported at start-up (third-party integrations run in workerd), never started by the
# benchmark (the built-in webhook integration runs in-process): its JS entry, and workerd's path resolver
# with a stand-in for the 124 MB workerd binary (resolved by path at import, never executed here).
mkdir -p "$A/node_modules/miniflare/dist/src" "$A/node_modules/workerd" "$A/node_modules/@cloudflare/workerd-linux-64/bin"
cp -a "$NM/miniflare/"{package.json,bootstrap.js} "$A/node_modules/miniflare/"
cp -a "$NM/miniflare/dist/src/index.js" "$A/node_modules/miniflare/dist/src/"
cp -a "$NM/workerd/"{package.json,lib} "$A/node_modules/workerd/"
cp -a "$NM/@cloudflare/workerd-linux-64/package.json" "$A/node_modules/@cloudflare/workerd-linux-64/"
printf '#!/bin/sh\necho "workerd is not carried in the bench/device bundle (third-party integrations only)" >&2\nexit 1\n' \
  >"$A/node_modules/@cloudflare/workerd-linux-64/bin/workerd"
chmod 755 "$A/node_modules/@cloudflare/workerd-linux-64/bin/workerd"
# never loaded at run time: source maps, type declarations, docs
find "$A" -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.md' -o -name '*.markdown' \) -delete
fi

# --- before: the other checkout's built packages (the same layout), for an A/B in one run ---------------------
if want before; then
for p in $(cd "$MAIN" && node bench/device/closure.mjs --linked); do
  mkdir -p "$S/before/packages/$p"
  cp -a "$BEFORE/packages/$p/package.json" "$BEFORE/packages/$p/dist" "$S/before/packages/$p/"
done
find "$S/before" -type f \( -name '*.map' -o -name '*.d.ts' \) -delete
fi

du -sh "$S"/*
[ -n "${STAGE_ONLY:-}" ] && exit 0
for part in $PARTS; do
  tar -C "$S" -cf - "$part" | xz -9e -T2 >"$OUTDIR/$part.tar.xz.tmp"
  mv "$OUTDIR/$part.tar.xz.tmp" "$OUTDIR/$part.tar.xz"
done
ls -la "$OUTDIR"; du -sh "$OUTDIR"
