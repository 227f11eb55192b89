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

# The compiled catalogs follow their .po files: a pull that changes a translation recompiles it.
catalogs() {
    for po in table/locale/*/LC_MESSAGES/*.po; do
        mo="${po%.po}.mo"
        if [ ! -f "$mo" ] || [ "$po" -nt "$mo" ]; then
            "$VENV/bin/python" -m table.words.catalogs compile >/dev/null \
                || echo "go: could not compile the translations; the screen shows English" >&2
            return
        fi
    done
}

setup() {
    # Debian splits venv (and ensurepip) out of python3.
    if ! "$PY" -c 'import venv, ensurepip' 2>/dev/null; then
        ver=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
        as_root apt-get install -y "python$ver-venv" || as_root apt-get install -y python3-venv
    fi
    stamp="$VENV/.installed-$1"
    if [ -f "$stamp" ] && [ "$stamp" -nt pyproject.toml ]; then catalogs; return; fi
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
    "$VENV/bin/python" -m table.words.catalogs compile >/dev/null || echo "go: could not compile the translations; the screen shows English" >&2
    fonts
    touch "$stamp"
}

# Chinese needs a CJK font: apt's fonts-wqy-microhei (1.6 MB) where we may use apt. Without
# it the table uses the subset of Noto Sans SC it ships (table/assets/fonts, under the OFL).
fonts() {
    "$VENV/bin/python" -m table.ui.fonts --check-system zh >/dev/null 2>&1 && return
    if [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null; then
        as_root apt-get install -y -q fonts-wqy-microhei >/dev/null 2>&1 \
            || { as_root apt-get update -q >/dev/null 2>&1 && as_root apt-get install -y -q fonts-wqy-microhei >/dev/null 2>&1; } \
            || echo "go: could not install fonts-wqy-microhei; Chinese uses the font in table/assets/fonts" >&2
    fi
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
