#!/bin/sh
# Set up a virtual environment for munchkin-table, then run something in it.
#   ./go run [ARGS]    the table (simulated hardware unless a reader is configured)
#   ./go test [ARGS]   the whole test suite
#   ./go bench         the figure benchmarks in bench/ (value, in-run baseline, ratio, target), also to bench/results.json
#   ./go shell CMD...  any command inside the environment
set -eu
cd "$(dirname "$0")"
VENV=${MUNCHKIN_VENV:-.venv}
PY=${PYTHON:-python3}

die() { echo "go: $*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else die "run as root: $*"; fi; }
is_pi() { grep -qs "Raspberry Pi" /proc/device-tree/model; }

command -v "$PY" >/dev/null || die "python3 not found (sudo apt-get install python3)"
"$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "Python 3.11 or newer is needed; this is $("$PY" --version 2>&1)"

setup() {
    # Debian splits venv (and ensurepip) out of python3.
    if ! "$PY" -c 'import venv, ensurepip' 2>/dev/null; then
        ver=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
        as_root apt-get install -y "python$ver-venv" || as_root apt-get install -y python3-venv
    fi
    stamp="$VENV/.installed-$1"
    if [ -f "$stamp" ] && [ "$stamp" -nt pyproject.toml ]; then return; fi
    if [ ! -x "$VENV/bin/python" ]; then
        # On a Pi the apt builds of lgpio/gpiozero are the ones that know the board.
        if is_pi; then "$PY" -m venv --system-site-packages "$VENV"; else "$PY" -m venv "$VENV"; fi
    fi
    "$VENV/bin/python" -m pip install -q --upgrade pip
    extras=$1
    if is_pi; then extras="$extras,pi"; fi
    # mfrc522 declares RPi.GPIO, which fails on a Pi 5 and on x86: install it alone.
    # Off the Pi the tests run its real code behind fake spidev and RPi.GPIO modules.
    "$VENV/bin/python" -m pip install -q --no-deps "mfrc522==0.0.7"
    "$VENV/bin/python" -m pip install -q -e ".[$extras]"
    "$VENV/bin/python" -m table.i18n compile >/dev/null || echo "go: could not compile translations; the screen reads the .po files" >&2
    fonts
    touch "$stamp"
}

# Chinese needs a CJK font: apt's fonts-wqy-microhei (1.6 MB) where we may use apt,
# else the same font from PyPI (paperang-p2-fonts-cjk), which needs no root.
fonts() {
    "$VENV/bin/python" -m table.fonts --check zh >/dev/null 2>&1 && return
    if [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; then
        as_root apt-get install -y -q fonts-wqy-microhei >/dev/null 2>&1 \
            || { as_root apt-get update -q >/dev/null 2>&1 && as_root apt-get install -y -q fonts-wqy-microhei >/dev/null 2>&1; } || true
    fi
    "$VENV/bin/python" -m table.fonts --check zh >/dev/null 2>&1 && return
    "$VENV/bin/python" -m pip install -q paperang-p2-fonts-cjk \
        || echo "go: no Chinese font installed; Chinese text will fall back (see table/fonts.py)" >&2
}

cmd=${1:-run}
[ $# -gt 0 ] && shift
case "$cmd" in
    run)   setup dev; exec "$VENV/bin/munchkin-table" run "$@" ;;
    test)  setup dev; exec "$VENV/bin/python" -m pytest "$@" ;;
    bench) setup dev; rm -f bench/results.json      # the figure benches (not soak_*) write it afresh
           for b in bench/[!_]*.py; do
               case "${b##*/}" in soak_*) continue ;; esac
               echo "== $b"; "$VENV/bin/python" "$b"
           done
           echo "go: figures in bench/results.json" ;;
    shell) setup dev; exec env PATH="$PWD/$VENV/bin:$PATH" "$@" ;;
    *) die "unknown command '$cmd' (expected run, test, bench or shell)" ;;
esac
