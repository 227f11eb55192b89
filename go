#!/bin/sh
# Set up a virtual environment for munchkin-table (.venv), then run something in it.
usage() {
    cat <<'EOF_USAGE'
usage: ./go COMMAND [ARGS]

  run [ARGS]          the table (simulated hardware unless a reader is configured); installs the
                      table and the extras its config turns on ([web] enabled, [league] broker),
                      reading --config FILE or /etc/munchkin-table/config.toml
  test [PYTEST ARGS]  every test, in parallel on every core (pytest-xdist); ARGS go to pytest
                      (-n 0: one process)
  test --quick        the engine's and the controller's tests only (under a minute)
  bench               the figure benchmarks in bench/ (value, in-run baseline, ratio, target),
                      also to bench/results.json
  shell CMD...        any command inside the developers' environment, e.g. ./go shell munchkin-table state
  help                this text (also -h, --help)

test, bench and shell install the developers' tools too ([dev]); run installs none of them.
The table's own command is .venv/bin/munchkin-table: `. .venv/bin/activate` puts it on PATH.
EOF_USAGE
}
set -eu
cd "$(dirname "$0")"
VENV=${MUNCHKIN_VENV:-.venv}
PY=${PYTHON:-python3}
COMMANDS="run, test, bench, shell or help"

die() { echo "go: $*" >&2; exit 1; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else die "run as root: $*"; fi; }
is_pi() { grep -qs "Raspberry Pi" /proc/device-tree/model; }

cmd=${1:-run}
[ $# -gt 0 ] && shift
case "$cmd" in
    run|test|bench|shell) ;;
    help|-h|--help) usage; exit 0 ;;
    *) echo "go: unknown command '$cmd'; the commands are $COMMANDS" >&2; usage >&2; exit 2 ;;
esac

command -v "$PY" >/dev/null || die "python3 not found (sudo apt-get install python3)"
"$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "Python 3.11 or newer is needed; this is $("$PY" --version 2>&1)"

# The compiled catalogs follow their .po files: a pull that changes a translation recompiles it,
# with Babel where the developers' tools are installed, else through the package's build hook
# (setup.py), which an editable install runs in place.
catalogs() {
    for po in table/locale/*/LC_MESSAGES/*.po; do
        mo="${po%.po}.mo"
        if [ ! -f "$mo" ] || [ "$po" -nt "$mo" ]; then
            if "$VENV/bin/python" -c 'import babel' 2>/dev/null; then
                "$VENV/bin/python" -m table.words.catalogs compile >/dev/null
            else
                "$VENV/bin/python" -m pip install -q --no-deps -e . >/dev/null 2>&1
            fi || echo "go: could not compile the translations; the screen shows English" >&2
            return
        fi
    done
}

# A stamp per set of extras, newer than the files that say what to install: "runtime" (the table
# alone), "web", "league", "web,league" or "dev" (the developers' tools, with every extra).
fresh() {
    stamp="$VENV/.installed-$1"
    [ -f "$stamp" ] && [ "$stamp" -nt pyproject.toml ] && [ "$stamp" -nt setup.py ]
}

setup() {   # $1: the extras, comma-separated; empty for the table alone
    if fresh dev || fresh "${1:-runtime}"; then catalogs; return; fi
    # Debian splits venv (and ensurepip) out of python3.
    if ! "$PY" -c 'import venv, ensurepip' 2>/dev/null; then
        ver=$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
        as_root apt-get install -y "python$ver-venv" || as_root apt-get install -y python3-venv
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        # On a Pi the apt builds of lgpio/gpiozero are the ones that know the board.
        if is_pi; then "$PY" -m venv --system-site-packages "$VENV"; else "$PY" -m venv "$VENV"; fi
    fi
    "$VENV/bin/python" -m pip install -q --upgrade pip
    extras=$1
    if is_pi; then extras="${extras:+$extras,}pi"; fi
    # mfrc522 declares RPi.GPIO, which fails on a Pi 5 and on x86: install it alone.
    # Off the Pi the tests run its real code behind fake spidev and RPi.GPIO modules.
    "$VENV/bin/python" -m pip install -q --no-deps "mfrc522==0.0.7"
    # The editable install compiles the catalogs in place (setup.py's build hook).
    "$VENV/bin/python" -m pip install -q -e ".${extras:+[$extras]}"
    fonts
    touch "$VENV/.installed-${1:-runtime}"
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

# The extras the table's config turns on: "web" for [web] enabled = true, "league" for a
# [league] broker. The config is --config FILE among the arguments, else the system's.
run_extras() {
    config=${MUNCHKIN_SYSTEM_CONFIG:-/etc/munchkin-table/config.toml}
    while [ $# -gt 0 ]; do
        case "$1" in
            --config) [ $# -gt 1 ] && config=$2 ;;
            --config=*) config=${1#--config=} ;;
        esac
        shift
    done
    [ -r "$config" ] || return 0
    "$PY" - "$config" <<'EOF_CONFIG'
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as fh:
        config = tomllib.load(fh)
except (OSError, ValueError):
    sys.exit(0)     # the table itself says what is wrong with the file
web, league = config.get("web"), config.get("league")
extras = []
if isinstance(web, dict) and web.get("enabled") is True:
    extras.append("web")
if isinstance(league, dict) and league.get("broker"):
    extras.append("league")
print(",".join(extras))
EOF_CONFIG
}

# pytest's arguments: every core (pytest-xdist) unless they choose the processes themselves.
parallel() {
    for a in "$@"; do
        case "$a" in -n|-n*|--numprocesses*|--pdb|--trace|no:xdist) return 1 ;; esac
    done
}

case "$cmd" in
    run)   setup "$(run_extras "$@")"; exec "$VENV/bin/munchkin-table" run "$@" ;;
    test)  setup dev
           if [ "${1:-}" = --quick ]; then
               shift      # the rules and the controller: what most changes touch, in under a minute
               set -- -m "not slow" tests/engine tests/table/test_controller_*.py tests/table/test_prompts.py "$@"
           fi
           # one worker more than the cores: a third of the suite's wall time is tests waiting (on a
           # browser, a broker, a speaker, a killed child), and the extra worker fills it (2 cores:
           # 4m14 against 5m09 for a worker a core, 2026-12-04); idle workers take tests from busy ones
           if parallel "$@"; then set -- -n "$(( $(nproc 2>/dev/null || echo 1) + 1 ))" --dist worksteal "$@"; fi
           exec "$VENV/bin/python" -m pytest "$@" ;;
    bench) setup dev; rm -f bench/results.json      # the figure benches (not soak_*) write it afresh
           for b in bench/[!_]*.py; do
               case "${b##*/}" in soak_*) continue ;; esac
               echo "== $b"; "$VENV/bin/python" "$b"
           done
           echo "go: figures in bench/results.json" ;;
    shell) setup dev
           case "$VENV" in /*) bin=$VENV/bin ;; *) bin=$PWD/$VENV/bin ;; esac
           exec env PATH="$bin:$PATH" "$@" ;;
esac
