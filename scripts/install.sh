#!/usr/bin/env bash
# Installs (or with --uninstall removes) prolific: the binary and prolific-serve (which
# `prolific serve` runs from the same folder, taken from beside BINARY), its man page and its bash,
# zsh and fish completions, each in its standard place under DESTDIR/PREFIX. `make install` runs it.
#
#   scripts/install.sh BINARY DESTDIR PREFIX
#   scripts/install.sh --uninstall DESTDIR PREFIX
#
# The man page and the completions are generated from the binary's own argument parser
# (scripts/manual.py, `prolific --generate-completion-script`), so they always match it.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"

if [ "${1:-}" = "--uninstall" ]; then
  [ $# -eq 3 ] || { echo "usage: $0 --uninstall DESTDIR PREFIX" >&2; exit 64; }
  root="$2$3"
else
  [ $# -eq 3 ] || { echo "usage: $0 BINARY DESTDIR PREFIX" >&2; exit 64; }
  binary="$1"
  root="$2$3"
  [ -x "$binary" ] || { echo "install: no prolific binary at '$binary' (run 'make release')" >&2; exit 1; }
  server="$(dirname "$binary")/prolific-serve"
  [ -x "$server" ] || { echo "install: no prolific-serve beside '$binary' (run 'make release')" >&2; exit 1; }
fi

bin="$root/bin/prolific"
serve_bin="$root/bin/prolific-serve"
man="$root/share/man/man1/prolific.1"
bash_completion="$root/share/bash-completion/completions/prolific"
zsh_completion="$root/share/zsh/site-functions/_prolific"
fish_completion="$root/share/fish/vendor_completions.d/prolific.fish"

if [ "${1:-}" = "--uninstall" ]; then
  for file in "$bin" "$serve_bin" "$man" "$bash_completion" "$zsh_completion" "$fish_completion"; do
    if [ -e "$file" ]; then rm -f "$file" && echo "removed $file"; fi
  done
  exit 0
fi

# Generate everything first, so a failure installs nothing.
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
python3 "$here/manual.py" "$binary" > "$staging/prolific.1"
for shell in bash zsh fish; do
  "$binary" --generate-completion-script "$shell" > "$staging/completion.$shell"
done

install -d "$(dirname "$bin")" "$(dirname "$man")" "$(dirname "$bash_completion")" \
  "$(dirname "$zsh_completion")" "$(dirname "$fish_completion")"
install -m 755 "$binary" "$bin"
install -m 755 "$server" "$serve_bin"
install -m 644 "$staging/prolific.1" "$man"
install -m 644 "$staging/completion.bash" "$bash_completion"
install -m 644 "$staging/completion.zsh" "$zsh_completion"
install -m 644 "$staging/completion.fish" "$fish_completion"
for file in "$bin" "$serve_bin" "$man" "$bash_completion" "$zsh_completion" "$fish_completion"; do echo "installed $file"; done
