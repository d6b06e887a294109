#!/usr/bin/env bash
# Issue 10 item 1: a new user's install must not compile or download anything outside
# the npm registry, must leave the clone's tree clean, and must not read as a failure
# (issue 27 item 1). This clones the committed tree to a temporary directory and runs
# `npm install`, the README's command, the way a fresh machine would see it:
#   - a fresh HOME (no ~/.npmrc, so no `nodedir`), every npm_config_* variable unset;
#   - cc, gcc, g++, make and python on PATH replaced by stubs that fail and leave a mark,
#     so any attempt to compile (node-gyp) fails the install and this check;
#   - the registry cache of the caller is reused (registry tarballs only: that is allowed).
# Then `git status` must be clean (npm rewrites package-lock.json when it differs from what
# npm would write), and when npm warned EBADENGINE (npm on an older Node than the pin) the
# project's postinstall must have said why that is expected.
# Then it starts the server with `npm start` on a free port and a fresh MUSTER_HOME,
# asks /api/health, and stops it. Run by .ci/run; takes about a minute.
# Usage: scripts/check-clean-install.sh [git ref, default HEAD]
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cache="${npm_config_cache:-${HOME}/.npm}"
work="$(mktemp -d "${TMPDIR:-/tmp}/muster-clean-install.XXXXXX")"
server_pid=""
cleanup() {
  # npm does not pass SIGTERM on to the server: signal the whole process group.
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL -- "-$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "check-clean-install: $*" >&2; exit 1; }

git clone --quiet --no-hardlinks "$repo" "$work/muster"
git -C "$work/muster" checkout --quiet --detach "${1:-HEAD}"

# No compiler, no make, no python: stubs first on PATH record the attempt and fail.
mkdir -p "$work/stubs" "$work/home"
for tool in cc gcc g++ c++ clang clang++ make gmake python python3; do
  printf '#!/bin/sh\necho "%s $*" >> "%s/compiler-calls"\necho "%s is not available in the clean-install check" >&2\nexit 127\n' \
    "$tool" "$work" "$tool" > "$work/stubs/$tool"
  chmod +x "$work/stubs/$tool"
done

for var in $(env | grep -i '^npm_config_' | cut -d= -f1); do unset "$var"; done
for var in $(env | grep -i '^npm_\(lifecycle\|package\|execpath\|node_execpath\|command\)' | cut -d= -f1); do unset "$var"; done
export HOME="$work/home"
export PATH="$work/stubs:$PATH"
export npm_config_cache="$cache"
export npm_config_update_notifier=false

cd "$work/muster"
[[ -z "$(npm config get nodedir 2>/dev/null | grep -v '^null$\|^undefined$\|^$' || true)" ]] || fail "npm still sees a nodedir: $(npm config get nodedir)"

echo "check-clean-install: npm install under $(node --version) (npm $(npm --version)), HOME=$HOME, no compiler on PATH"
npm install --no-audit --no-fund --loglevel=warn 2>&1 | tee "$work/npm-install.log"
[[ "${PIPESTATUS[0]}" -eq 0 ]] || fail "npm install failed"

[[ ! -e "$work/compiler-calls" ]] || fail "the install tried to compile: $(cat "$work/compiler-calls")"
[[ ! -e node_modules/better-sqlite3/build ]] || fail "better-sqlite3 was built from source (node_modules/better-sqlite3/build exists)"
if grep -qi "not yet covered by allowScripts" "$work/npm-install.log"; then fail "packages with install scripts not covered by allowScripts (see the npm install output above)"; fi
dirty="$(git status --porcelain)"
[[ -z "$dirty" ]] || { git diff >&2; fail "npm install left the tree dirty: $dirty"; }
if grep -q "EBADENGINE" "$work/npm-install.log" && ! grep -q "muster: installed. npm itself ran on Node" "$work/npm-install.log"; then
  fail "npm warned EBADENGINE and the postinstall did not explain it"
fi

# Start the server as the README says, on a port that was free a moment ago.
port="$(node_modules/.bin/node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
export MUSTER_HOME="$work/muster-home" PORT="$port"
# In its own session and process group (setsid), so that stopping it reaches the server.
setsid npm start > "$work/server.out" 2> "$work/server.err" &
server_pid=$!

health=""
for _ in $(seq 1 120); do
  if ! kill -0 "$server_pid" 2>/dev/null; then cat "$work/server.err" >&2; fail "the server exited during start"; fi
  health="$(node_modules/.bin/node -e 'fetch(process.argv[1]).then(r=>r.ok?r.text():Promise.reject(new Error(String(r.status)))).then(t=>console.log(t),()=>process.exit(1))' "http://127.0.0.1:$port/api/health" 2>/dev/null || true)"
  [[ -n "$health" ]] && break
  sleep 0.5
done
[[ -n "$health" ]] || { cat "$work/server.err" >&2; fail "no answer from /api/health on port $port"; }
echo "check-clean-install: /api/health -> $health"
grep -q '"status":"ok"' <<<"$health" || fail "health is not ok"

# The server's own pid is in its instance lock; npm exits before the server has stopped.
muster_pid="$(node_modules/.bin/node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).pid' "$MUSTER_HOME/muster.lock")"
kill -TERM -- "-$server_pid"
wait "$server_pid" || true
for _ in $(seq 1 100); do kill -0 "$muster_pid" 2>/dev/null || break; sleep 0.1; done
server_pid=""
! kill -0 "$muster_pid" 2>/dev/null || fail "the server (pid $muster_pid) did not stop within 10 s of SIGTERM"
[[ ! -e "$MUSTER_HOME/muster.lock" ]] || fail "the server did not stop cleanly (its lock is still there)"
echo "check-clean-install: ok"
