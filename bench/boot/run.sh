#!/bin/sh
# Boots the box's image under QEMU and checks it from power-on: the unit ready, the first frame on
# KMS, taps through the emulated PN532 shown, kill -9 and a hang restarted, a power cut resumed,
# doctor, nobody root, no traceback. Prints each check met / NOT MET; exits 1 on any miss.
#   sudo bench/boot/run.sh [--cache DIR] [--size 800x480|1920x1080] [--web] [--gpu DEVICE]
#   sudo bench/boot/run.sh --pi-time [--only zero2w|pi4] [--sleep on|off] [--cache DIR]
# Builds (or reuses) the cached image first with build.sh. Needs root, qemu-system-arm, qemu-utils.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
[ "$(id -u)" = 0 ] || { echo "run: run as root (the image's files belong to its users)" >&2; exit 2; }
command -v qemu-system-aarch64 >/dev/null || { echo "run: no qemu-system-aarch64: apt-get install qemu-system-arm" >&2; exit 2; }
# --pi-time [--only zero2w|pi4] [--sleep on|off]: the Pi-class time (bench/boot/pitime.py): each
# class's image built (800x480 for the Zero 2 W class, 1920x1080 for the Pi 4 class), then measured.
case " $* " in *" --pi-time "*)
    cache="" want="" prev=""
    for arg in "$@"; do
        case $prev in --cache) cache="--cache $arg" ;; --only) want="$want $arg" ;; esac
        prev=$arg
    done
    for cls in ${want:-zero2w pi4}; do
        case $cls in zero2w) size=800x480 ;; pi4) size=1920x1080 ;; *) echo "run: --only zero2w|pi4" >&2; exit 2 ;; esac
        "$HERE/build.sh" $cache --size $size
    done
    cd "$SRC"
    exec ./go shell python -m bench.boot.pitime "$@" ;;
esac
# build.sh takes the options that name the image; run.py takes them all.
build_args=""
prev=""
for arg in "$@"; do
    case $prev in --cache|--size) build_args="$build_args $prev $arg" ;; esac
    [ "$arg" = --web ] && build_args="$build_args --web"
    prev=$arg
done
"$HERE/build.sh" $build_args
cd "$SRC"
exec ./go shell python -m bench.boot.run "$@"
