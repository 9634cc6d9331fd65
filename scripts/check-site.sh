#!/usr/bin/env bash
# check-site.sh SITE_DIR [SHOTS_DIR] — checks a built site with real clients (docs/checks.md):
# the Nu HTML/CSS checker, linkchecker, xmllint, feedparser, icalendar, EPUBCheck, strict JSON, no other
# hosts, axe-core and screenshots in headless Chromium (into SHOTS_DIR, default .build/site-shots).
#
# Prints "PASS|FAIL|SKIP name: summary" per check, under a FAIL one line per problem, and last
# "check-site: N passed, N failed, N skipped". Exits 1 if any check failed, 2 on bad usage.
# A check with nothing to look at (no feeds yet, no .ics, ...) is SKIP. A missing tool is a FAIL
# that says to run `make check-deps` (scripts/install-check-deps.sh).
#
# Environment:
#   CHECK_SKIP=a,b       checks to leave out: html css links xml sitemap feeds ical epub json svg hosts a11y render
#   CHECK_OUT=DIR        logs (one per check), axe-results.json (default: a new folder under /tmp)
#   CHECK_MAX_LINES=N    problem lines shown per check (default 40; all are in the check's log)
#   CHECK_TIMEOUT=S      limit for each check in seconds (default 900)
#   PROLIFIC_CHECK_VENV  the venv of install-check-deps.sh (default ${XDG_CACHE_HOME:-$HOME/.cache}/prolific-check-venv)
#   and those of scripts/check_site.py (A11Y_MAX_PAGES, A11Y_MIN_IMPACT, SHOT_PAGES, CHROMIUM, ...)
set -u

usage() { echo "usage: $0 SITE_DIR [SHOTS_DIR]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
[ -d "$1" ] || { echo "check-site: not a folder: $1" >&2; exit 2; }

SITE=$(cd "$1" && pwd -P)
SHOTS=${2:-.build/site-shots}
mkdir -p "$SHOTS" && SHOTS=$(cd "$SHOTS" && pwd -P)
HELPER="$(cd "$(dirname "$0")" && pwd -P)/check_site.py"
export CHECK_OUT=${CHECK_OUT:-$(mktemp -d /tmp/check-site.XXXXXX)}
mkdir -p "$CHECK_OUT"
TIMEOUT=${CHECK_TIMEOUT:-900}
MAX_LINES=${CHECK_MAX_LINES:-40}
VENV=${PROLIFIC_CHECK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/prolific-check-venv}
if [ -x "$VENV/bin/python3" ]; then PY="$VENV/bin/python3"; else PY=python3; fi

passed=0; failed=0; skipped=0
SERVER_PID=""; URL=""
cleanup() { if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null; wait "$SERVER_PID" 2>/dev/null; fi; }
trap cleanup EXIT

# A local static server for the checks that need HTTP (links, a11y, render); no other host is ever asked.
start_server() {
    [ -n "$URL" ] && return 0
    local log="$CHECK_OUT/http-server.log" port
    "$PY" -u "$HELPER" serve "$SITE" >"$log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 100); do
        port=$(sed -n 's/^Serving HTTP on [0-9.]* port \([0-9]*\).*/\1/p' "$log" | head -n 1)
        if [ -n "$port" ]; then URL="http://127.0.0.1:$port"; return 0; fi
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.1
    done
    return 1
}

# check NAME ARGS...: runs `check_site.py NAME SITE ARGS...`; its last line is the summary, the lines
# before it that start with two spaces are the problems; exit 0/1/2/3 = pass/fail/skip/missing tool.
check() {
    local name=$1; shift
    case ",${CHECK_SKIP:-}," in *",$name,"*) skipped=$((skipped + 1)); echo "SKIP $name: left out by CHECK_SKIP"; return ;; esac
    local log="$CHECK_OUT/$name.log" rc summary start=$SECONDS
    if [ "$name" = links ] || [ "$name" = a11y ] || [ "$name" = render ]; then
        start_server || { failed=$((failed + 1)); echo "FAIL $name: could not start the local HTTP server (see $CHECK_OUT/http-server.log)"; return; }
        set -- "$URL" "$@"
    fi
    timeout "$TIMEOUT" "$PY" "$HELPER" "$name" "$SITE" "$@" >"$log" 2>&1; rc=$?
    summary=$(tail -n 1 "$log")
    case $rc in
        0) passed=$((passed + 1)); echo "PASS $name: $summary ($((SECONDS - start))s)" ;;
        2) skipped=$((skipped + 1)); echo "SKIP $name: $summary" ;;
        *) failed=$((failed + 1))
           case $rc in
               3) echo "FAIL $name: missing tool: $summary" ;;
               124) echo "FAIL $name: timed out after ${TIMEOUT}s (CHECK_TIMEOUT; log $log)" ;;
               *) echo "FAIL $name: $summary ($((SECONDS - start))s)" ;;
           esac
           local n; n=$(grep -c '^  ' "$log")
           grep '^  ' "$log" | head -n "$MAX_LINES" | sed "s/^  /  $name: /"
           [ "$n" -le "$MAX_LINES" ] || echo "  $name: ... and $((n - MAX_LINES)) more in $log"
           # a crash prints no problem lines: show the end of its output
           [ "$n" -gt 0 ] || [ $rc -eq 3 ] || [ $rc -eq 124 ] || tail -n 7 "$log" | sed '$d' | sed "s/^/  $name: /" ;;
    esac
}

echo "check-site: $SITE (logs in $CHECK_OUT, screenshots in $SHOTS)"
check html
check css
check links
check xml
check sitemap
check feeds
check ical
check epub
check json
check svg
check hosts
check a11y
check render "$SHOTS"

echo "check-site: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
