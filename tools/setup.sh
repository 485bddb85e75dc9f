#!/usr/bin/env bash
# Sets up cardref on a fresh Debian machine: system packages, .venv/ at the repository
# root, pinned PyTorch, and the project with every extra.  Safe to run again: it skips
# what is already done.  `--test` also installs what the test suite needs (Chromium for
# the browser test, PostgreSQL for the store tests); `--train` the background pictures
# the synthetic data generator composes scenes on.
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
want_train=0
for arg in "$@"; do
  case "$arg" in
    --test) want_test=1 ;;
    --train) want_train=1 ;;
    *) echo "usage: tools/setup.sh [--test] [--train]" >&2; exit 2 ;;
  esac
done

log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

# --- system packages: card artwork (rendering), a Chinese font (dashboard pictures), the rank
#     typefaces of the drawn decks (datasets/drawn_decks.py);
#     test-only: chromium + chromedriver (browser test), postgresql (store tests);
#     --train: photographic and texture backgrounds for the synthetic training scenes, and the
#     typefaces whose suit and rank glyphs print the namer's font indices (datasets/glyph_indices.py) ---
apt_pkgs=(librsvg2-bin gnome-cards-data kdegames-card-data-kf5 fonts-dejavu-core fonts-wqy-microhei
          fonts-liberation fonts-freefont-ttf fonts-urw-base35)
[ "$want_test" = 1 ] && apt_pkgs+=(chromium chromium-driver postgresql)
[ "$want_train" = 1 ] && apt_pkgs+=(gnome-backgrounds plasma-workspace-wallpapers gimp-data
                                    fonts-dejavu-extra fonts-noto-core fonts-symbola fonts-stix fonts-texgyre
                                    fonts-opensymbol fonts-lmodern fonts-unifont)
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing system packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq "${missing[@]}" >/dev/null; }
  else
    echo "[setup] please install these Debian packages (needs root): ${missing[*]}" >&2
    exit 1
  fi
fi

# --- Python environment ---
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  log "creating .venv with $($PY --version)"
  "$PY" -m venv .venv
fi
stamp=.venv/.cardref-installed
fingerprint=$(sha256sum pyproject.toml | cut -d" " -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$fingerprint" ]; then
  log "installing PyTorch 2.14.1 / torchvision 0.29.1 (pinned)"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q torch==2.14.1 torchvision==0.29.1
  log "installing cardref and its dependencies"
  .venv/bin/python -m pip install -q -e ".[vision,ui,store,dev]"
  echo "$fingerprint" > "$stamp"
else
  log ".venv is up to date"
fi
log "ready: .venv/bin/cardref --help"
