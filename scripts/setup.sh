#!/usr/bin/env bash
# Installs what building Prolific needs and is missing: pkg-config, libcmark (Debian: libcmark-dev),
# jemalloc (libjemalloc-dev, for the release binaries) and libcurl (libcurl4-openssl-dev, for the
# release prolific-serve),
# and what its tests run: rsync (the cron recipe in docs/examples/cron/), groff, git.
set -euo pipefail

need=()
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libcmark; then
  need+=(libcmark-dev)
fi
# The release binary links jemalloc (Package.swift); `gcc -print-file-name` gives a path only if found.
case "$(gcc -print-file-name=libjemalloc.so 2>/dev/null)" in
  /*) ;;
  *) need+=(libjemalloc-dev) ;;
esac
# The release prolific-serve links Foundation statically (`make release`), and with it
# FoundationNetworking, which links libcurl.
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libcurl; then
  need+=(libcurl4-openssl-dev)
fi
command -v python3 >/dev/null 2>&1 || need+=(python3)
command -v rsync >/dev/null 2>&1 || need+=(rsync)
command -v groff >/dev/null 2>&1 || need+=(groff-base)   # the man page test renders prolific.1
command -v git >/dev/null 2>&1 || need+=(git)            # check --since, --commit and their tests

if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup: need root (or sudo) to install ${need[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

command -v swift >/dev/null 2>&1 || { echo "setup: Swift 6.2 or later is required (https://swift.org/install)" >&2; exit 1; }
swift_version="$(swift --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9.]*\).*/\1/p' | head -1)"
case "$swift_version" in
  [0-5].* | 6.[01] | 6.[01].*)
    echo "setup: Swift 6.2 or later is required (swift-subprocess needs it); found $swift_version" >&2; exit 1 ;;
esac
echo "setup: swift $swift_version, libcmark $(pkg-config --modversion libcmark)" >&2
