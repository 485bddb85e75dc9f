#!/usr/bin/env bash
# Type-check folders of the cardref package with mypy, with the folder mapping visible.
#
# The editable install maps engine/ -> cardref.engine and so on through an import hook that
# type checkers do not run, so this script lays a farm of symbolic links in a temporary
# folder (cardref/engine -> engine/, ...) and points mypy at it.  Usage:
#   tools/typecheck.sh            # engine/ (the #30 target)
#   tools/typecheck.sh engine vision
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
farm="$(mktemp -d)"
trap 'rm -rf "$farm"' EXIT
mkdir -p "$farm/cardref"
for entry in cardref/*; do ln -s "$root/$entry" "$farm/cardref/$(basename "$entry")"; done
for folder in engine vision ui datasets recorder models; do ln -s "$root/$folder" "$farm/cardref/$folder"; done
targets=()
for folder in "${@:-engine}"; do targets+=("$farm/cardref/$folder"); done
cd "$farm"
MYPYPATH="$farm" "$root/.venv/bin/python" -m mypy --follow-imports=silent --ignore-missing-imports \
    --no-error-summary --show-error-codes --cache-dir "$farm/.mypy_cache" "${targets[@]}" \
    | sed "s#$farm/cardref/#  #; s#^cardref/##"
